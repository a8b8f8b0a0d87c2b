/**
 * Bounded bodies and prompt failures in the shared HTTP layer (issue 12): error bodies that
 * never end, success bodies over the cap, streaming answers that are not event streams, streams
 * that end at their terminal event or lose only their closing frame, and calls that retain
 * nothing once settled.
 */
import { getEventListeners } from 'node:events';
import { ModelHTTPError, isRetryable } from 'golem';
import { readBodyText, expectEventStream } from '../../../../src/providers/shared/body';
import { CallScope } from '../../../../src/providers/shared/call-scope';
import { postJson } from '../../../../src/providers/shared/http';
import { STOP, readSse } from '../../../../src/providers/shared/sse';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';

import {
  ModelProtocolError,
  ModelTransportError,
  ResponseTooLargeError,
  StreamInterruptedError,
} from '../../../support/internal-errors';
let srv: ReplayServer;
beforeEach(async () => {
  srv = await startReplayServer();
});
afterEach(() => srv.close());

const post = (extra: Partial<Parameters<typeof postJson>[0]> = {}) =>
  postJson({ provider: 'p', url: srv.url, headers: {}, body: {}, ...extra });

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

test('an error body that never ends still yields ModelHTTPError with status and Retry-After', async () => {
  srv.push({
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': '7' },
    body: '{"error": "slow do',
    hold: true,
  });
  const error = await failure(post({ errorBodyTimeout: 50 }));
  expect(ModelHTTPError.is(error)).toBe(true);
  const http = error as ModelHTTPError;
  expect(http.status).toBe(429);
  expect(http.retryAfter).toBe(7000);
  expect(http.body).toContain('{"error": "slow do');
  expect(http.body).toContain('not received within 50 ms');
});

test('an endless error body is cut at the byte cap', async () => {
  srv.push({ status: 500, chunks: ['x'.repeat(70 * 1024)], hold: true });
  const error = (await failure(post({ errorBodyTimeout: 60_000 }))) as ModelHTTPError;
  expect(error.status).toBe(500);
  expect(error.body?.length).toBeLessThan(5000);
});

test('a success body over the cap is ResponseTooLargeError, not buffered', async () => {
  srv.push({ status: 200, chunks: ['{"a":"', 'y'.repeat(2048), '"}'] });
  const response = await post();
  const error = await failure(readBodyText(response, { provider: 'p', maxBytes: 1024 }));
  expect(ResponseTooLargeError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(false);
});

test('a declared Content-Length over the cap is refused before reading', async () => {
  srv.push({ status: 200, body: 'z'.repeat(4096) });
  const response = await post();
  expect(
    ResponseTooLargeError.is(
      await failure(readBodyText(response, { provider: 'p', maxBytes: 100 })),
    ),
  ).toBe(true);
});

test.each(['application/json', 'text/html; charset=utf-8'])(
  'a 200 of type %s answering a streaming request is a non-retryable protocol error',
  async (type) => {
    srv.push({ status: 200, headers: { 'content-type': type }, body: '{}' });
    const error = await failure(expectEventStream(await post(), 'p'));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
    expect((error as Error).message).toContain(type.split(';')[0] as string);
  },
);

test('text/event-stream with parameters is accepted', async () => {
  srv.push({
    status: 200,
    headers: { 'content-type': 'Text/Event-Stream; charset=utf-8' },
    body: '',
  });
  await expect(expectEventStream(await post(), 'p')).resolves.toBeUndefined();
});

describe('readSse', () => {
  test('STOP ends reading at the terminal event although the server holds the connection', async () => {
    srv.push({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: ['data: a\n\n', 'data: [DONE]\n\n'],
      hold: true,
    });
    const seen: string[] = [];
    await readSse(
      (await post()).body,
      (event) => {
        seen.push(event.data);
        return event.data === '[DONE]' ? STOP : undefined;
      },
      { provider: 'p' },
    );
    expect(seen).toEqual(['a', '[DONE]']);
  });

  test('a reset after the response settled completes; before, it is StreamInterruptedError', async () => {
    for (const settledAfter of ['final', 'never']) {
      srv.push({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        chunks: ['data: text\n\n', 'data: final\n\n', 'data: clos'],
        reset: true,
      });
      let settled = false;
      const read = readSse(
        (await post()).body,
        (event) => {
          if (event.data === settledAfter) settled = true;
        },
        { provider: 'p', settled: () => settled },
      );
      if (settledAfter === 'final') await expect(read).resolves.toBeUndefined();
      else expect(StreamInterruptedError.is(await failure(read))).toBe(true);
    }
  });
});

describe('CallScope', () => {
  const timers = (): number =>
    process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  test('a settled call leaves no timer and no listener on the caller signal', async () => {
    const caller = new AbortController();
    const before = timers();
    for (const outcome of ['ok', 'fail']) {
      const scope = new CallScope({ provider: 'p', timeout: 300_000, signal: caller.signal });
      expect(timers()).toBe(before + 1);
      await scope
        .run(() => (outcome === 'ok' ? Promise.resolve(1) : Promise.reject(new Error('x'))))
        .catch(() => undefined);
      expect(timers()).toBe(before);
      expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    }
  });

  test('its own timeout is a retryable transport error; the caller abort is a cancellation', async () => {
    srv.push({ status: 200, hold: true });
    const scope = new CallScope({ provider: 'p', timeout: 30 });
    const error = await failure(scope.run(async (signal) => (await post({ signal })).text()));
    expect(ModelTransportError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(true);
    expect((error as Error).message).toContain('30 ms');

    const caller = new AbortController();
    const cancelled = new CallScope({ provider: 'p', timeout: 0, signal: caller.signal }).run(
      (signal) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => {
            reject(new Error('aborted'));
          });
          caller.abort();
        }),
    );
    const cancel = await failure(cancelled);
    expect((cancel as { kind?: string }).kind).toBe('CancelledError');
  });
});
