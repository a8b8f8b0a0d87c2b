import type {
  Delta,
  PendingToolCalls,
  RunResult,
  RunStage,
  RunStream,
  Usage,
} from '../src/core/index';
import { GolemError, RunError } from '../src/core/index';
import { clientErrorKind, clientErrorText, logRunFailure } from './client-errors';

/** The `data` of the `result` event by default: the run's result without its messages. */
export interface RunResultData<Output> {
  /** The decoded output; `null` when the run paused on deferred tool calls. */
  readonly output: Output | null;
  /** The calls the run paused on (approvals, external results); `null` when it completed. */
  readonly pending: PendingToolCalls | null;
  readonly usage: Usage;
  readonly requests: number;
  readonly toolCalls: number;
}

/** The `data` of the `error` event: the failed run's stage and a message. */
export interface RunErrorData {
  /** The `RunError` stage (`model`, `decode`, `tool`, `loop`, `usage`); `null` for other errors. */
  readonly stage: RunStage | null;
  /** The error's kind (`RunError`, `ConfigError`, …; `Error` for a foreign error). */
  readonly kind: string;
  /**
   * A client-safe text: a failed run's stage and its cause's kind, Golem's own word on invalid
   * input or an unknown run id, or a fixed text — never what a tool or model threw.
   */
  readonly message: string;
}

/**
 * One server-sent event of a streamed run, in the shape of Nest's `MessageEvent` (`type` is the
 * SSE `event:` field): `delta` for every model fragment (or `partial` for every output snapshot
 * with the `partialOutput` option), then exactly one `result` (data `R`,
 * by default {@link RunResultData}) or one `error` ({@link RunErrorData}).
 */
export type RunMessageEvent<R = RunResultData<unknown>> =
  | { readonly type: 'delta'; readonly data: Delta }
  | { readonly type: 'partial'; readonly data: object | string }
  | { readonly type: 'result'; readonly data: R }
  | { readonly type: 'error'; readonly data: RunErrorData };

/** Options of `sseFromRun` and `writeRunSse`. */
export interface RunEventsOptions<Output, Pausable extends boolean, R> {
  /** The `data` of the `result` event; default {@link RunResultData} (no messages). */
  readonly result?: (result: RunResult<Output, Pausable>) => R;
  /** The `data` of the `error` event; default {@link runErrorData}. */
  readonly error?: (error: unknown) => RunErrorData;
  /**
   * Send `partial` events (the output so far, from `RunStream.partialOutput`; the last one is the
   * validated output) instead of `delta` events; default `false`.
   */
  readonly partialOutput?: boolean;
}

/** Starts the run with the signal the helper aborts when the client goes away. */
export type StartRun<Output, Pausable extends boolean> = (
  signal: AbortSignal,
) => RunStream<Output, Pausable>;

/**
 * The default `error` event data: the stage of a `RunError`, the kind of any Golem error, and a
 * client-safe message — for a failed run its stage and its cause's kind, never what a tool, a
 * model or a model factory threw; Golem's own word on invalid input or an unknown run id.
 */
export function runErrorData(error: unknown): RunErrorData {
  if (RunError.is(error))
    return { stage: error.stage, kind: error.kind, message: clientErrorText(error) };
  if (GolemError.isGolemError(error))
    return { stage: null, kind: clientErrorKind(error), message: clientErrorText(error) };
  return { stage: null, kind: 'Error', message: 'the run failed' };
}

function resultData<Output>(result: RunResult<Output, boolean>): RunResultData<Output> {
  return {
    output: result.pending === undefined ? result.output : null,
    pending: result.pending ?? null,
    usage: result.usage,
    requests: result.requests,
    toolCalls: result.toolCalls,
  };
}

/**
 * The events of one run: starts it with `signal`, yields a `delta` per fragment, then `result`,
 * or `error` when the run (or starting it) fails — the whole error goes to Nest's `Logger`
 * (context `Golem`), the event carries a client-safe text. Never throws.
 */
export async function* runEvents<Output, Pausable extends boolean, R>(
  start: StartRun<Output, Pausable>,
  signal: AbortSignal,
  options: RunEventsOptions<Output, Pausable, R> = {},
): AsyncGenerator<RunMessageEvent<R>, void, undefined> {
  const toError = options.error ?? runErrorData;
  let event: RunMessageEvent<R>;
  try {
    const stream = start(signal);
    if (options.partialOutput === true)
      for await (const partial of stream.partialOutput) {
        const data: unknown = partial;
        // MessageEvent data is an object or a string: a bare number or boolean output has no partials.
        if ((typeof data === 'object' && data !== null) || typeof data === 'string')
          yield { type: 'partial', data };
      }
    else for await (const delta of stream) yield { type: 'delta', data: delta };
    const result = await stream.result;
    const data = options.result
      ? options.result(result)
      : (resultData(result as RunResult<Output, boolean>) as R);
    event = { type: 'result', data };
  } catch (error) {
    // A run the client gave up on is not a failure to report.
    if (!signal.aborted) logRunFailure(error);
    event = { type: 'error', data: toError(error) };
  }
  yield event;
}
