import type { IncomingMessage, ServerResponse } from 'node:http';
import { sseJson } from '../core/kit/sse';

/** An open server-sent-events response that polls until the client or the studio goes. */
export interface SsePoller {
  /** Stops polling and ends the response. */
  stop(): void;
}

/**
 * Opens an SSE response on `res` and calls `poll` now and every `pollMs` (one at a time, never
 * overlapping); each value `poll` returns is written as an `event` frame. Stops when the client
 * goes, when `stop` is called, or when `poll` throws (given to `fail`).
 */
export function openPoller(
  req: IncomingMessage,
  res: ServerResponse,
  pollMs: number,
  event: string,
  poll: () => Promise<readonly unknown[]>,
  fail: (error: unknown) => void,
  onStop: () => void,
): SsePoller {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(': studio\n\n');
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    if (!res.writableEnded) res.end();
    onStop();
  };
  const tick = async (): Promise<void> => {
    try {
      const values = await poll();
      if (stopped) return;
      for (const value of values) res.write(sseJson(value, { event }));
      timer = setTimeout(() => void tick(), pollMs);
    } catch (error) {
      fail(error);
      stop();
    }
  };
  req.once('close', stop);
  res.once('close', stop);
  void tick();
  return { stop };
}
