/**
 * Error classification (spec §25 PA-1…PA-3): HTTP errors become ModelHTTPError with the provider's
 * code and message, transport failures ModelTransportError, aborts the signal's cancellation
 * error; API keys never appear in any of them.
 */
import { CancelledError, ModelHTTPError, isRetryable } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import type { ModelRequest } from 'golem';
import { openai, parseOpenAIError, type OpenAIOptions } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { completion } from './support';
import { ModelProtocolError, ModelTransportError } from '../../../support/internal-errors';

const KEY = 'sk-live-0123456789abcdef';
const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model(options: Partial<OpenAIOptions> = {}) {
  return openai({
    model: 'gpt-4o',
    preset: 'openai',
    apiKey: KEY,
    baseURL: server.url,
    ...options,
  });
}

async function failure(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

function errorBody(message: string, type: string, code: string | null = null): string {
  return JSON.stringify({ error: { message, type, param: null, code } });
}

test('PA-1 status → retryable: 400 no, 401 no, 408 yes, 429 yes, 500 yes, 503 yes, 529 yes', async () => {
  const statuses = [400, 401, 408, 429, 500, 503, 529];
  for (const status of statuses) server.push({ status, body: errorBody(`status ${status}`, 'x') });
  const outcomes: [number, boolean][] = [];
  for (const _ of statuses) {
    const error = await failure(model().generate(hi));
    if (!ModelHTTPError.is(error)) throw error;
    outcomes.push([error.status, isRetryable(error)]);
  }
  expect(outcomes).toEqual([
    [400, false],
    [401, false],
    [408, true],
    [429, true],
    [500, true],
    [503, true],
    [529, true],
  ]);
});

test('PA-2 400 with an OpenAI error body: code, message and truncated body', async () => {
  const body = errorBody(
    "Invalid 'messages': empty array.",
    'invalid_request_error',
    'empty_array',
  );
  server.push({ status: 400, body });
  const error = await failure(model().generate(hi));
  expect(ModelHTTPError.is(error)).toBe(true);
  expect(error).toMatchObject({
    status: 400,
    provider: 'openai',
    code: 'empty_array',
    retryable: false,
    body,
    message: "openai: HTTP 400: Invalid 'messages': empty array.",
  });
});

test('401 without a code falls back to the error type; the key is redacted from message and body', async () => {
  server.push({
    status: 401,
    body: errorBody(`Incorrect API key provided: ${KEY}.`, 'invalid_request_error'),
  });
  const error = await failure(model().generate(hi));
  expect(error).toMatchObject({
    status: 401,
    code: 'invalid_request_error',
    retryable: false,
    message: 'openai: HTTP 401: Incorrect API key provided: [redacted].',
  });
  expect(JSON.stringify({ ...(error as object), m: (error as Error).message })).not.toContain(KEY);
});

test('429 honours Retry-After (seconds) and retry-after-ms', async () => {
  server.push(
    {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
      body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
    },
    {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after-ms': '1500' },
      body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
    },
  );
  const first = await failure(model().generate(hi));
  const second = await failure(model().generate(hi));
  expect([first, second]).toMatchObject([
    { status: 429, code: 'rate_limit_exceeded', retryable: true, retryAfter: 7000 },
    { status: 429, retryable: true, retryAfter: 1500 },
  ]);
});

test('429 insufficient_quota is not retryable (no credit left)', async () => {
  server.push({
    status: 429,
    body: errorBody('You exceeded your current quota.', 'insufficient_quota', 'insufficient_quota'),
  });
  const error = await failure(model().generate(hi));
  expect(error).toMatchObject({
    status: 429,
    code: 'insufficient_quota',
    retryable: false,
    message: 'openai: HTTP 429: You exceeded your current quota.',
  });
  expect(isRetryable(error)).toBe(false);
});

test('500 with a non-JSON body keeps the text as body; retryable', async () => {
  server.push({ status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>oops</h1>' });
  const error = await failure(model().generate(hi));
  expect(error).toMatchObject({
    status: 500,
    retryable: true,
    body: '<h1>oops</h1>',
    code: undefined,
  });
});

test('PA-3 a refused connection is a retryable ModelTransportError without the key', async () => {
  const dead = openai({ model: 'm', apiKey: KEY, baseURL: 'http://127.0.0.1:9/v1' });
  const error = await failure(dead.generate(hi));
  expect(ModelTransportError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(true);
  expect((error as Error).message).not.toContain(KEY);
});

test('PA-3 an aborted call rejects with CancelledError (not retryable)', async () => {
  const controller = new AbortController();
  const fetch = (_url: string, init: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => {
        reject(new DOMException('aborted', 'AbortError'));
      });
      controller.abort(new Error('user stop'));
    });
  const error = await failure(model({ fetch }).generate(hi, { signal: controller.signal }));
  expect(CancelledError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(false);
});

test('an already aborted signal sends nothing', async () => {
  const controller = new AbortController();
  controller.abort();
  const error = await failure(model().generate(hi, { signal: controller.signal }));
  expect(CancelledError.is(error)).toBe(true);
  expect(server.requests).toHaveLength(0);
});

test('the adapter timeout is a retryable ModelTransportError; the caller abort stays a cancellation', async () => {
  const hang = (_url: string, init: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => {
        reject(init.signal?.reason as Error);
      });
    });
  const error = await failure(model({ fetch: hang, timeout: 1 }).generate(hi));
  expect(ModelTransportError.is(error)).toBe(true);
  expect(error).toMatchObject({
    retryable: true,
    message: 'openai: transport failure: no complete response within the adapter timeout of 1 ms',
  });
  const controller = new AbortController();
  const pending = model({ fetch: hang, timeout: 60_000 }).generate(hi, {
    signal: controller.signal,
  });
  controller.abort();
  expect(CancelledError.is(await failure(pending))).toBe(true);
});

test('a stream that stalls past the adapter timeout fails with ModelTransportError', async () => {
  const stall = (_url: string, init: RequestInit) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: {"choices":[]}\n\n'));
        init.signal?.addEventListener('abort', () => {
          controller.error(init.signal?.reason);
        });
      },
    });
    return Promise.resolve(new Response(body));
  };
  const error = await failure(model({ fetch: stall, timeout: 1 }).stream(hi, () => undefined));
  expect(error).toMatchObject({ kind: 'ModelTransportError', retryable: true });
});

test('a 200 body that is not JSON, or has no choices, is a ModelProtocolError', async () => {
  server.push({ body: 'not json' }, { body: JSON.stringify({ id: 'x', choices: [] }) });
  const notJson = await failure(model().generate(hi));
  const noChoices = await failure(model().generate(hi));
  expect(ModelProtocolError.is(notJson)).toBe(true);
  expect((noChoices as Error).message).toBe('openai: protocol error: the response has no choices');
});

test('an error envelope delivered with status 200 is thrown, with its numeric status when it has one', async () => {
  server.push(
    { body: JSON.stringify({ error: { code: 502, message: 'upstream failed' } }) },
    { body: JSON.stringify({ error: { message: 'bad things', type: 'server_error' } }) },
  );
  const numeric = await failure(model().generate(hi));
  const other = await failure(model().generate(hi));
  expect(numeric).toMatchObject({
    status: 502,
    retryable: true,
    message: 'openai: HTTP 502: upstream failed',
  });
  expect(ModelProtocolError.is(other)).toBe(true);
});

test('PA-5 the first choice wins', async () => {
  const body = completion({ content: 'first' }) as { choices: unknown[] };
  body.choices = [
    { index: 1, message: { role: 'assistant', content: 'second' }, finish_reason: 'stop' },
    { index: 0, message: { role: 'assistant', content: 'first' }, finish_reason: 'stop' },
  ];
  server.push({ body: JSON.stringify(body) });
  expect((await model().generate(hi)).message.content).toBe('first');
});

test('PA-4 / missing ids: empty arguments become "{}" and id-less calls get call-<n>', async () => {
  server.push({
    body: JSON.stringify(
      completion(
        {
          content: null,
          tool_calls: [
            { type: 'function', function: { name: 'a', arguments: '' } },
            { id: '', type: 'function', function: { name: 'b', arguments: { x: 1 } } },
          ],
        },
        'tool_calls',
      ),
    ),
  });
  const response = await model().generate(hi);
  expect(response.message.toolCalls).toEqual([
    { id: 'call-1', name: 'a', args: '{}' },
    { id: 'call-2', name: 'b', args: '{"x":1}' },
  ]);
  expect(response.finishReason).toBe('tool_calls');
});

test('a refusal with no content becomes the content with finish reason "refusal"', async () => {
  server.push({
    body: JSON.stringify(completion({ content: null, refusal: "I can't help with that." })),
  });
  const response = await model().generate(hi);
  expect([response.message.content, response.finishReason]).toEqual([
    "I can't help with that.",
    'refusal',
  ]);
});

test.each([
  [{ error: { message: 'm', type: 't', code: 'c' } }, { message: 'm', code: 'c' }],
  [{ error: { message: 'm', type: 't', code: null } }, { message: 'm', code: 't' }],
  [{ error: { message: 'm', code: 429 } }, { message: 'm', code: '429' }],
  [{ error: 'model "x" not found' }, { message: 'model "x" not found' }],
  [{ detail: 'Not Found' }, { message: 'Not Found' }],
  [[{ error: { message: 'm', status: 'X', code: 400 } }], { message: 'm', code: '400' }],
  ['text', {}],
])('parseOpenAIError(%j) → %j', (body, info) => {
  expect(parseOpenAIError(body)).toEqual(info);
});
