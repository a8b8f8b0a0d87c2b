/**
 * End to end: an `Agent` driving the OpenAI-compatible adapter against the loopback replay server,
 * through a tool round trip (run and runStream), structured output, and streamed arguments.
 */
import { Agent, decodeJSON, defineTool, type Delta } from 'golem';
import { isRecord } from '../../../../src/core/kit/guards';
import { openai } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunk, completion, sse, usageChunk } from './support';

const SSE = { 'content-type': 'text/event-stream' };

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const model = () =>
  openai({ model: 'gpt-4o-mini', preset: 'openai', apiKey: 'sk-test', baseURL: server.url });

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};

function weatherTool(calls: unknown[]) {
  return defineTool({
    name: 'get_weather',
    description: 'Current weather of a city.',
    schema: weatherSchema,
    execute: (args) => {
      calls.push(args);
      return isRecord(args) && args.city === 'Lagos' ? 'sunny, 31°C' : 'unknown city';
    },
  });
}

const toolCallTurn = completion(
  {
    content: null,
    tool_calls: [
      {
        id: 'call_w1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Lagos"}' },
      },
    ],
  },
  'tool_calls',
  { prompt_tokens: 20, completion_tokens: 5 },
);

const secondRequestMessages = [
  { role: 'system', content: 'Answer briefly.' },
  { role: 'user', content: 'Weather in Lagos?' },
  {
    role: 'assistant',
    tool_calls: [
      {
        id: 'call_w1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Lagos"}' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'call_w1', content: 'sunny, 31°C' },
];

test('Agent.run: tool call, tool result sent back, final answer; usage summed', async () => {
  server.push(
    { body: JSON.stringify(toolCallTurn) },
    {
      body: JSON.stringify(
        completion({ content: 'Sunny and 31°C in Lagos.' }, 'stop', {
          prompt_tokens: 40,
          completion_tokens: 9,
        }),
      ),
    },
  );
  const calls: unknown[] = [];
  const agent = new Agent({
    model: model(),
    instructions: 'Answer briefly.',
    tools: [weatherTool(calls)],
  });
  const result = await agent.run('Weather in Lagos?');
  expect(result.output).toBe('Sunny and 31°C in Lagos.');
  expect(calls).toEqual([{ city: 'Lagos' }]);
  expect(result.usage).toEqual({ inputTokens: 60, outputTokens: 14 });
  expect(server.requests).toHaveLength(2);
  const tools = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather of a city.',
        parameters: weatherSchema,
      },
    },
  ];
  expect(server.requests[0]?.json).toEqual({
    model: 'gpt-4o-mini',
    messages: secondRequestMessages.slice(0, 2),
    tools,
  });
  expect(server.requests[1]?.json).toEqual({
    model: 'gpt-4o-mini',
    messages: secondRequestMessages,
    tools,
  });
});

test('Agent.runStream: every fragment of both turns, then the same result as run', async () => {
  server.push(
    {
      headers: SSE,
      body: sse([
        chunk({
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: 'call_w1',
              type: 'function',
              function: { name: 'get_weather', arguments: '' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"Lagos"}' } }] }),
        chunk({}, 'tool_calls'),
        usageChunk(20, 5),
      ]),
    },
    {
      headers: SSE,
      body: sse([
        chunk({ content: 'Sunny and ' }),
        chunk({ content: '31°C in Lagos.' }),
        chunk({}, 'stop'),
        usageChunk(40, 9),
      ]),
    },
  );
  const calls: unknown[] = [];
  const agent = new Agent({
    model: model(),
    instructions: 'Answer briefly.',
    tools: [weatherTool(calls)],
  });
  const stream = agent.runStream('Weather in Lagos?');
  const deltas: Delta[] = [];
  for await (const delta of stream) deltas.push(delta);
  const result = await stream.result;
  expect(deltas).toEqual([
    { toolCalls: [{ index: 0, id: 'call_w1', name: 'get_weather' }] },
    { toolCalls: [{ index: 0, argsFragment: '{"city":' }] },
    { toolCalls: [{ index: 0, argsFragment: '"Lagos"}' }] },
    { content: 'Sunny and ' },
    { content: '31°C in Lagos.' },
  ]);
  expect(result.output).toBe('Sunny and 31°C in Lagos.');
  expect(result.usage).toEqual({ inputTokens: 60, outputTokens: 14 });
  expect(calls).toEqual([{ city: 'Lagos' }]);
  expect(server.requests[1]?.json).toMatchObject({
    messages: secondRequestMessages,
    stream: true,
    stream_options: { include_usage: true },
  });
});

test('ADV-5 through an Agent: the tool runs once, after the stream, with the assembled args', async () => {
  const received: unknown[] = [];
  const search = defineTool({
    name: 'search',
    description: 'Search.',
    schema: {
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'integer' } },
    },
    execute: (args) => {
      received.push(args);
      return 'results';
    },
  });
  server.push(
    {
      headers: SSE,
      body: sse([
        chunk({
          tool_calls: [
            { index: 0, id: 'call_s', function: { name: 'search', arguments: '{"query":"test"' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: ', "limit":10}' } }] }),
        chunk({}, 'tool_calls'),
      ]),
    },
    { headers: SSE, body: sse([chunk({ content: 'done' }, 'stop')]) },
  );
  const executedAtFragment: number[] = [];
  const stream = new Agent({ model: model(), tools: [search] }).runStream('find', {
    onDelta: (delta) => {
      if (delta.toolCalls !== undefined) executedAtFragment.push(received.length);
    },
  });
  expect((await stream.result).output).toBe('done');
  expect(executedAtFragment).toEqual([0, 0]);
  expect(received).toEqual([{ query: 'test', limit: 10 }]);
});

test('native structured output: strict-mode nulls of optional fields are removed before decoding', async () => {
  server.push({
    body: JSON.stringify(completion({ content: '{"city":"Paris","population":null}' })),
  });
  const agent = new Agent({
    model: model(),
    outputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, population: { type: 'integer' } },
      required: ['city'],
    },
    output: decodeJSON((value) => value as { city: string; population?: number }),
  });
  const result = await agent.run('Capital of France?');
  expect(result.output).toEqual({ city: 'Paris' });
  expect(server.requests[0]?.json).toMatchObject({
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'output',
        strict: true,
        schema: { required: ['city', 'population'], additionalProperties: false },
      },
    },
  });
});
