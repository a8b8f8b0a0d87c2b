import type { ServerResponse } from 'node:http';
import { SSE_KEEP_ALIVE, sseJson, sseResponseHeaders } from '../../core/kit/sse';
import type { RpcId } from '../rpc-types';
import type { StreamResponse } from '../wire-types';
import { isSettled, taskSnapshot, type TaskRecord } from './task-registry';

/**
 * Streams a task over server-sent events, each frame a JSON-RPC response `{ jsonrpc, id, result }`
 * holding one StreamResponse: first the task snapshot, then every status and artifact update until
 * the task is terminal or interrupted, then the stream ends. While the stream is open and nothing
 * was written for `keepAliveMs` (0: never), an SSE comment keeps proxies from closing it. A client
 * that goes away unsubscribes (the task keeps running). `start` runs once the listener is in place.
 */
export function streamTask(
  res: ServerResponse,
  id: RpcId,
  record: TaskRecord,
  start?: () => void,
  keepAliveMs = 0,
): void {
  res.writeHead(200, sseResponseHeaders());
  let wrote = false;
  const write = (result: StreamResponse): void => {
    wrote = true;
    res.write(sseJson({ jsonrpc: '2.0', id, result }));
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  const listener = (event: StreamResponse): void => {
    write(event);
    if ('statusUpdate' in event && isSettled(event.statusUpdate.status.state)) stop();
  };
  const stop = (): void => {
    record.listeners.delete(listener);
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    if (!res.writableEnded) res.end();
  };
  res.on('close', () => {
    record.listeners.delete(listener);
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  });
  write({ task: taskSnapshot(record) });
  if (isSettled(record.state) && start === undefined) {
    stop();
    return;
  }
  record.listeners.add(listener);
  if (keepAliveMs > 0 && !res.writableEnded) {
    timer = setInterval(() => {
      if (!wrote && !res.writableEnded) res.write(SSE_KEEP_ALIVE);
      wrote = false;
    }, keepAliveMs);
    timer.unref();
  }
  start?.();
}
