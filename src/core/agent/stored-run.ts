import type { Result } from '../engine/result';
import type { Compaction } from '../engine/compaction';
import { executeRun } from '../engine/run';
import type { EngineConfig, HandoffTarget, RunSettings } from '../engine/run-config';
import type { HandoffRecord } from '../engine/handoff-types';
import { RunProgress } from '../engine/run-progress';
import type { Step } from '../engine/step';
import type { Message } from '../contract/message';
import type { OutputDecoder } from '../output/decoder';
import { planContinuation } from '../durable/continuation';
import { originOf } from '../durable/records';
import { RunInputError } from '../engine/errors';
import type { ReadState } from '../engine/run-state';
import { attachHistory } from '../engine/checked-history';
import { attachState } from '../engine/run-state';
import type { RunStore } from '../durable/port';
import type { StoredRunOptions } from '../durable/durable-run';
import {
  attachClaim,
  beginRun,
  claimToContinue,
  claimToResume,
  giveBackPaused,
  openRun,
  settle,
} from '../durable/durable-run';

/**
 * The doors of a stored run. Each builds the run's state and its step, lets the durable layer
 * wrap checkpoints around the engine (`settle`), and enters the engine at that step; the durable
 * layer never calls back into the agent. Loaded when a run first uses a store.
 */

/** What a stored run needs of its agent. Internal. */
export interface StoredAgent<Deps, Output> {
  /** The name stored with the run; a run stored by another agent is refused. */
  readonly name: string;
  readonly engine: EngineConfig<Deps>;
  readonly decoder: OutputDecoder<Output>;
  /** The agent answering a run that handed off (`turns`: the run's own model turns). */
  readonly active?: (
    messages: readonly Message[],
    turns: number | undefined,
  ) => ActiveAgent<Deps> | undefined;
}

/** The agent a run that handed off continues in, and the handoffs it took. Internal. */
export interface ActiveAgent<Deps> {
  readonly active: HandoffTarget<Deps>;
  readonly path: HandoffRecord[];
}

/** A run's state and the step it enters the engine at (in the agent answering it). Internal. */
export interface PreparedRun<Deps, Output = unknown> {
  readonly state: RunProgress<Deps>;
  readonly step: Step;
  /** The engine and decoder of the agent answering the run (another one after a handoff). */
  readonly engine: EngineConfig<Deps>;
  readonly decoder: OutputDecoder<Output>;
}

/**
 * Starts a stored run: checks its options, loads its conversation, has `prepare` build the run's
 * state from that history (the run-start pipeline), records the start, and runs it.
 */
export async function runStored<Deps, Output>(
  agent: StoredAgent<Deps, Output>,
  store: RunStore,
  options: StoredRunOptions,
  prepare: (
    history: readonly Message[],
    compactions: readonly Compaction[] | undefined,
  ) => Promise<RunProgress<Deps>>,
): Promise<Result<Output>> {
  const opening = await openRun(store, options);
  const state = await prepare(opening.history, opening.compactions);
  try {
    const recorder = await beginRun(store, opening, agent.name, state);
    return await settle(recorder, state, () => executeRun(agent.engine, agent.decoder, state));
  } finally {
    state.run.release();
  }
}

/**
 * Resolves a paused stored run's pending calls (from any process) and continues it: the run is
 * taken, `prepare` matches the results to its pending calls (invalid results give the run back
 * untouched) and builds the `resolve` step, which records every decision before any call runs.
 */
export async function resumeStored<Deps, Output>(
  agent: StoredAgent<Deps, Output>,
  store: RunStore,
  runId: string,
  owner: string | undefined,
  prepare: (history: readonly Message[], turns: number) => Promise<PreparedRun<Deps, Output>>,
): Promise<Result<Output>> {
  const claim = await claimToResume(store, runId, { agent: agent.name, owner });
  let prepared: PreparedRun<Deps, Output>;
  try {
    prepared = await prepare(claim.record.messages, claim.record.turns);
  } catch (error) {
    return giveBackPaused(claim, error);
  }
  const { state, step } = prepared;
  try {
    attachClaim(state, claim);
    return await settle(claim.recorder, state, () =>
      executeRun(prepared.engine, prepared.decoder, state, step),
    );
  } finally {
    state.run.release();
  }
}

/**
 * Continues an interrupted or failed stored run from its last checkpoint, at the step the
 * checkpoint leaves off (`planContinuation`): completed calls are never run again, calls that
 * never started run now, in-flight `idempotent` calls re-run, other in-flight calls pause the run
 * for a decision. A paused run is returned as it is.
 */
export async function continueStored<Deps, Output>(
  agent: StoredAgent<Deps, Output>,
  store: RunStore,
  runId: string,
  owner: string | undefined,
  settings: () => RunSettings<Deps>,
): Promise<Result<Output>> {
  const claim = await claimToContinue(store, runId, { agent: agent.name, owner });
  if ('paused' in claim) {
    const { paused } = claim;
    return named(agent, paused, paused.messages, paused.state.turns);
  }
  const { record } = claim;
  const state = new RunProgress(settings(), record.messages, originOf(record));
  try {
    attachClaim(state, claim);
    const { engine, decoder } = answering(agent, state, record.messages, record.turns);
    const step = planContinuation(engine, record.messages, record.inFlight, record.pending);
    return await settle(claim.recorder, state, () => executeRun(engine, decoder, state, step));
  } finally {
    state.run.release();
  }
}

/**
 * Continues a run from a state a caller held (no store): at the step its messages leave off, as
 * `continueStored` does from a checkpoint — in-flight calls re-run only if `idempotent`, else the
 * run pauses on them. A paused state comes back as it is; a completed one has nothing to continue.
 */
export async function continueState<Deps, Output>(
  agent: StoredAgent<Deps, Output>,
  given: ReadState,
  settings: () => RunSettings<Deps>,
): Promise<Result<Output>> {
  if (given.status === 'completed')
    throw new RunInputError('state is completed: there is nothing to continue');
  if (given.status === 'paused' && given.pending !== undefined) {
    const paused = {
      messages: [...given.messages],
      usage: { ...given.usage },
      requests: given.requests,
      toolCalls: given.toolCalls,
      output: undefined,
      pending: given.pending,
      ...(given.origin.runId !== undefined && { runId: given.origin.runId }),
    };
    const result = attachHistory(attachState(paused, () => given)) as Result<Output>;
    return named(agent, result, given.messages, given.turns);
  }
  const state = new RunProgress(settings(), [...given.messages], given.origin);
  state.carryOver(given);
  try {
    const { engine, decoder } = answering(agent, state, given.messages, given.turns);
    const step = planContinuation(engine, given.messages, given.inFlight, given.pending);
    return await executeRun(engine, decoder, state, step);
  } finally {
    state.run.release();
  }
}

/**
 * The engine and decoder a continued run enters: those of the agent answering it, its handoffs
 * (replayed from `messages`, the run's own last `turns`) set on `state` with the run's bound.
 */
function answering<Deps, Output>(
  agent: StoredAgent<Deps, Output>,
  state: RunProgress<Deps>,
  messages: readonly Message[],
  turns: number,
): { engine: EngineConfig<Deps>; decoder: OutputDecoder<Output> } {
  state.handoffLimit = agent.engine.maxHandoffs;
  const handoff = agent.active?.(messages, turns);
  if (handoff === undefined) return { engine: agent.engine, decoder: agent.decoder };
  state.handoffs = handoff.path;
  return {
    engine: handoff.active.engine,
    decoder: handoff.active.decoder as OutputDecoder<Output>,
  };
}

/** A paused run returned as it is, naming the agent answering it (`result.agent`, not enumerable). */
function named<Deps, Output>(
  agent: StoredAgent<Deps, Output>,
  result: Result<Output>,
  messages: readonly Message[],
  turns: number,
): Result<Output> {
  const handoff = agent.active?.(messages, turns);
  const last = handoff?.path[handoff.path.length - 1];
  if (last !== undefined) result.handoffs = handoff?.path;
  Object.defineProperty(result, 'agent', {
    value: last?.to ?? agent.name,
    configurable: true,
    enumerable: false,
  });
  return result;
}
