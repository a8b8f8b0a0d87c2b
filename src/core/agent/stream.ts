import type { DeltaHandler } from '../contract/model';
import type { Delta } from '../contract/delta';
import { StreamAbandonedError } from '../engine/delta-stream';
import type { RunEvent, RunObserver } from '../engine/events';
import type { DeepPartial, PartialOutputSource } from '../engine/partial-output';
import { PartialOutputFeed } from '../engine/partial-output';
import type { Result, RunResult } from '../engine/result';
import type { EngineConfig } from '../engine/run-config';
import { RunStreamFeed } from '../engine/run-stream-feed';
import { StreamedText, recordsStreamedText } from '../engine/streamed-text';
import type { RunStreamEvent } from '../engine/stream-event-types';

/**
 * A streaming run. Read it one way: iterate it for raw deltas, or read `events` (typed events
 * with turn boundaries, tool calls, tool results and the outcome), or `textStream` (the text
 * only). `result` settles with the run; `partialOutput` yields the output while it streams, beside
 * any of them. Stopping a reader early (`break`, `return`, `throw`) aborts the run.
 */
export interface RunStream<Output, Pausable extends boolean = false> extends AsyncIterable<Delta> {
  readonly result: Promise<RunResult<Output, Pausable>>;
  /**
   * The run as typed events ({@link RunStreamEvent}): `turn-start`, text and reasoning fragments,
   * tool calls with their id and name on every event, `turn-end`, tool results and errors,
   * corrections, `turn-discarded` for an attempt another model answers instead, `deferred` when
   * the run pauses, and last `finish` (the result) or `error` (the `RunError`, with its evidence;
   * the iteration ends normally and `result` rejects). A failure that is not a `RunError` (invalid
   * input or configuration, a store failure) rejects the iteration. Iterate once, instead of the
   * deltas or `textStream` (a second reader throws `TypeError`).
   */
  readonly events: AsyncIterable<RunStreamEvent<Output>>;
  /**
   * The answer's text fragments as strings; the text of a later turn is set apart from earlier
   * text by a blank line (`'\n\n'`). Ends when the run ends (check `result` for the outcome).
   * Iterate once, instead of the deltas or `events` (a second reader throws `TypeError`).
   */
  readonly textStream: AsyncIterable<string>;
  /**
   * The output while it streams: a `DeepPartial<Output>` snapshot each time the streamed answer
   * parses further (native `outputSchema`: the answer's JSON; `outputTool`: the output call's
   * arguments; plain text: the text so far), ending with the validated output — the same value as
   * `(await result).output` (a decorated `@Output` class instance; snapshots are plain objects).
   * Each model turn starts over; snapshots coalesce for a slow reader. Ends without a final value
   * when the run fails (see `result`) or pauses. Iterate once; stopping early ends the run.
   */
  readonly partialOutput: AsyncIterable<DeepPartial<Output>>;
}

/** Which part of a streamed answer is the output, from the agent's configuration. Internal. */
export function partialSource<Deps>(engine: EngineConfig<Deps>): PartialOutputSource {
  if (engine.outputTool !== undefined) return { kind: 'tool', name: engine.outputTool.name };
  return engine.outputSchema !== undefined ? { kind: 'json' } : { kind: 'text' };
}

/** The options a streaming run reads before it starts. Internal. */
export interface StreamControls {
  observer?: RunObserver;
  onDelta?: DeltaHandler;
  signal?: AbortSignal;
}

const NOTHING = (): void => undefined;

/**
 * Starts a streaming run: `execute` runs it with the options it should use (the caller's, with an
 * observer feeding the stream and a signal the stream aborts when its reader stops) and the delta
 * handler. Internal.
 */
export function startRunStream<O extends StreamControls, Output, Pausable extends boolean>(
  options: O,
  source: PartialOutputSource,
  execute: (options: O, handler: DeltaHandler) => Promise<Result<Output>>,
): RunStream<Output, Pausable> {
  const controller = new AbortController();
  const abandoned = (): void => {
    controller.abort(new StreamAbandonedError());
  };
  const feed = new RunStreamFeed<Output>(abandoned);
  // The current model call's answer text: for `partialOutput`, and for the engine (the text of a
  // call that fails is the run's partial evidence), which then keeps no copy of its own.
  const answer = new StreamedText();
  const partial = new PartialOutputFeed<Output>(source, answer, abandoned);
  const { onDelta } = options;
  // Not async: no promise per delta unless the caller's `onDelta` returns one. A throw (the
  // reader stopped, or the caller's handler threw) is a rejection, as from an async handler.
  const handler: DeltaHandler = (delta) => {
    try {
      answer.add(delta.content);
      feed.push(delta);
      if (partial.takesDeltas) partial.push(delta);
      return onDelta === undefined ? undefined : onDelta(delta);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown
      return Promise.reject(error);
    }
  };
  recordsStreamedText(handler, answer);
  const observer = (event: RunEvent): void => {
    if (event.kind === 'model_start') {
      partial.turnStarted();
      answer.clear();
    }
    feed.observe(event);
    options.observer?.(event);
  };
  const { runOptions, unlink } = streamOptions(options, observer, controller);
  const result = (async () => {
    let final: { output: Output } | undefined;
    try {
      const done = await execute(runOptions, handler);
      if (done.pending === undefined) final = { output: done.output };
      feed.settle({ ok: true, result: done });
      return done;
    } catch (error) {
      feed.settle({ ok: false, error });
      throw error;
    } finally {
      unlink();
      partial.finish(final);
    }
  })();
  result.catch(() => undefined);
  return Object.assign(feed, {
    result: result as Promise<RunResult<Output, Pausable>>,
    partialOutput: partial,
  });
}

/**
 * The run's options: the stream's observer, and the stream's signal linked to the caller's. A
 * caller's observer or signal of the wrong type is left for run validation to reject.
 */
function streamOptions<O extends StreamControls>(
  options: O,
  observer: RunObserver,
  controller: AbortController,
): { runOptions: O; unlink: () => void } {
  const caller: unknown = options.observer;
  if (caller !== undefined && typeof caller !== 'function')
    return { runOptions: options, unlink: NOTHING };
  const signal: unknown = options.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal))
    return { runOptions: { ...options, observer }, unlink: NOTHING };
  const runOptions = { ...options, observer, signal: controller.signal };
  if (signal === undefined) return { runOptions, unlink: NOTHING };
  if (signal.aborted) {
    controller.abort(signal.reason);
    return { runOptions, unlink: NOTHING };
  }
  const onAbort = (): void => {
    controller.abort(signal.reason);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    runOptions,
    unlink: () => {
      signal.removeEventListener('abort', onAbort);
    },
  };
}
