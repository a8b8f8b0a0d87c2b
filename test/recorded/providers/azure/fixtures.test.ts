/**
 * Every recorded Azure OpenAI fixture in ../shared/fixtures/providers/azure goes through the
 * Azure adapter (loopback replay server) and must produce exactly its `*.expected.json`. Most
 * were recorded against the v1 API (`/openai/v1/chat/completions`, deployment as `model`); z03
 * against a classic deployment URL with `api-version`.
 */
import { ModelHTTPError, imageUrl } from 'golem';
import { systemMessage, userMessage } from '../../../../src/core/contract/message';
import type { ModelRequest, ToolSpec } from 'golem';
import { azure, type AzureOptions } from 'golem/providers/azure';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { collector, omit } from '../../../src/providers/openai/support';
import { recordedView } from '../../recorded-view';
import {
  chunksToSse,
  expectedOf,
  expectedResponse,
  fixtureBytes,
  fixtureJson,
  type ExpectedError,
} from '../openai/recorded';

const DIR = 'azure';
const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };
const AZURE = { provider: 'azure' };
const KEY = 'azure-key-0123456789';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function v1(options: Partial<AzureOptions> = {}) {
  return azure({
    endpoint: server.url,
    deployment: 'gpt-5-mini',
    apiVersion: 'v1',
    apiKey: KEY,
    ...options,
  });
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

test('z01 v1 text: exact response; path, api-key header and body as recorded', async () => {
  server.push({ headers: JSON_TYPE, body: fixtureBytes(DIR, 'z01-text.json') });
  const response = await v1().generate(ask('What is 4200 + 42?'));
  expect(recordedView(response, AZURE)).toEqual(expectedResponse(expectedOf(DIR, 'z01-text')));
  const request = server.requests[0];
  expect(request?.url).toBe('/openai/v1/chat/completions');
  expect(request?.headers['api-key']).toBe(KEY);
  expect(request?.headers.authorization).toBeUndefined();
  expect(request?.json).toEqual(fixtureJson(DIR, 'z01-text.request.json'));
});

test('z02 v1 stream: a first chunk with choices:[] and empty model is skipped; exact response', async () => {
  server.push({ headers: SSE, body: fixtureBytes(DIR, 'z02-text.stream.sse') });
  const c = collector();
  const response = await v1().stream(ask('What is 4200 + 42?'), c.onDelta);
  const expected = expectedOf(DIR, 'z02-text.stream');
  expect(recordedView(response, AZURE)).toEqual(expectedResponse(expected));
  expect(c.text()).toBe(expected.text);
  expect(server.requests[0]?.json).toEqual(fixtureJson(DIR, 'z02-text.stream.request.json'));
});

test('z03 classic deployment URL with api-version; no model in the body', async () => {
  server.push({ headers: JSON_TYPE, body: fixtureBytes(DIR, 'z03-text-deployment-url.json') });
  const classic = azure({
    endpoint: server.url,
    deployment: 'gpt-4o',
    apiVersion: '2024-12-01-preview',
    apiKey: KEY,
  });
  const response = await classic.generate(ask('What is the capital of France?'));
  expect(recordedView(response, AZURE)).toEqual(
    expectedResponse(expectedOf(DIR, 'z03-text-deployment-url')),
  );
  expect(server.requests[0]?.url).toBe(
    '/openai/deployments/gpt-4o/chat/completions?api-version=2024-12-01-preview',
  );
  expect(server.requests[0]?.json).toEqual(
    omit(fixtureJson(DIR, 'z03-text-deployment-url.request.json'), 'model', 'n', 'stream'),
  );
});

test('z04 parallel tool calls with strict tools: request identical to the recorded one', async () => {
  server.push({ headers: JSON_TYPE, body: fixtureBytes(DIR, 'z04-parallel-tool-calls.json') });
  const response = await v1({ strictSchemas: true }).generate(parallelRequest);
  expect(recordedView(response, AZURE)).toEqual(
    expectedResponse(expectedOf(DIR, 'z04-parallel-tool-calls')),
  );
  expect(server.requests[0]?.json).toEqual(
    fixtureJson(DIR, 'z04-parallel-tool-calls.request.json'),
  );
});

test('z05 parallel tool calls streamed with strict tools: request identical, calls assembled', async () => {
  server.push({ headers: SSE, body: fixtureBytes(DIR, 'z05-parallel-tool-calls.stream.sse') });
  const response = await v1({ strictSchemas: true }).stream(parallelRequest, () => undefined);
  expect(recordedView(response, AZURE)).toEqual(
    expectedResponse(expectedOf(DIR, 'z05-parallel-tool-calls.stream')),
  );
  expect(server.requests[0]?.json).toEqual(
    fixtureJson(DIR, 'z05-parallel-tool-calls.stream.request.json'),
  );
});

test('z06 structured output ($defs, $ref): exact response; the recorded schema is sent unchanged', async () => {
  server.push({ headers: JSON_TYPE, body: fixtureBytes(DIR, 'z06-structured-output.json') });
  const recorded = fixtureJson(DIR, 'z06-structured-output.request.json') as {
    messages: unknown;
    response_format: { json_schema: { schema: Record<string, unknown> } };
  };
  const schema = recorded.response_format.json_schema.schema as ModelRequest['outputSchema'];
  const response = await v1().generate({
    ...ask('Please recommend the most popular book by Patrick Rothfuss'),
    outputSchema: schema,
  });
  expect(recordedView(response, AZURE)).toEqual(
    expectedResponse(expectedOf(DIR, 'z06-structured-output')),
  );
  expect(server.requests[0]?.json).toEqual({
    model: 'gpt-5-mini',
    messages: recorded.messages,
    response_format: { type: 'json_schema', json_schema: { name: 'output', strict: true, schema } },
  });
});

test('z07 image input: image_url part; request equal but for detail', async () => {
  server.push({ headers: JSON_TYPE, body: fixtureBytes(DIR, 'z07-image-input.json') });
  const response = await v1().generate({
    messages: [
      userMessage('Describe the following image in one sentence', [
        imageUrl('https://en.wikipedia.org/static/images/icons/wikipedia.png'),
      ]),
    ],
    tools: [],
  });
  expect(recordedView(response, AZURE)).toEqual(
    expectedResponse(expectedOf(DIR, 'z07-image-input')),
  );
  const recorded = fixtureJson(DIR, 'z07-image-input.request.json') as {
    messages: { content: { image_url?: Record<string, unknown> }[] }[];
  };
  for (const part of recorded.messages[0]?.content ?? [])
    if (part.image_url) Reflect.deleteProperty(part.image_url, 'detail');
  expect(server.requests[0]?.json).toEqual(recorded);
});

test('z08 model-router stream (two choice-less chunks): exact response', async () => {
  const chunks = fixtureBytes(DIR, 'z08-model-router.stream.chunks.txt').toString('utf8');
  server.push({ headers: SSE, body: chunksToSse(chunks) });
  const c = collector();
  const response = await v1().stream(ask('Capital of Denmark?'), c.onDelta);
  const expected = expectedOf(DIR, 'z08-model-router.stream');
  expect(recordedView(response, AZURE)).toEqual(expectedResponse(expected));
  expect(c.text()).toBe(expected.text);
});

async function expectAzureError(
  name: string,
  run: () => Promise<unknown>,
): Promise<ModelHTTPError> {
  const expected = (
    fixtureJson(DIR, `${name}.expected.json`) as { expected: { error: ExpectedError } }
  ).expected.error;
  const error: unknown = await run().catch((e: unknown) => e);
  if (!ModelHTTPError.is(error)) throw new Error(`expected a ModelHTTPError, got ${String(error)}`);
  expect({
    status: error.status,
    code: error.code,
    message: error.message,
    retryable: error.retryable,
  }).toEqual({
    status: expected.http_status,
    code: String(expected.body.error.code),
    message: `azure: HTTP ${expected.http_status}: ${expected.body.error.message}`,
    retryable: false,
  });
  return error;
}

test('z09 unknown model: Azure answers 400 unknown_model (not 404)', async () => {
  server.push({
    status: 400,
    headers: JSON_TYPE,
    body: fixtureBytes(DIR, 'z09-error-400-unknown-model.json'),
  });
  await expectAzureError('z09-error-400-unknown-model', () =>
    v1({ deployment: 'this-model-does-not-exist-12345' }).generate(
      ask('This should fail with NotFoundError'),
    ),
  );
  expect(server.requests[0]?.json).toEqual(
    fixtureJson(DIR, 'z09-error-400-unknown-model.request.json'),
  );
});

test('z10 max_tokens on a reasoning deployment: 400 unsupported_parameter; request as recorded', async () => {
  server.push({
    status: 400,
    headers: JSON_TYPE,
    body: fixtureBytes(DIR, 'z10-error-400-unsupported-parameter.json'),
  });
  await expectAzureError('z10-error-400-unsupported-parameter', () =>
    v1().generate({ ...ask('List all U.S. states.'), settings: { maxTokens: 50 } }),
  );
  expect(server.requests[0]?.json).toEqual(
    fixtureJson(DIR, 'z10-error-400-unsupported-parameter.request.json'),
  );
});
