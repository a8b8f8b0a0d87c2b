/**
 * The Azure OpenAI chat-completions wire on our own fixtures written from the documented format
 * (test/src/providers/azure/fixtures): prompt and choice content-filter results, the choice-less
 * first stream chunk, v1 and classic deployment addressing, parallel tool calls (streamed and
 * split anywhere), a strict `$defs`/`$ref` output schema, the model-router stream, a
 * content-filter stop and Azure's 400 error bodies. Recorded traffic runs in `npm run test:recorded`.
 */
import fc from 'fast-check';
import { ModelHTTPError, type JsonSchema, type ModelRequest } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { azure, type AzureOptions } from 'golem/providers/azure';
import { toStrictSchema } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunkedFetch, collector, ownFixture, splitAt } from '../openai/support';

const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };
const KEY = 'azure-own-key-0123456789';
const MODEL = 'gpt-own-azure-2025-02-02';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const v1 = (options: Partial<AzureOptions> = {}) =>
  azure({
    endpoint: server.url,
    deployment: 'own-deploy',
    apiVersion: 'v1',
    apiKey: KEY,
    ...options,
  });
const ask = (text: string): ModelRequest => ({ messages: [userMessage(text)], tools: [] });
const reply = (file: string, status = 200) => ({
  status,
  headers: JSON_TYPE,
  body: ownFixture('azure', file),
});
const streamReply = (file: string) => ({ headers: SSE, body: ownFixture('azure', file) });

test('v1 text: filter results are ignored; path /openai/v1/chat/completions, api-key header, deployment as model', async () => {
  server.push(reply('completion-text.json'));
  const response = await v1().generate(ask('Where is Lisbon?'));
  expect(response).toEqual({
    message: { role: 'assistant', content: 'Lisbon sits on the Tagus estuary.' },
    usage: { inputTokens: 16, outputTokens: 9 },
    finishReason: 'stop',
    modelName: MODEL,
    responseId: 'chatcmpl-own-az-01',
  });
  const request = server.requests[0];
  expect(request?.url).toBe('/openai/v1/chat/completions');
  expect(request?.headers['api-key']).toBe(KEY);
  expect(request?.headers.authorization).toBeUndefined();
  expect(request?.json).toEqual({
    model: 'own-deploy',
    messages: [{ role: 'user', content: 'Where is Lisbon?' }],
  });
});

test('classic deployment URL: deployment and api-version in the URL, no model in the body', async () => {
  server.push(reply('completion-text.json'));
  const classic = azure({
    endpoint: server.url,
    deployment: 'own-deploy',
    apiVersion: '2024-12-01-preview',
    apiKey: KEY,
  });
  expect((await classic.generate(ask('Where is Lisbon?'))).message.content).toBe(
    'Lisbon sits on the Tagus estuary.',
  );
  expect(server.requests[0]?.url).toBe(
    '/openai/deployments/own-deploy/chat/completions?api-version=2024-12-01-preview',
  );
  expect(server.requests[0]?.json).toEqual({
    messages: [{ role: 'user', content: 'Where is Lisbon?' }],
  });
});

test('text stream: the choice-less first chunk (empty id and model) is skipped; usage from the last', async () => {
  server.push(streamReply('text.stream.sse'));
  const c = collector();
  const response = await v1().stream(ask('Old capital of Japan?'), c.onDelta);
  expect(c.text()).toBe('Kyoto was the capital until 1869.');
  expect(response).toEqual({
    message: { role: 'assistant', content: 'Kyoto was the capital until 1869.' },
    usage: { inputTokens: 17, outputTokens: 40, reasoningTokens: 24 },
    finishReason: 'stop',
    modelName: MODEL,
    responseId: 'chatcmpl-own-az-s1',
  });
});

test('model-router stream: two choice-less chunks, then the routed model names the response', async () => {
  server.push(streamReply('model-router.stream.sse'));
  const c = collector();
  const response = await v1({ deployment: 'model-router' }).stream(ask('Capital?'), c.onDelta);
  expect(c.text()).toBe("Oslo is Norway's capital.");
  expect([response.modelName, response.usage, response.finishReason]).toEqual([
    'gpt-own-routed-nano',
    { inputTokens: 12, outputTokens: 70, reasoningTokens: 64 },
    'stop',
  ]);
});

test('parallel tool calls: both calls in order; reasoning tokens are part of the output count', async () => {
  server.push(reply('completion-parallel-tools.json'));
  const response = await v1().generate(ask('Stock of A-100 and B-200?'));
  expect(response).toEqual({
    message: {
      role: 'assistant',
      toolCalls: [
        { id: 'call_own_az_stock_1', name: 'stock_level', args: '{"sku":"A-100"}' },
        { id: 'call_own_az_stock_2', name: 'stock_level', args: '{"sku":"B-200"}' },
      ],
    },
    usage: { inputTokens: 120, outputTokens: 150, reasoningTokens: 96 },
    finishReason: 'tool_calls',
    modelName: MODEL,
    responseId: 'chatcmpl-own-az-02',
  });
});

const routes = {
  message: {
    role: 'assistant',
    toolCalls: [
      { id: 'call_own_az_route_1', name: 'route', args: '{"from":"Bern","to":"Graz"}' },
      { id: 'call_own_az_route_2', name: 'route', args: '{"from":"Graz","to":"Split"}' },
    ],
  },
  usage: { inputTokens: 133, outputTokens: 101, reasoningTokens: 64 },
  finishReason: 'tool_calls',
  modelName: MODEL,
  responseId: 'chatcmpl-own-az-s2',
};

test('parallel tool calls streamed: argument fragments assembled by index', async () => {
  server.push(streamReply('parallel-tools.stream.sse'));
  expect(await v1().stream(ask('Bern → Graz → Split?'), () => undefined)).toEqual(routes);
});

test('ADV-1 the Azure tool-call stream split at arbitrary byte offsets gives the same response', async () => {
  const bytes = new Uint8Array(ownFixture('azure', 'parallel-tools.stream.sse'));
  const run = (parts: Uint8Array[]) =>
    azure({
      endpoint: 'https://contoso.openai.azure.com',
      deployment: 'own-deploy',
      apiVersion: 'v1',
      apiKey: KEY,
      fetch: chunkedFetch(parts),
    }).stream(ask('Routes?'), () => undefined);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 60 }),
      async (offsets) => {
        expect(await run(splitAt(bytes, offsets))).toEqual(routes);
      },
    ),
    { numRuns: 100 },
  );
});

/** An already strict schema ($defs, $ref, titles, every property required, objects closed). */
const person: JsonSchema = {
  $defs: {
    Address: {
      title: 'Address',
      type: 'object',
      properties: { city: { title: 'City', type: 'string' }, street: { type: 'string' } },
      required: ['city', 'street'],
      additionalProperties: false,
    },
  },
  title: 'Person',
  type: 'object',
  properties: {
    name: { title: 'Name', type: 'string' },
    address: { $ref: '#/$defs/Address' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['name', 'address', 'tags'],
  additionalProperties: false,
};

test('an already strict schema ($defs, $ref, titles) compiles to itself', () => {
  expect(toStrictSchema(person)).toEqual(person);
});

test('structured output with $defs/$ref: the schema is sent unchanged; content is the JSON', async () => {
  server.push(reply('completion-structured-output.json'));
  const response = await v1().generate({ ...ask('Who was Ada?'), outputSchema: person });
  expect(JSON.parse(response.message.content ?? '')).toEqual({
    name: 'Ada',
    address: { city: 'London', street: "St James's Square" },
    tags: ['math'],
  });
  expect((server.requests[0]?.json as { response_format: unknown }).response_format).toEqual({
    type: 'json_schema',
    json_schema: { name: 'output', strict: true, schema: person },
  });
});

test('a completion stopped by the content filter: no content, finish reason content_filter', async () => {
  server.push(reply('completion-content-filter.json'));
  const response = await v1().generate(ask('…'));
  expect([response.message, response.finishReason]).toEqual([
    { role: 'assistant' },
    'content_filter',
  ]);
});

test.each([
  ['error-400-unknown-model.json', 'unknown_model', 'Unknown model: own-missing-deployment'],
  [
    'error-400-unsupported-parameter.json',
    'unsupported_parameter',
    "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
  ],
])('%s: ModelHTTPError 400 with the code and message; not retryable', async (file, code, text) => {
  server.push(reply(file, 400));
  const error: unknown = await v1()
    .generate(ask('x'))
    .catch((e: unknown) => e);
  if (!ModelHTTPError.is(error)) throw new Error(`expected a ModelHTTPError, got ${String(error)}`);
  expect([error.status, error.code, error.retryable, error.provider, error.message]).toEqual([
    400,
    code,
    false,
    'azure',
    `azure: HTTP 400: ${text}`,
  ]);
});
