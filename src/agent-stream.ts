import type { StreamOptions } from './agent-config';
import { DeltaQueue } from './engine/delta-stream';
import type { RunEvent } from './engine/events';
import type { DeepPartial, PartialOutputSource } from './engine/partial-output';
import { PartialOutputFeed } from './engine/partial-output';
import type { Result, RunResult } from './engine/result';
import type { EngineConfig } from './engine/run-config';
import type { Delta } from './model/delta';
import type { DeltaHandler } from './model/model';

/**
 * A streaming run: iterate it for deltas; `result` settles with the run; `partialOutput` yields
 * the output while it streams.
 */
export interface RunStream<Output, Pausable extends boolean = false> extends AsyncIterable<Delta> {
  readonly result: Promise<RunResult<Output, Pausable>>;
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

/**
 * Starts a streaming run: `execute` runs it with the options it should use (the caller's, with an
 * observer that marks model turns for the partial output) and the delta handler. Internal.
 */
export function startRunStream<Deps, Output, Pausable extends boolean>(
  options: StreamOptions<Deps>,
  source: PartialOutputSource,
  execute: (options: StreamOptions<Deps>, handler: DeltaHandler) => Promise<Result<Output>>,
): RunStream<Output, Pausable> {
  const queue = new DeltaQueue();
  const partial = new PartialOutputFeed<Output>(source);
  const handler: DeltaHandler = async (delta) => {
    queue.push(delta);
    partial.push(delta);
    if (options.onDelta !== undefined) await options.onDelta(delta);
  };
  const caller: unknown = options.observer;
  const observer = (event: RunEvent): void => {
    if (event.kind === 'model_start') partial.turnStarted();
    options.observer?.(event);
  };
  // A caller's observer that is not a function is left for run validation to reject.
  const runOptions: StreamOptions<Deps> =
    caller !== undefined && typeof caller !== 'function'
      ? options
      : ({ ...options, observer } as StreamOptions<Deps>);
  const result = (async () => {
    let final: { output: Output } | undefined;
    try {
      const done = await execute(runOptions, handler);
      if (done.pending === undefined) final = { output: done.output };
      return done;
    } finally {
      queue.close();
      partial.finish(final);
    }
  })();
  result.catch(() => undefined);
  return Object.assign(queue, {
    result: result as Promise<RunResult<Output, Pausable>>,
    partialOutput: partial,
  });
}
