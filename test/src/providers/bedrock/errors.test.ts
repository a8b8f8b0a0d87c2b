/**
 * Error classification of Converse calls (HTTP errors through the real SDK, transport faults,
 * malformed bodies, cancellation, secret redaction) and of SDK errors the server cannot produce.
 */
import {
  CancelledError,
  DeadlineExceededError,
  ModelHTTPError,
  isRetryable,
  type ModelRequest,
  ConfigError,
} from 'golem';
import { classifyError } from '../../../../src/providers/bedrock/errors';
import { CREDENTIALS, jsonReply, rejection, useHarness } from './support';

import {
  ModelProtocolError,
  ModelTransportError,
  StreamInterruptedError,
} from '../../../support/internal-errors';
const harness = useHarness();
const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
const ERRORTYPE_SUFFIX = ':http://internal.amazon.com/coral/com.amazon.bedrock/';

function httpErrorReply(status: number, type: string | undefined, message: string, headers = {}) {
  return jsonReply(
    JSON.stringify({ message }),
    status,
    type === undefined ? headers : { 'x-amzn-errortype': `${type}${ERRORTYPE_SUFFIX}`, ...headers },
  );
}

function summary(error: unknown): Record<string, unknown> {
  if (!ModelHTTPError.is(error)) throw error;
  return {
    status: error.status,
    code: error.code,
    retryable: error.retryable,
    message: error.message,
    retryAfter: error.retryAfter,
  };
}

describe('Bedrock HTTP errors', () => {
  test.each([
    [400, 'ValidationException', false],
    [401, 'UnrecognizedClientException', false],
    [403, 'AccessDeniedException', false],
    [404, 'ResourceNotFoundException', false],
    [408, 'ModelTimeoutException', true],
    [424, 'ModelErrorException', false],
    [429, 'ThrottlingException', true],
    [500, 'InternalServerException', true],
    [503, 'ServiceUnavailableException', true],
  ])('PA-1 HTTP %i %s → ModelHTTPError, retryable %s', async (status, type, retryable) => {
    const { server, model } = harness.current;
    server.push(httpErrorReply(status, type, `the ${type} message`));
    const error = await rejection(model().generate(request));
    expect(summary(error)).toEqual({
      status,
      code: type,
      retryable,
      message: `bedrock: HTTP ${status}: the ${type} message`,
      retryAfter: undefined,
    });
    expect(isRetryable(error)).toBe(retryable);
  });

  test('PA-2 the code is the x-amzn-errortype header up to the first colon; the message comes from the body', async () => {
    const { server, model } = harness.current;
    server.push(httpErrorReply(400, 'ValidationException', 'messages: must not be empty'));
    const error = (await rejection(model().generate(request))) as ModelHTTPError;
    expect([error.code, error.message, error.provider]).toEqual([
      'ValidationException',
      'bedrock: HTTP 400: messages: must not be empty',
      'bedrock',
    ]);
  });

  test('429 ThrottlingException with Retry-After: 3 → retryAfter 3000 ms', async () => {
    const { server, model } = harness.current;
    server.push(
      httpErrorReply(429, 'ThrottlingException', 'Too many requests', { 'retry-after': '3' }),
    );
    expect(summary(await rejection(model().generate(request)))).toEqual({
      status: 429,
      code: 'ThrottlingException',
      retryable: true,
      message: 'bedrock: HTTP 429: Too many requests',
      retryAfter: 3000,
    });
  });

  test('500 with a body that is not JSON → ModelHTTPError 500 without a code, retryable', async () => {
    const { server, model } = harness.current;
    server.push({
      status: 500,
      headers: { 'content-type': 'text/html' },
      body: '<html>bad gateway</html>',
    });
    expect(summary(await rejection(model().generate(request)))).toEqual({
      status: 500,
      code: undefined,
      retryable: true,
      message: 'bedrock: HTTP 500',
      retryAfter: undefined,
    });
  });

  test('an HTTP error on ConverseStream is classified exactly like one on Converse', async () => {
    const { server, model } = harness.current;
    server.push(httpErrorReply(429, 'ThrottlingException', 'slow down'));
    const error = await rejection(model().stream(request, () => undefined));
    expect(summary(error)).toMatchObject({
      status: 429,
      code: 'ThrottlingException',
      retryable: true,
    });
    expect(server.requests[0]!.url).toBe('/model/us.amazon.nova-micro-v1%3A0/converse-stream');
  });

  test('the secret access key never appears in an error, even when the server echoes it', async () => {
    const { server, model } = harness.current;
    server.push(
      httpErrorReply(400, 'ValidationException', `bad key ${CREDENTIALS.secretAccessKey}`),
    );
    const error = (await rejection(model().generate(request))) as ModelHTTPError;
    expect(error.message).toBe('bedrock: HTTP 400: bad key [redacted]');
    expect((error.cause as Error).message).toBe('ValidationException: bad key [redacted]');
    expect(`${error.message} ${error.body ?? ''} ${JSON.stringify(error)}`).not.toContain(
      CREDENTIALS.secretAccessKey,
    );
  });
});

describe('Bedrock transport, protocol and cancellation failures', () => {
  test('PA-3 a connection reset before the response → retryable ModelTransportError (not read as a cancellation)', async () => {
    const { server, model } = harness.current;
    server.push({ reset: true });
    const error = await rejection(model().generate(request));
    expect(ModelTransportError.is(error)).toBe(true);
    // Node says "socket hang up" (ECONNRESET); under jest's VM realm the SDK re-wraps it as "…
    // aborted".
    expect((error as Error).message).toMatch(
      /^bedrock: transport failure: .*(socket hang up|aborted)/,
    );
    expect(isRetryable(error)).toBe(true);
  });

  test('a refused connection → retryable ModelTransportError', async () => {
    const { server, model } = harness.current;
    const m = model();
    await server.close();
    const error = await rejection(m.generate(request));
    expect(ModelTransportError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^bedrock: transport failure: .*connect ECONNREFUSED 127\.0\.0\.1:\d+/,
    );
    expect(isRetryable(error)).toBe(true);
  });

  test('a 200 body that is not JSON → ModelProtocolError, never a raw SyntaxError', async () => {
    const { server, model } = harness.current;
    server.push(jsonReply('{"output": {"message"'));
    const error = await rejection(model().generate(request));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
  });

  test('a 200 body without an output message → ModelProtocolError', async () => {
    const { server, model } = harness.current;
    server.push(jsonReply('{"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":0}}'));
    const error = await rejection(model().generate(request));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'bedrock: protocol error: the Converse response has no output message',
    );
  });

  test('a signal aborted before the call → CancelledError with the reason, no request sent', async () => {
    const { server, model } = harness.current;
    const controller = new AbortController();
    const reason = new Error('user stop');
    controller.abort(reason);
    const error = await rejection(model().generate(request, { signal: controller.signal }));
    expect(CancelledError.is(error)).toBe(true);
    expect((error as Error).cause).toBe(reason);
    expect(server.requests).toHaveLength(0);
  });

  test('an abort while the call is in flight → CancelledError carrying the reason', async () => {
    const { model } = harness.current;
    const controller = new AbortController();
    const reason = new Error('user stop');
    const pending = model().generate(request, { signal: controller.signal });
    controller.abort(reason);
    const error = await rejection(pending);
    expect(CancelledError.is(error)).toBe(true);
    expect((error as Error).cause).toBe(reason);
  });

  test('a timeout signal → DeadlineExceededError', async () => {
    const { model } = harness.current;
    const controller = new AbortController();
    const pending = model().stream(request, () => undefined, { signal: controller.signal });
    controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    expect(DeadlineExceededError.is(await rejection(pending))).toBe(true);
  });
});

describe('classifyError on SDK failures the replay server cannot produce', () => {
  const ctx = { phase: 'request' as const, secrets: [] };

  test('missing credentials → model ConfigError', () => {
    const error = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
    });
    const mapped = classifyError(error, ctx);
    expect(ConfigError.is(mapped, 'model')).toBe(true);
    expect(mapped.message).toBe(
      'bedrock: could not load AWS credentials: Could not load credentials from any providers',
    );
  });

  test('a missing region → model ConfigError explaining where to set it', () => {
    const mapped = classifyError(new Error('Region is missing'), ctx);
    expect(ConfigError.is(mapped, 'model')).toBe(true);
    expect(mapped.message).toBe(
      'bedrock: no AWS region: pass `region` (or a client configured with one), or configure a region for the AWS SDK (AWS_REGION or a profile)',
    );
  });

  test('a modelled exception without an HTTP status uses its canonical status (model timeout → 408)', () => {
    const error = Object.assign(new Error('took too long'), {
      name: 'ModelTimeoutException',
      $fault: 'client',
      $metadata: {},
    });
    expect(summary(classifyError(error, { ...ctx, phase: 'stream' }))).toEqual({
      status: 408,
      code: 'ModelTimeoutException',
      retryable: true,
      message: 'bedrock: HTTP 408: took too long',
      retryAfter: undefined,
    });
  });

  test('PA-3 a reset the SDK names "TimeoutError" stays a retryable ModelTransportError (its cause is not a cancellation)', () => {
    const error = Object.assign(new Error('socket hang up'), {
      name: 'TimeoutError',
      code: 'ECONNRESET',
    });
    const mapped = classifyError(error, ctx);
    expect(ModelTransportError.is(mapped)).toBe(true);
    expect(mapped.message).toBe('bedrock: transport failure: socket hang up (ECONNRESET)');
    expect((mapped.cause as Error).message).toBe('TimeoutError ECONNRESET: socket hang up');
    expect(isRetryable(mapped)).toBe(true);
  });

  test('PA-3 but with the run signal aborted, the same failure is the cancellation', () => {
    const controller = new AbortController();
    controller.abort();
    const mapped = classifyError(new Error('socket hang up'), {
      ...ctx,
      signal: controller.signal,
    });
    expect(CancelledError.is(mapped)).toBe(true);
    expect(isRetryable(mapped)).toBe(false);
  });

  test('an unknown failure while reading the stream → retryable StreamInterruptedError', () => {
    const mapped = classifyError(new Error('something odd'), { ...ctx, phase: 'stream' });
    expect(StreamInterruptedError.is(mapped)).toBe(true);
    expect(isRetryable(mapped)).toBe(true);
  });
});
