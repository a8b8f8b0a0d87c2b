/**
 * The chat-completions wire (OpenAI and OpenAI-compatible services) on our own fixtures written
 * from the documented format (test/src/providers/openai/fixtures): text, streamed text with the
 * final usage-only chunk, tool calls (no args, parallel, streamed by index, split anywhere) and
 * structured output after a tool result. Reasoning, refusals and errors are in
 * documented-wire-reasoning.test.ts; recorded third-party traffic runs in `npm run test:recorded`.
 */
import fc from 'fast-check';
import { systemMessage, userMessage } from '../../../../src/core/contract/message';
import type { ModelRequest, ModelResponse } from 'golem';
import { openai } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunkedFetch, collector, ownFixture, splitAt } from './support';

const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };
const MODEL = 'gpt-own-test-2025-01-01';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const model = () =>
  openai({ model: 'gpt-own', preset: 'openai', apiKey: 'sk-own-test', baseURL: server.url });
const ask = (text: string, more: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [userMessage(text)],
  tools: [],
  ...more,
});
const reply = (file: string, status = 200) => ({
  status,
  headers: JSON_TYPE,
  body: ownFixture('openai', file),
});
const streamReply = (file: string) => ({ headers: SSE, body: ownFixture('openai', file) });

test('text: the exact response; POST /chat/completions with bearer auth and the minimal body', async () => {
  server.push(reply('completion-text.json'));
  const response = await model().generate(ask('How many syllables in a haiku?'));
  expect(response).toEqual({
    message: { role: 'assistant', content: 'A haiku has seventeen syllables.' },
    usage: { inputTokens: 18, outputTokens: 8 },
    finishReason: 'stop',
    modelName: MODEL,
    responseId: 'chatcmpl-own-text-01',
  });
  const request = server.requests[0];
  expect([request?.method, request?.url]).toEqual(['POST', '/chat/completions']);
  expect(request?.headers.authorization).toBe('Bearer sk-own-test');
  expect(request?.json).toEqual({
    model: 'gpt-own',
    messages: [{ role: 'user', content: 'How many syllables in a haiku?' }],
  });
});

test('text stream: deltas spell the text; usage comes from the final chunk with choices: []', async () => {
  server.push(streamReply('text.stream.sse'));
  const c = collector();
  const response = await model().stream(ask('Owls?'), c.onDelta);
  expect(c.deltas).toEqual([
    { content: 'Owls' },
    { content: ' can turn' },
    { content: ' their heads' },
    { content: ' 270 degrees.' },
  ]);
  expect(response).toEqual({
    message: { role: 'assistant', content: 'Owls can turn their heads 270 degrees.' },
    usage: { inputTokens: 22, outputTokens: 9 },
    finishReason: 'stop',
    modelName: MODEL,
    responseId: 'chatcmpl-own-stream-01',
  });
  expect(server.requests[0]?.json).toMatchObject({
    stream: true,
    stream_options: { include_usage: true },
  });
});

test('a tool call with empty arguments: args "{}", finish reason tool_calls', async () => {
  server.push(reply('completion-tool-no-args.json'));
  const response = await model().generate(ask('What time is it?'));
  expect(response.message).toEqual({
    role: 'assistant',
    toolCalls: [{ id: 'call_own_clock_1', name: 'current_time', args: '{}' }],
  });
  expect([response.finishReason, response.usage]).toEqual([
    'tool_calls',
    { inputTokens: 52, outputTokens: 11 },
  ]);
});

test('parallel tool calls: both calls in order with their raw argument text', async () => {
  server.push(reply('completion-parallel-tools.json'));
  const response = await model().generate(ask('EUR→JPY and GBP→BRL?'));
  expect(response.message.toolCalls).toEqual([
    { id: 'call_own_fx_1', name: 'exchange_rate', args: '{"from": "EUR", "to": "JPY"}' },
    { id: 'call_own_fx_2', name: 'exchange_rate', args: '{"from": "GBP", "to": "BRL"}' },
  ]);
  expect(response.finishReason).toBe('tool_calls');
});

const parallelStreamed: ModelResponse = {
  message: {
    role: 'assistant',
    toolCalls: [
      { id: 'call_own_weather_1', name: 'forecast', args: '{"city": "Oslo"}' },
      { id: 'call_own_weather_2', name: 'forecast', args: '{"city": "Quito"}' },
    ],
  },
  usage: { inputTokens: 81, outputTokens: 46 },
  finishReason: 'tool_calls',
  modelName: MODEL,
  responseId: 'chatcmpl-own-stream-02',
};

test('parallel tool calls streamed: id and name announced first, argument fragments by index', async () => {
  server.push(streamReply('parallel-tools.stream.sse'));
  const c = collector();
  const response = await model().stream(ask('Weather in Oslo and Quito?'), c.onDelta);
  expect(response).toEqual(parallelStreamed);
  const fragments = c.deltas.flatMap((d) => d.toolCalls ?? []);
  expect(fragments.filter((f) => f.id !== undefined)).toEqual([
    { index: 0, id: 'call_own_weather_1', name: 'forecast' },
    { index: 1, id: 'call_own_weather_2', name: 'forecast' },
  ]);
  for (const [index, call] of (response.message.toolCalls ?? []).entries())
    expect(
      fragments
        .filter((f) => f.index === index)
        .map((f) => f.argsFragment ?? '')
        .join(''),
    ).toBe(call.args);
});

test('ADV-1 the parallel tool-call stream split at arbitrary byte offsets gives the same response', async () => {
  const bytes = new Uint8Array(ownFixture('openai', 'parallel-tools.stream.sse'));
  const run = async (parts: Uint8Array[]) => {
    const fetch = chunkedFetch(parts);
    const split = openai({ model: 'gpt-own', preset: 'openai', apiKey: 'sk-own-test', fetch });
    return split.stream(ask('Weather?'), () => undefined);
  };
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 60 }),
      async (offsets) => {
        expect(await run(splitAt(bytes, offsets))).toEqual(parallelStreamed);
      },
    ),
    { numRuns: 100 },
  );
});

test('structured output after a tool result: history encoded as documented; content is the JSON', async () => {
  server.push(reply('completion-structured-output.json'));
  const schema = {
    type: 'object',
    properties: { river: { type: 'string' }, countries: { type: 'integer' } },
    required: ['river', 'countries'],
    additionalProperties: false,
  };
  const response = await model().generate({
    messages: [
      systemMessage('Answer with data.'),
      userMessage('Which river crosses the most countries?'),
      {
        role: 'assistant',
        toolCalls: [{ id: 'call_own_atlas_1', name: 'atlas', args: '{"topic":"rivers"}' }],
      },
      { role: 'tool', toolCallId: 'call_own_atlas_1', toolName: 'atlas', content: 'Danube: 10' },
    ],
    tools: [{ name: 'atlas', description: 'Looks facts up.', schema: { type: 'object' } }],
    outputSchema: schema,
  });
  expect(response.message).toEqual({
    role: 'assistant',
    content: '{"river":"Danube","countries":10}',
  });
  const sent = server.requests[0]?.json as Record<string, unknown>;
  expect(sent.messages).toEqual([
    { role: 'system', content: 'Answer with data.' },
    { role: 'user', content: 'Which river crosses the most countries?' },
    {
      role: 'assistant',
      tool_calls: [
        {
          id: 'call_own_atlas_1',
          type: 'function',
          function: { name: 'atlas', arguments: '{"topic":"rivers"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_own_atlas_1', content: 'Danube: 10' },
  ]);
  expect(sent.response_format).toEqual({
    type: 'json_schema',
    json_schema: { name: 'output', strict: true, schema },
  });
});
