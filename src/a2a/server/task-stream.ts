import type { ServerResponse } from 'node:http';
import { sseJson, sseResponseHeaders } from '../../core/kit/sse';
import type { RpcId, StreamResponse } from '../wire-types';
import { isSettled, taskSnapshot, type TaskRecord } from './task-registry';

/**
 * Streams a task over server-sent events, each frame a JSON-RPC response `{ jsonrpc, id, result }`
 * holding one StreamResponse: first the task snapshot, then every status and artifact update until
 * the task is terminal or interrupted, then the stream ends. A client that goes away unsubscribes
 * (the task keeps running). `start` runs once the listener is in place.
 */
export function streamTask(
  res: ServerResponse,
  id: RpcId,
  record: TaskRecord,
  start?: () => void,
): void {
  res.writeHead(200, sseResponseHeaders());
  const write = (result: StreamResponse): void => {
    res.write(sseJson({ jsonrpc: '2.0', id, result }));
  };
  const listener = (event: StreamResponse): void => {
    write(event);
    if ('statusUpdate' in event && isSettled(event.statusUpdate.status.state)) stop();
  };
  const stop = (): void => {
    record.listeners.delete(listener);
    if (!res.writableEnded) res.end();
  };
  res.on('close', () => record.listeners.delete(listener));
  write({ task: taskSnapshot(record) });
  if (isSettled(record.state) && start === undefined) {
    stop();
    return;
  }
  record.listeners.add(listener);
  start?.();
}
