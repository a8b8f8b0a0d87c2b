/** Fault modes: HTTP errors, transport failures, resets, cancellation, the call timeout. */
import { CancelledError, ModelHTTPError, isCancellation, isRetryable, type Delta } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { gemini } from 'golem/providers/gemini';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import {
  API_KEY,
  chunk,
  jsonReply,
  modelFor,
  ownText,
  rejection,
  request,
  sse,
  sseReply,
} from './helpers';
import { ModelTransportError, StreamInterruptedError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const googleError = (code: number, status: string, message: string) => ({
  error: { code, message, status },
});

describe.each(['generate', 'stream'] as const)('HTTP errors (%s)', (mode) => {
  const call = () => {
    const model = modelFor(server);
    const req = request([userMessage('q')]);
    return mode === 'generate' ? model.generate(req) : model.stream(req, () => undefined);
  };

  test.each([
    [400, 'INVALID_ARGUMENT', false],
    [401, 'UNAUTHENTICATED', false],
    [403, 'PERMISSION_DENIED', false],
    [404, 'NOT_FOUND', false],
    [408, 'DEADLINE_EXCEEDED', true],
    [429, 'RESOURCE_EXHAUSTED', true],
    [500, 'INTERNAL', true],
    [503, 'UNAVAILABLE', true],
    [529, 'OVERLOADED', true],
  ])('PA-1/PA-2: %i %s → ModelHTTPError, retryable %s', async (status, code, retryable) => {
    server.push(jsonReply(googleError(status, code, `problem ${status}`), status));
    const error = await rejection(call());
    expect(ModelHTTPError.is(error)).toBe(true);
    expect(error).toMatchObject({
      status,
      code,
      retryable,
      provider: 'gemini',
      message: `gemini: HTTP ${status}: problem ${status}`,
    });
    expect(isRetryable(error)).toBe(retryable);
  });

  test('429 with Retry-After: retryAfter in ms', async () => {
    server.push({
      ...jsonReply(googleError(429, 'RESOURCE_EXHAUSTED', 'slow down'), 429),
      headers: { 'content-type': 'application/json', 'retry-after': '7' },
    });
    expect(await rejection(call())).toMatchObject({ status: 429, retryAfter: 7000 });
  });

  test('429 without the header: retryAfter from google.rpc.RetryInfo in the body', async () => {
    server.push(jsonReply(JSON.parse(ownText('retry-info-429.json')), 429));
    expect(await rejection(call())).toMatchObject({
      status: 429,
      code: 'RESOURCE_EXHAUSTED',
      retryAfter: 34400,
      retryable: true,
      message:
        'gemini: HTTP 429: You exceeded your current quota, please check your plan and billing details.',
    });
  });

  test('an array-wrapped error body is read too', async () => {
    server.push(jsonReply([googleError(400, 'FAILED_PRECONDITION', 'not in your region')], 400));
    expect(await rejection(call())).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: 'gemini: HTTP 400: not in your region',
    });
  });

  test('an error body that is not Google-shaped keeps the status and the raw body', async () => {
    server.push({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<h1>Bad gateway</h1>',
    });
    expect(await rejection(call())).toMatchObject({
      status: 502,
      code: undefined,
      retryable: true,
      body: '<h1>Bad gateway</h1>',
    });
  });

  test('the API key never appears in the error, even when the server echoes it', async () => {
    server.push(
      jsonReply(googleError(400, 'INVALID_ARGUMENT', `API key ${API_KEY} not valid.`), 400),
    );
    const error = (await rejection(call())) as ModelHTTPError;
    expect(`${error.message} ${error.body ?? ''} ${String(error.stack)}`).not.toContain(API_KEY);
    expect(error.message).toContain('[redacted]');
  });
});

describe('transport', () => {
  test('PA-3: a refused connection is a retryable ModelTransportError without the key', async () => {
    const closed = await startReplayServer();
    const url = closed.url;
    await closed.close();
    const error = await rejection(
      gemini({ model: 'gemini-2.5-flash', apiKey: API_KEY, baseURL: url }).generate(
        request([userMessage('q')]),
      ),
    );
    expect(ModelTransportError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(true);
    expect((error as Error).message).not.toContain(API_KEY);
  });

  test('a connection reset mid-stream is a retryable StreamInterruptedError after the fragments already read', async () => {
    const deltas: Delta[] = [];
    server.push(sseReply([sse(chunk([{ text: 'Hel' }])), 'data: {"candidates": [{"con'], true));
    const error = await rejection(
      modelFor(server).stream(request([userMessage('q')]), (d) => {
        deltas.push(d);
      }),
    );
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(true);
    expect(deltas).toEqual([{ content: 'Hel' }]);
  });

  test('a connection reset before the headers is a retryable transport failure', async () => {
    server.push({ reset: true });
    const error = await rejection(modelFor(server).generate(request([userMessage('q')])));
    expect(isRetryable(error)).toBe(true);
    expect(ModelTransportError.is(error) || StreamInterruptedError.is(error)).toBe(true);
  });
});

describe('cancellation', () => {
  test('PA-3: an already-aborted signal fails with its cancellation, no request, not retryable', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(
      modelFor(server).generate(request([userMessage('q')]), { signal: controller.signal }),
    );
    expect(CancelledError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  test('aborting mid-stream stops reading with a cancellation error', async () => {
    const controller = new AbortController();
    server.push(
      sseReply(sse(chunk([{ text: 'a' }]), chunk([{ text: 'b' }], { finishReason: 'STOP' }))),
    );
    const error = await rejection(
      modelFor(server).stream(
        request([userMessage('q')]),
        () => {
          controller.abort();
        },
        { signal: controller.signal },
      ),
    );
    expect(isCancellation(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
  });
});

describe('the whole-call timeout', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  test('a call that outlives `timeout` fails with a retryable ModelTransportError', async () => {
    jest.useFakeTimers();
    const hanging = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => {
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    const model = gemini({
      model: 'gemini-2.5-flash',
      apiKey: API_KEY,
      fetch: hanging,
      timeout: 50,
    });
    const pending = rejection(model.generate(request([userMessage('q')])));
    await jest.advanceTimersByTimeAsync(50);
    const error = await pending;
    expect(ModelTransportError.is(error)).toBe(true);
    expect((error as Error).message).toContain(
      'no complete response within the adapter timeout of 50 ms',
    );
    expect(isRetryable(error)).toBe(true);
  });

  test('timeout 0 sets no timer', async () => {
    jest.useFakeTimers();
    const fetchOk = () =>
      Promise.resolve(
        new Response(JSON.stringify(chunk([{ text: 'x' }], { finishReason: 'STOP' })), {
          status: 200,
        }),
      );
    const model = gemini({
      model: 'gemini-2.5-flash',
      apiKey: API_KEY,
      fetch: fetchOk,
      timeout: 0,
    });
    await model.generate(request([userMessage('q')]));
    expect(jest.getTimerCount()).toBe(0);
  });
});
