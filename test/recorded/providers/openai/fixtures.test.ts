/**
 * Every recorded OpenAI / OpenAI-compatible fixture in ../shared/fixtures/providers/openai
 * goes through the adapter (served by the loopback replay server) and must produce exactly the
 * values of its `*.expected.json`. Where the fixture recorded its request, the body we send for the
 * same conversation is compared with it; the differences are other clients' defaults we never
 * send (`n`, `stream: false`, `tool_choice`, `strict: false`, image `detail`). The error
 * fixtures (o11–o13) are in fixtures-errors.test.ts.
 */
import { imageUrl } from 'golem';
import { userMessage, systemMessage } from '../../../../src/core/contract/message';
import type { ModelRequest, ToolSpec } from 'golem';
import { openai, openaiCompatible } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { recordedView } from '../../recorded-view';
import { collector, omit } from '../../../src/providers/openai/support';
import { chunksToSse, expectedOf, expectedResponse, fixtureBytes, fixtureJson } from './recorded';

const DIR = 'openai';
const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };
const OPENAI = { provider: 'openai' };

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model(name = 'gpt-4o') {
  return openai({ model: name, preset: 'openai', apiKey: 'sk-test-key', baseURL: server.url });
}

const ask = (text: string): ModelRequest => ({ messages: [userMessage(text)], tools: [] });

const secretTool: ToolSpec = {
  name: 'secret_retrieval_tool',
  description: 'A tool that requires a password to retrieve a secret.',
  schema: {
    properties: { password: { title: 'Password', type: 'string' } },
    required: ['password'],
    additionalProperties: false,
    type: 'object',
  },
};
const parallelRequest: ModelRequest = {
  messages: [
    systemMessage('Use parallel tool calling.'),
    userMessage(
      'Please retrieve the secrets associated with each of these passwords: mellon,radiance',
    ),
  ],
  tools: [secretTool],
};

function withoutStrictFalse(request: unknown): unknown {
  const body = request as { tools: { function: Record<string, unknown> }[] };
  return {
    ...body,
    tools: body.tools.map((t) => ({ ...t, function: omit(t.function, 'strict') })),
  };
}

test('o01 text: the exact response, and the request body equals the recorded one', async () => {
  server.push({ headers: JSON_TYPE, body: fixtureBytes(DIR, 'o01-text.json') });
  const response = await model().generate(ask('What is 4200 + 42?'));
  expect(recordedView(response, OPENAI)).toEqual(expectedResponse(expectedOf(DIR, 'o01-text')));
  expect(server.requests[0]?.url).toBe('/chat/completions');
  expect(server.requests[0]?.json).toEqual(fixtureJson(DIR, 'o01-text.request.json'));
});

test('o02 text stream: the exact response, deltas spell the text, request equals the recorded one', async () => {
  server.push({ headers: SSE, body: fixtureBytes(DIR, 'o02-text.stream.sse') });
  const c = collector();
  const response = await model().stream(ask('What is 4200 + 42?'), c.onDelta);
  const expected = expectedOf(DIR, 'o02-text.stream');
  expect(recordedView(response, OPENAI)).toEqual(expectedResponse(expected));
  expect(c.text()).toBe(expected.text);
  expect(server.requests[0]?.json).toEqual(fixtureJson(DIR, 'o02-text.stream.request.json'));
});

test('o03 tool call with empty args: args "{}", request equal but for n/stream/tool_choice', async () => {
  server.push({ headers: JSON_TYPE, body: fixtureBytes(DIR, 'o03-tool-call.json') });
  const tools: ToolSpec[] = [
    {
      name: 'get_user_country',
      description: '',
      schema: { additionalProperties: false, properties: {}, type: 'object' },
    },
    {
      name: 'final_result',
      description: 'The final response which ends this conversation',
      schema: {
        properties: { city: { type: 'string' }, country: { type: 'string' } },
        required: ['city', 'country'],
        type: 'object',
      },
    },
  ];
  const response = await model().generate({
    messages: [userMessage('What is the largest city in the user country?')],
    tools,
  });
  expect(recordedView(response, OPENAI)).toEqual(
    expectedResponse(expectedOf(DIR, 'o03-tool-call')),
  );
  expect(server.requests[0]?.json).toEqual(
    omit(fixtureJson(DIR, 'o03-tool-call.request.json'), 'n', 'stream', 'tool_choice'),
  );
});

test('o04 parallel tool calls: both calls in order, request equal but for strict:false', async () => {
  server.push({ headers: JSON_TYPE, body: fixtureBytes(DIR, 'o04-parallel-tool-calls.json') });
  const response = await model().generate(parallelRequest);
  expect(recordedView(response, OPENAI)).toEqual(
    expectedResponse(expectedOf(DIR, 'o04-parallel-tool-calls')),
  );
  expect(server.requests[0]?.json).toEqual(
    withoutStrictFalse(fixtureJson(DIR, 'o04-parallel-tool-calls.request.json')),
  );
});

test('o05 parallel tool calls streamed: fragments assembled by index, ids announced first', async () => {
  server.push({ headers: SSE, body: fixtureBytes(DIR, 'o05-parallel-tool-calls.stream.sse') });
  const c = collector();
  const response = await model().stream(parallelRequest, c.onDelta);
  const expected = expectedOf(DIR, 'o05-parallel-tool-calls.stream');
  expect(recordedView(response, OPENAI)).toEqual(expectedResponse(expected));
  const starts = c.deltas.flatMap((d) => d.toolCalls ?? []).filter((t) => t.id !== undefined);
  expect(starts.map((t) => [t.index, t.id, t.name])).toEqual(
    expected.tool_calls.map((t, i) => [i, t.id, t.name]),
  );
  expect(server.requests[0]?.json).toEqual(
    withoutStrictFalse(fixtureJson(DIR, 'o05-parallel-tool-calls.stream.request.json')),
  );
});

test('o06 structured output after a tool result: content is the JSON text; history encoded as recorded', async () => {
  server.push({ headers: JSON_TYPE, body: fixtureBytes(DIR, 'o06-structured-output.json') });
  const recorded = fixtureJson(DIR, 'o06-structured-output.request.json') as {
    messages: unknown[];
    tools: unknown[];
  };
  const response = await model().generate({
    messages: [
      userMessage('What is the largest city in the user country?'),
      {
        role: 'assistant',
        toolCalls: [{ id: 'call_PkRGedQNRFUzJp2R7dO7avWR', name: 'get_user_country', args: '{}' }],
      },
      {
        role: 'tool',
        toolCallId: 'call_PkRGedQNRFUzJp2R7dO7avWR',
        toolName: 'get_user_country',
        content: 'Mexico',
      },
    ],
    tools: [
      {
        name: 'get_user_country',
        description: '',
        schema: { additionalProperties: false, properties: {}, type: 'object' },
      },
    ],
    outputSchema: {
      properties: { city: { type: 'string' }, country: { type: 'string' } },
      required: ['city', 'country'],
      type: 'object',
    },
  });
  expect(recordedView(response, OPENAI)).toEqual(
    expectedResponse(expectedOf(DIR, 'o06-structured-output')),
  );
  const sent = server.requests[0]?.json as Record<string, unknown>;
  expect(sent.messages).toEqual(recorded.messages);
  expect(sent.tools).toEqual(recorded.tools);
  expect(sent.response_format).toEqual({
    type: 'json_schema',
    json_schema: {
      name: 'output',
      strict: true,
      schema: {
        type: 'object',
        properties: { city: { type: 'string' }, country: { type: 'string' } },
        required: ['city', 'country'],
        additionalProperties: false,
      },
    },
  });
});

test('o07 DeepSeek reasoning_content becomes one thinking block before the text', async () => {
  server.push({
    headers: JSON_TYPE,
    body: fixtureBytes(DIR, 'o07-reasoning-content-deepseek.json'),
  });
  const deepseek = openaiCompatible('deepseek', {
    model: 'deepseek-reasoner',
    apiKey: 'sk-test-key',
    baseURL: server.url,
  });
  const response = await deepseek.generate(ask('How do I cross the street?'));
  expect(recordedView(response, { provider: 'deepseek', model: 'deepseek-reasoner' })).toEqual(
    expectedResponse(expectedOf(DIR, 'o07-reasoning-content-deepseek')),
  );
  expect(server.requests[0]?.json).toEqual(
    omit(fixtureJson(DIR, 'o07-reasoning-content-deepseek.request.json'), 'n', 'stream'),
  );
});

test('o08 DeepSeek stream: reasoning deltas precede the tool call; args assembled at the end', async () => {
  const chunks = fixtureBytes(DIR, 'o08-reasoning-content-tool-call-deepseek.stream.chunks.txt');
  server.push({ headers: SSE, body: chunksToSse(chunks.toString('utf8')) });
  const c = collector();
  const response = await model('deepseek-reasoner').stream(ask('weather in SF?'), c.onDelta);
  const expected = expectedOf(DIR, 'o08-reasoning-content-tool-call-deepseek.stream');
  expect(recordedView(response, { provider: 'openai', model: expected.model })).toEqual(
    expectedResponse(expected),
  );
  const kinds = c.deltas.map((d) => (d.thinking ? 'thinking' : d.toolCalls ? 'tool' : 'text'));
  expect(kinds.indexOf('tool')).toBeGreaterThan(kinds.lastIndexOf('thinking'));
  expect(
    c.deltas
      .flatMap((d) => d.thinking ?? [])
      .map((t) => t.text)
      .join(''),
  ).toBe(expected.reasoning[0]?.text);
});

test('o09 xAI reasoning_content with a tool call', async () => {
  server.push({
    headers: JSON_TYPE,
    body: fixtureBytes(DIR, 'o09-reasoning-content-tool-call-xai.json'),
  });
  const response = await model('grok-3-mini').generate(ask('weather in SF?'));
  expect(recordedView(response, { provider: 'openai', model: 'grok-3-mini' })).toEqual(
    expectedResponse(expectedOf(DIR, 'o09-reasoning-content-tool-call-xai')),
  );
});

test('o10 image input: a URL part becomes an image_url content part', async () => {
  server.push({ headers: JSON_TYPE, body: fixtureBytes(DIR, 'o10-image-input.json') });
  const response = await model().generate({
    messages: [
      userMessage('Describe the following image in one sentence', [
        imageUrl('https://en.wikipedia.org/static/images/icons/wikipedia.png'),
      ]),
    ],
    tools: [],
  });
  expect(recordedView(response, OPENAI)).toEqual(
    expectedResponse(expectedOf(DIR, 'o10-image-input')),
  );
  const recorded = fixtureJson(DIR, 'o10-image-input.request.json') as {
    messages: { content: { image_url?: Record<string, unknown> }[] }[];
  };
  for (const part of recorded.messages[0]?.content ?? [])
    if (part.image_url) Reflect.deleteProperty(part.image_url, 'detail');
  expect(server.requests[0]?.json).toEqual(recorded);
});
