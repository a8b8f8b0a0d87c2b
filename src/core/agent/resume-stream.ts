import type { ResumeOptions } from './config';
import type { RunStream } from './stream';
import { startRunStream } from './stream';
import type { DeferredResults } from '../engine/deferred-types';
import type { PartialOutputSource } from '../engine/partial-output';
import type { Result } from '../engine/result';
import type { RunState } from '../engine/run-state';
import type { Message } from '../contract/message';

/** What `resumeStream` needs of an agent: its `resume`. Internal. */
export interface Resumable<Deps, Output> {
  resume(
    history: readonly Message[] | string | RunState,
    results: DeferredResults,
    options: ResumeOptions<Deps>,
  ): Promise<Result<Output>>;
}

/**
 * `agent.resume` as a run stream: the resumed run (in memory, or a stored run by id) streams
 * through the stream's delta handler, its events feed `events`, and stopping the reader aborts it.
 * Internal: `Agent.resumeStream` is the public entry.
 */
export function resumeAsStream<Deps, Output, Pausable extends boolean>(
  agent: Resumable<Deps, Output>,
  source: PartialOutputSource,
  history: readonly Message[] | string | RunState,
  results: DeferredResults,
  options: ResumeOptions<Deps> | undefined,
): RunStream<Output, Pausable> {
  return startRunStream<ResumeOptions<Deps>, Output, Pausable>(
    options ?? ({} as ResumeOptions<Deps>),
    source,
    (opts, handler) => agent.resume(history, results, { ...opts, onDelta: handler }),
  );
}
