import { hostname } from 'node:os';
import type { DeferredResults } from '../engine/deferred-types';
import { RunError, RunInputError } from '../engine/errors';
import type { Result } from '../engine/result';
import { executeRun } from '../engine/run';
import type { EngineConfig, RunSettings } from '../engine/run-config';
import { RunState } from '../engine/run-state';
import type { Message } from '../contract/message';
import type { DeltaHandler } from '../contract/model';
import { emptyUsage } from '../contract/usage';
import type { OutputDecoder } from '../output/decoder';
import { planContinuation } from './continuation';
import type { RunStore } from './port';
import type { RunRecord, StoredRun } from './records';
import { decodeConversation, decodeRun, messagesJson } from './records';
import { Recorder } from './recorder';
import type { RunScope } from './access';
import {
  checkOwner,
  conversationNotFound,
  conversationVisible,
  runNotFound,
  runVisible,
} from './access';
import { acquireRun, startRun } from './store-ops';
import { quote, StoreError } from './store-error';

/**
 * A random UUID from the global Web Crypto (loaded on first use, so `require('golem')` does not
 * load `node:crypto` and its streams).
 */
function newUuid(): string {
  return globalThis.crypto.randomUUID();
}

/** What the durable layer needs from an agent. Internal. */
export interface DurableHost<Deps, Output> {
  readonly name: string;
  /** The `owner` option of the call: who the run belongs to, or (resumes) who asks for it. */
  readonly owner?: string | undefined;
  readonly engine: EngineConfig<Deps>;
  readonly decoder: OutputDecoder<Output>;
  /** The run-start pipeline on `history`: a state whose messages end with the prompt. */
  prepare(
    prompt: string,
    history: readonly Message[],
    onDelta: DeltaHandler | undefined,
  ): Promise<RunState<Deps>>;
  /** The settings of a run continued from a checkpoint. */
  settings(): RunSettings<Deps>;
  /** The resume pipeline without the history processor; `attach` runs before any call resolves. */
  prepareResume(
    history: readonly Message[],
    results: DeferredResults,
    attach: (state: RunState<Deps>) => void,
  ): Promise<RunState<Deps>>;
}

/** Options of a stored run. Internal. */
export interface StoredRunOptions {
  history?: readonly Message[];
  conversation?: string;
  runId?: string;
}

const ID = /^[\x21-\x7e]{1,200}$/;

function checkId(kind: string, id: unknown): string {
  if (typeof id !== 'string' || !ID.test(id))
    throw new RunInputError(
      `${kind} must be 1–200 printable ASCII characters without spaces, got ${quote(id)}`,
    );
  return id;
}

/** This process's part of a lease owner, read once (`hostname()` is a system call). */
let processOwner: string | undefined;

/** A fresh lease owner: host, process and a random suffix (one per run segment). */
function leaseOwner(): string {
  processOwner ??= `${hostname()}/${process.pid}`;
  return `${processOwner}/${newUuid().slice(0, 8)}`;
}

function nonSystem(messages: readonly Message[]): Message[] {
  return messages.filter((m) => m.role !== 'system');
}

/** Starts a stored run: loads the conversation, records the start, checkpoints, finishes. */
export async function runStored<Deps, Output>(
  host: DurableHost<Deps, Output>,
  store: RunStore,
  prompt: string,
  options: StoredRunOptions,
  onDelta: DeltaHandler | undefined,
): Promise<Result<Output>> {
  const runId = options.runId === undefined ? newUuid() : checkId('runId', options.runId);
  const owner = checkOwner(host.owner);
  let history = options.history ?? [];
  let conversationVersion: number | undefined;
  const conversationId =
    options.conversation === undefined ? null : checkId('conversation', options.conversation);
  if (conversationId !== null) {
    if (options.history !== undefined)
      throw new RunInputError(
        'pass either `history` or `conversation`, not both: a stored conversation is its own history',
      );
    const stored = await store.getConversation(conversationId);
    if (stored !== undefined && !conversationVisible(stored, { owner }))
      throw conversationNotFound(conversationId);
    history = stored === undefined ? [] : decodeConversation(stored).messages;
    conversationVersion = stored?.version ?? 0;
  }
  const state = await host.prepare(prompt, history, onDelta);
  try {
    const now = store.now();
    const row: StoredRun = {
      id: runId,
      agent: host.name,
      conversationId,
      conversationBase: nonSystem(state.messages).length - 1,
      status: 'running',
      messages: messagesJson(state.messages),
      usage: JSON.stringify(emptyUsage()),
      requests: 0,
      toolCalls: 0,
      turns: 0,
      pending: null,
      inFlight: null,
      errorStage: null,
      errorMessage: null,
      createdAt: now,
      updatedAt: now,
      leaseOwner: leaseOwner(),
      leaseExpiresAt: now + store.leaseMs,
      version: 1,
      owner: owner ?? null,
      conversationLength: conversationId === null ? null : history.length,
    };
    await startRun(store, row, conversationVersion);
    const recorder = new Recorder(store, row);
    state.checkpoints = recorder;
    return await settle(recorder, state, () => executeRun(host.engine, host.decoder, state));
  } finally {
    state.run.release();
  }
}

/** Resolves a paused stored run's pending calls (from any process) and continues it. */
export async function resumeStored<Deps, Output>(
  host: DurableHost<Deps, Output>,
  store: RunStore,
  runId: string,
  results: DeferredResults,
): Promise<Result<Output>> {
  const id = checkId('runId', runId);
  const scope = scopeOf(host);
  await readable(store, id, scope); // a corrupt or foreign run is refused before its lease is taken
  const row = await acquireRun(store, id, leaseOwner(), 'resume', scope);
  const record = decodeRun(row);
  const recorder = new Recorder(store, row, record.inFlight);
  let state: RunState<Deps>;
  try {
    state = await host.prepareResume(record.messages, results, (fresh) => {
      restore(fresh, record);
      fresh.checkpoints = recorder;
    });
  } catch (error) {
    if (RunError.is(error)) {
      // An approved re-run failed: the checkpoint keeps what was resolved before it.
      error.runId = recorder.runId;
      await recorder
        .failAsIs({ stage: error.stage, message: error.message })
        .catch(() => recorder.abandon());
    } else if (recorder.current.version === row.version) {
      await recorder.release('paused'); // invalid results: nothing was written, the run stays paused
    } else throw await storeFailure(recorder, error); // decisions were recorded: resumeRun continues
    throw error;
  }
  try {
    await recorder.commit(state);
    return await settle(recorder, state, () => executeRun(host.engine, host.decoder, state));
  } finally {
    state.run.release();
  }
}

/**
 * Continues an interrupted or failed stored run from its last checkpoint: completed calls are
 * never run again, calls that never started run now, in-flight `idempotent` calls re-run, other
 * in-flight calls pause the run for a decision. A paused run is returned as it is.
 */
export async function continueStored<Deps, Output>(
  host: DurableHost<Deps, Output>,
  store: RunStore,
  runId: string,
): Promise<Result<Output>> {
  const id = checkId('runId', runId);
  const scope = scopeOf(host);
  const before = await readable(store, id, scope);
  if (before.status === 'paused' && before.pending !== undefined)
    return { ...evidence(before), output: undefined, pending: before.pending, runId: id };
  const row = await acquireRun(store, id, leaseOwner(), 'continue', scope);
  const record = decodeRun(row);
  const recorder = new Recorder(store, row, record.inFlight);
  const state = new RunState(host.settings(), record.messages);
  try {
    restore(state, record);
    state.checkpoints = recorder;
    const step = planContinuation(host.engine, record.messages, record.inFlight, record.pending);
    return await settle(recorder, state, () => executeRun(host.engine, host.decoder, state, step));
  } finally {
    state.run.release();
  }
}

/** Who a resume speaks for: the resuming agent, and the call's owner when it names one. */
function scopeOf(host: { name: string; owner?: string | undefined }): RunScope {
  return { agent: host.name, owner: checkOwner(host.owner) };
}

/**
 * The stored run `id`, decoded: `not-found` (also for a run of another agent or owner) or
 * `corrupt` StoreErrors before anything is written.
 */
async function readable(store: RunStore, id: string, scope: RunScope): Promise<RunRecord> {
  const stored = await store.getRun(id);
  if (stored === undefined || !runVisible(stored, scope)) throw runNotFound(id, scope);
  return decodeRun(stored);
}

function restore<Deps>(state: RunState<Deps>, record: RunRecord): void {
  state.usage = { ...record.usage };
  state.requests = record.requests;
  state.toolCalls = record.toolCalls;
  state.completedTurns = record.turns;
}

function evidence(source: {
  messages: readonly Message[];
  usage: { inputTokens: number; outputTokens: number };
  requests: number;
  toolCalls: number;
}) {
  return {
    messages: [...source.messages],
    usage: { ...source.usage },
    requests: source.requests,
    toolCalls: source.toolCalls,
  };
}

/** Runs `body` and records how it ended: completed, paused, failed, or abandoned on a store error. */
async function settle<Deps, Output>(
  recorder: Recorder,
  state: RunState<Deps>,
  body: () => Promise<Result<Output>>,
): Promise<Result<Output>> {
  let result: Result<Output>;
  try {
    result = await body();
  } catch (error) {
    if (RunError.is(error)) {
      error.runId = recorder.runId;
      await recorder
        .finish(state, { status: 'failed', error: { stage: error.stage, message: error.message } })
        .catch(() => recorder.abandon());
      throw error;
    }
    throw await storeFailure(recorder, error);
  }
  try {
    if (result.pending !== undefined) {
      await recorder.finish(state, { status: 'paused', pending: result.pending });
    } else {
      const base = recorder.current.conversationBase;
      await recorder.finish(state, {
        status: 'completed',
        tail: nonSystem(result.messages).slice(base),
        output: result.output,
      });
    }
  } catch (error) {
    throw await storeFailure(recorder, error);
  }
  return { ...result, runId: recorder.runId };
}

/**
 * Stops recording after a failure outside the run's stages (typically the store's) and names the
 * run in a StoreError, so the caller knows what to resume once the store is back.
 */
async function storeFailure(recorder: Recorder, error: unknown): Promise<unknown> {
  await recorder.abandon();
  if (!StoreError.is(error) || error.runId !== undefined) return error;
  return new StoreError(`run ${quote(recorder.runId)}: ${error.message}`, {
    reason: error.reason,
    runId: recorder.runId,
    retryable: error.retryable,
    cause: error,
  });
}
