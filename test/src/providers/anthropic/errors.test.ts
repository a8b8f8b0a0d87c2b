/**
 * Error classification of the Anthropic adapter: HTTP errors (status, API error type as code,
 * message, Retry-After), transport failures, cancellation, the adapter timeout, bodies that are
 * not messages, and key redaction.
 */
import { CancelledError, isRetryable, ModelHTTPError, type ModelRequest } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { API_KEY, jsonReply, modelFor, ownFixture } from './support';
import { ModelProtocolError, ModelTransportError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

function httpFields(error: unknown): unknown {
  if (!ModelHTTPError.is(error)) return error;
  return {
    status: error.status,
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    retryAfter: error.retryAfter,
  };
}

test('401 authentication_error: not retryable, code and message from the error body', async () => {
  server.push(jsonReply(ownFixture('error-401.json'), 401));
  const error = await failure(modelFor(server).generate(request));
  expect(httpFields(error)).toEqual({
    status: 401,
    code: 'authentication_error',
    message: 'anthropic: HTTP 401: invalid x-api-key',
    retryable: false,
    retryAfter: undefined,
  });
});

test('429 rate_limit_error with Retry-After: retryable, retryAfter in ms', async () => {
  server.push(jsonReply(ownFixture('error-429.json'), 429, { 'retry-after': '7' }));
  const error = await failure(modelFor(server).generate(request));
  expect(httpFields(error)).toEqual({
    status: 429,
    code: 'rate_limit_error',
    message:
      'anthropic: HTTP 429: Number of request tokens has exceeded your per-minute rate limit',
    retryable: true,
    retryAfter: 7000,
  });
});

test('500 api_error: retryable', async () => {
  server.push(jsonReply(ownFixture('error-500.json'), 500));
  const error = await failure(modelFor(server).generate(request));
  expect(httpFields(error)).toEqual({
    status: 500,
    code: 'api_error',
    message: 'anthropic: HTTP 500: Internal server error',
    retryable: true,
    retryAfter: undefined,
  });
});

test('529 overloaded_error: retryable, on generate and before a stream starts', async () => {
  server.push(
    jsonReply(ownFixture('error-529.json'), 529),
    jsonReply(ownFixture('error-529.json'), 529),
  );
  const model = modelFor(server);
  const generated = await failure(model.generate(request));
  const streamed = await failure(model.stream(request, () => undefined));
  for (const error of [generated, streamed])
    expect(httpFields(error)).toEqual({
      status: 529,
      code: 'overloaded_error',
      message: 'anthropic: HTTP 529: Overloaded',
      retryable: true,
      retryAfter: undefined,
    });
});

test.each([
  [400, false],
  [401, false],
  [403, false],
  [404, false],
  [408, true],
  [413, false],
  [429, true],
  [500, true],
  [503, true],
  [529, true],
])('PA-1 HTTP %i → retryable %s', async (status, retryable) => {
  server.push(jsonReply('{"type":"error","error":{"type":"x","message":"m"}}', status));
  const error = await failure(modelFor(server).generate(request));
  expect([ModelHTTPError.is(error), isRetryable(error)]).toEqual([true, retryable]);
});

test('PA-2 a non-JSON error body: no code, and the message carries the body', async () => {
  server.push({
    status: 502,
    headers: { 'content-type': 'text/html' },
    body: '<html>Bad gateway</html>',
  });
  const error = await failure(modelFor(server).generate(request));
  expect(httpFields(error)).toEqual({
    status: 502,
    code: undefined,
    message: 'anthropic: HTTP 502: <html>Bad gateway</html>',
    retryable: true,
    retryAfter: undefined,
  });
});

test('PA-3 a refused connection is a retryable ModelTransportError', async () => {
  const closed = await startReplayServer();
  const url = closed.url;
  await closed.close();
  const error = await failure(
    anthropic({ model: 'm', apiKey: API_KEY, baseURL: url }).generate(request),
  );
  expect([ModelTransportError.is(error), isRetryable(error)]).toEqual([true, true]);
});

test('PA-3 a connection reset before the response is a retryable ModelTransportError', async () => {
  server.push({ reset: true });
  const error = await failure(modelFor(server).generate(request));
  expect([ModelTransportError.is(error), isRetryable(error)]).toEqual([true, true]);
});

test('PA-3 an aborted signal rejects with CancelledError (not retryable) and sends nothing', async () => {
  const controller = new AbortController();
  controller.abort(new Error('user stop'));
  const error = await failure(modelFor(server).generate(request, { signal: controller.signal }));
  expect([CancelledError.is(error), isRetryable(error), server.requests.length]).toEqual([
    true,
    false,
    0,
  ]);
});

test('PA-3 an abort while waiting for the response rejects with the cancellation, not a transport error', async () => {
  const controller = new AbortController();
  const reason = new CancelledError('stop now');
  const fetch = (_url: string, init: RequestInit): Promise<Response> =>
    new Promise((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => {
        reject(init.signal?.reason as Error);
      });
      controller.abort(reason);
    });
  const error = await failure(
    anthropic({ model: 'm', apiKey: API_KEY, fetch }).generate(request, {
      signal: controller.signal,
    }),
  );
  expect(error).toBe(reason);
});

test('the adapter timeout surfaces as a retryable ModelTransportError naming the timeout', async () => {
  const fetch = (_url: string, init: RequestInit): Promise<Response> =>
    new Promise((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => {
        reject(init.signal?.reason as Error);
      });
    });
  const error = await failure(
    anthropic({ model: 'm', apiKey: API_KEY, fetch, timeout: 1 }).generate(request),
  );
  expect(ModelTransportError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(true);
  expect((error as Error).message).toBe(
    'anthropic: transport failure: no complete response within the adapter timeout of 1 ms',
  );
});

test('a 200 body that is not JSON is a ModelProtocolError', async () => {
  server.push(jsonReply('{"type":"message",'));
  const error = await failure(modelFor(server).generate(request));
  expect([ModelProtocolError.is(error), isRetryable(error)]).toEqual([true, false]);
  expect((error as Error).message).toBe(
    'anthropic: protocol error: the response body is not valid JSON',
  );
});

test('a 200 body without a content array is a ModelProtocolError', async () => {
  server.push(jsonReply('{"type":"message","role":"assistant"}'));
  const error = await failure(modelFor(server).generate(request));
  expect((error as Error).message).toBe(
    'anthropic: protocol error: the response body has no `content` array; it is not a message',
  );
});

test('a 200 body of type error is classified like the error type (overloaded → 529, retryable)', async () => {
  server.push(jsonReply(ownFixture('error-529.json')));
  const error = await failure(modelFor(server).generate(request));
  expect(httpFields(error)).toEqual({
    status: 529,
    code: 'overloaded_error',
    message: 'anthropic: HTTP 529: Overloaded',
    retryable: true,
    retryAfter: undefined,
  });
});

test('the API key never appears in an error, even when the provider echoes it', async () => {
  const echo = JSON.stringify({
    type: 'error',
    error: { type: 'authentication_error', message: `invalid x-api-key ${API_KEY}` },
  });
  server.push(jsonReply(echo, 401));
  const error = await failure(modelFor(server).generate(request));
  const http = error as ModelHTTPError;
  expect(http.message).toBe('anthropic: HTTP 401: invalid x-api-key [redacted]');
  expect(http.body).not.toContain(API_KEY);
  expect(JSON.stringify(http)).not.toContain(API_KEY);
});
