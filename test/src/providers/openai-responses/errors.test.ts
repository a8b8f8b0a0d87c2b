/**
 * Error classification of the Responses adapter against a loopback server: HTTP statuses,
 * failed responses (body, `response.failed`, `error` events), cut and malformed streams, the
 * caller's handler and signal, and the API key kept out of every error.
 */
import { ModelHTTPError, isCancellation, isRetryable } from 'golem';

import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { KEY, ask, collector, fixture, jsonReply, modelFor, sseReply } from './support';

import {
  ModelProtocolError,
  ResponseFailedError,
  StreamInterruptedError,
} from '../../../support/internal-errors';
let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

test('400: a non-retryable ModelHTTPError with the API code and message', async () => {
  server.push(jsonReply('error-400.json', 400));
  const error = await failure(modelFor(server).generate(ask('x')));
  expect(ModelHTTPError.is(error)).toBe(true);
  expect(error).toMatchObject({
    status: 400,
    provider: 'openai-responses',
    code: 'invalid_function_parameters',
    retryable: false,
  });
  expect((error as Error).message).toContain("Invalid schema for function 'get_weather'");
});

test('429 insufficient_quota is not retryable; a plain 429 and a 503 are, with Retry-After', async () => {
  server.push(jsonReply('error-429-quota.json', 429));
  expect(isRetryable(await failure(modelFor(server).generate(ask('x'))))).toBe(false);
  server.push({
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': '2' },
    body: '{"error":{"message":"busy","type":"server_error"}}',
  });
  const busy = await failure(modelFor(server).generate(ask('x')));
  expect(busy).toMatchObject({ status: 503, retryable: true, retryAfter: 2000 });
  server.push({
    status: 429,
    body: '{"error":{"message":"slow down","code":"rate_limit_exceeded"}}',
  });
  expect(isRetryable(await failure(modelFor(server).generate(ask('x'))))).toBe(true);
});

test('a failed response body (HTTP 200) is a ResponseFailedError, retryable for server_error', async () => {
  server.push(jsonReply('response-failed.json'));
  const error = await failure(modelFor(server).generate(ask('x')));
  expect(ResponseFailedError.is(error)).toBe(true);
  expect(error).toMatchObject({
    code: 'server_error',
    retryable: true,
    responseId: 'resp_own_failed_01',
    provider: 'openai-responses',
  });
  expect((error as Error).message).toBe(
    'openai-responses: the response failed: The server had an error while processing your request. (server_error)',
  );
});

test('response.failed in a stream is a retryable ResponseFailedError', async () => {
  server.push(sseReply('failed.stream.sse'));
  const error = await failure(modelFor(server).stream(ask('x'), () => undefined));
  expect(ResponseFailedError.is(error)).toBe(true);
  expect(error).toMatchObject({ code: 'server_error', retryable: true });
});

test('an error event mid-stream ends it after the deltas before it; invalid_prompt is not retryable', async () => {
  server.push(sseReply('error-event.stream.sse'));
  const c = collector();
  const error = await failure(modelFor(server).stream(ask('x'), c.onDelta));
  expect(c.deltas).toEqual([{ content: 'Partial' }]);
  expect(error).toMatchObject({
    kind: 'ResponseFailedError',
    code: 'invalid_prompt',
    retryable: false,
  });
});

test('a stream that ends before its terminal event is a retryable StreamInterruptedError', async () => {
  const text = fixture('text.stream.sse').toString('utf8');
  const cut = text.slice(0, text.indexOf('event: response.completed'));
  server.push({ headers: { 'content-type': 'text/event-stream' }, body: cut });
  const error = await failure(modelFor(server).stream(ask('x'), () => undefined));
  expect(StreamInterruptedError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(true);
});

test('a reset mid-stream is a retryable StreamInterruptedError', async () => {
  const text = fixture('text.stream.sse').toString('utf8');
  server.push({
    headers: { 'content-type': 'text/event-stream' },
    chunks: [text.slice(0, 400)],
    reset: true,
  });
  const error = await failure(modelFor(server).stream(ask('x'), () => undefined));
  expect(StreamInterruptedError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(true);
});

test('malformed JSON in an event or body is a non-retryable ModelProtocolError', async () => {
  server.push({
    headers: { 'content-type': 'text/event-stream' },
    body: 'event: response.output_text.delta\ndata: {"type": oops\n\n',
  });
  const streamed = await failure(modelFor(server).stream(ask('x'), () => undefined));
  expect(ModelProtocolError.is(streamed)).toBe(true);
  server.push({ headers: { 'content-type': 'application/json' }, body: '{"output": [' });
  const generated = await failure(modelFor(server).generate(ask('x')));
  expect([ModelProtocolError.is(generated), isRetryable(generated)]).toEqual([true, false]);
});

test('a background (queued) response is refused: the adapter needs a finished response', async () => {
  server.push({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'resp_q', object: 'response', status: 'queued', output: [] }),
  });
  const error = await failure(modelFor(server).generate(ask('x')));
  expect((error as Error).message).toBe(
    'openai-responses: protocol error: the response is not finished (status "queued"); background responses are not supported',
  );
});

test('an error the delta handler throws is rethrown as it is', async () => {
  server.push(sseReply('text.stream.sse'));
  const mine = new Error('handler says no');
  const error = await failure(
    modelFor(server).stream(ask('x'), () => {
      throw mine;
    }),
  );
  expect(error).toBe(mine);
});

test("the caller's abort rejects with the cancellation error", async () => {
  server.push({ headers: { 'content-type': 'text/event-stream' }, hold: true });
  const controller = new AbortController();
  const pending = failure(
    modelFor(server).stream(ask('x'), () => undefined, { signal: controller.signal }),
  );
  controller.abort();
  expect(isCancellation(await pending)).toBe(true);
});

test('the API key never appears in an error, even when the server echoes it', async () => {
  server.push({
    status: 401,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' },
    }),
  });
  const http = await failure(modelFor(server).generate(ask('x')));
  server.push({
    headers: { 'content-type': 'text/event-stream' },
    body: `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'x', message: `bad key ${KEY}` })}\n\n`,
  });
  const event = await failure(modelFor(server).stream(ask('x'), () => undefined));
  for (const error of [http, event]) {
    expect(
      JSON.stringify({ message: (error as Error).message, ...(error as object) }),
    ).not.toContain(KEY);
    expect((error as Error).message).toContain('[redacted]');
  }
});
