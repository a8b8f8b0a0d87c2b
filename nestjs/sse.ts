import { Observable } from 'rxjs';
import { CancelledError } from '../src/core/index';
import {
  runEvents,
  type RunEventsOptions,
  type RunMessageEvent,
  type RunResultData,
  type StartRun,
} from './run-events';

/** The reason a run streamed over SSE is aborted with when its client goes away. */
export function clientDisconnected(): CancelledError {
  return new CancelledError('the client disconnected');
}

/**
 * A streamed run as the `Observable<MessageEvent>` a Nest `@Sse()` handler returns: `delta`
 * events for the model's fragments, then one `result` or one typed `error` event (with the
 * `RunError` stage), then completion. `start` receives the signal to pass to `runStream`; when the
 * client disconnects Nest unsubscribes, and the signal aborts the run (the model call is
 * cancelled, no further tool runs).
 *
 * ```ts
 * @Sse('stream')
 * stream(@Query() query: ForecastQuery): Observable<MessageEvent> {
 *   return sseFromRun((signal) => this.weather.runStream(query.prompt, { deps, signal }));
 * }
 * ```
 */
export function sseFromRun<Output, Pausable extends boolean = false, R = RunResultData<Output>>(
  start: StartRun<Output, Pausable>,
  options: RunEventsOptions<Output, Pausable, R> = {},
): Observable<RunMessageEvent<R>> {
  return new Observable<RunMessageEvent<R>>((subscriber) => {
    const controller = new AbortController();
    void (async () => {
      for await (const event of runEvents(start, controller.signal, options)) {
        if (subscriber.closed) break;
        subscriber.next(event);
      }
      subscriber.complete();
    })();
    return () => {
      if (!controller.signal.aborted) controller.abort(clientDisconnected());
    };
  });
}
