import { SSE_KEEP_ALIVE, sseJson, sseResponseHeaders } from '../core/kit/sse';
import type { FeedEntry } from './feed-events';

/** The parts of a Node `ServerResponse` the SSE writer uses. */
export interface SseTarget {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string): boolean;
  end(): unknown;
  once(event: 'close', listener: () => void): unknown;
  readonly writableEnded: boolean;
}

/** One feed entry as a server-sent event: `id` is its cursor, `event` its type, `data` its JSON. */
export function formatFeedEvent(entry: FeedEntry): string {
  return sseJson(entry.event, { id: entry.cursor, event: entry.event.type });
}

/**
 * Streams a run's feed (`queue.events(runId, { after: req.headers['last-event-id'] })`) to an
 * HTTP response as server-sent events, until the run settles or the client goes away (which
 * stops reading). Each event's `id` is its cursor, so a browser's `EventSource` reconnects with
 * `Last-Event-ID` and misses nothing. `heartbeatMs` (default 15 000) writes a comment line so
 * proxies keep the connection open.
 */
export async function writeFeedSse(
  response: SseTarget,
  entries: (signal: AbortSignal) => AsyncIterable<FeedEntry>,
  options: { heartbeatMs?: number } = {},
): Promise<void> {
  const gone = new AbortController();
  response.once('close', () => {
    gone.abort();
  });
  response.writeHead(200, sseResponseHeaders());
  const heartbeat = setInterval(() => {
    if (!response.writableEnded) response.write(SSE_KEEP_ALIVE);
  }, options.heartbeatMs ?? 15_000);
  heartbeat.unref();
  try {
    for await (const entry of entries(gone.signal)) response.write(formatFeedEvent(entry));
  } finally {
    clearInterval(heartbeat);
    if (!response.writableEnded) response.end();
  }
}
