import { sseJson, sseResponseHeaders } from '../src/core/kit/sse';
import { clientDisconnected } from './sse';
import {
  runEvents,
  type RunEventsOptions,
  type RunMessageEvent,
  type RunResultData,
  type StartRun,
} from './run-events';

/**
 * The parts of a Node response `writeRunSse` uses: Express's `res`, Fastify's `reply.raw`
 * (after `reply.hijack()`), or a plain `http.ServerResponse`.
 */
export interface SseResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string): unknown;
  end(): unknown;
  on(event: 'close', listener: () => void): unknown;
  /** Whether the connection was already closed (Node's `ServerResponse.destroyed`). */
  readonly destroyed?: boolean;
  /** Whether the whole response was already written. */
  readonly writableEnded?: boolean;
}

/** The SSE wire text of one event: `event:` and one `data:` line of JSON. */
export function formatSseEvent(event: RunMessageEvent<unknown>): string {
  return sseJson(event.data, { event: event.type });
}

/**
 * Streams a run to a raw response as server-sent events — for controllers that write the
 * response themselves (`@Res() res` with Express, `reply.raw` with Fastify) instead of returning
 * an `Observable` from `@Sse()`. Same events as `sseFromRun`: `delta`s, then `result` or `error`.
 * The run is aborted when the connection closes early. Resolves when the response has ended.
 *
 * ```ts
 * @Post('stream')
 * async stream(@Body() body: AskDto, @Res() res: Response): Promise<void> {
 *   await writeRunSse(res, (signal) => this.weather.runStream(body.prompt, { deps, signal }));
 * }
 * ```
 */
export async function writeRunSse<
  Output,
  Pausable extends boolean = false,
  R = RunResultData<Output>,
>(
  response: SseResponse,
  start: StartRun<Output, Pausable>,
  options: RunEventsOptions<Output, Pausable, R> = {},
): Promise<void> {
  const controller = new AbortController();
  const closed = (): boolean => response.destroyed === true || controller.signal.aborted;
  response.on('close', () => {
    if (response.writableEnded !== true && !controller.signal.aborted)
      controller.abort(clientDisconnected());
  });
  response.writeHead(200, sseResponseHeaders());
  for await (const event of runEvents(start, controller.signal, options)) {
    if (closed()) break;
    response.write(formatSseEvent(event));
  }
  if (response.writableEnded !== true) response.end();
}
