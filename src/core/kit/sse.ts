/**
 * The server-sent events writer every door shares (`golem/queue`'s feed, `golem/nestjs`'s run
 * stream, `golem/ui`'s UI message stream). Internal: each door keeps its own public wrappers.
 */

/** The optional lines of a frame before its `data:` line. */
export interface SseFields {
  /** The `id:` line (what a browser's `EventSource` sends back as `Last-Event-ID`). */
  readonly id?: string;
  /** The `event:` line (the event's type). */
  readonly event?: string;
}

/**
 * One server-sent event: the `id:` and `event:` lines when given, then one `data:` line holding
 * `data` (JSON text, or a sentinel such as `[DONE]`), then the blank line that ends the frame.
 */
export function sseFrame(data: string, fields: SseFields = {}): string {
  const id = fields.id === undefined ? '' : `id: ${fields.id}\n`;
  const event = fields.event === undefined ? '' : `event: ${fields.event}\n`;
  return `${id}${event}data: ${data}\n\n`;
}

/**
 * `value` as JSON in one frame: `JSON.stringify` never writes a raw line break, so one `data:`
 * line holds it. A value JSON cannot represent (`undefined`) is written as `data: undefined`.
 */
export function sseJson(value: unknown, fields?: SseFields): string {
  const json = JSON.stringify(value) as string | undefined;
  return sseFrame(json ?? 'undefined', fields);
}

/** The headers of a Node server-sent events response; a fresh object on every call. */
export function sseResponseHeaders(): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  };
}

/** A comment frame that keeps proxies from closing an idle stream. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';
