import { hostname } from 'node:os';
import type { Compaction } from '../engine/compaction';
import { RunError, RunInputError } from '../engine/errors';
import type { Result } from '../engine/result';
import type { RunProgress } from '../engine/run-progress';
import type { Message } from '../contract/message';
import { emptyUsage } from '../contract/usage';
import type { RunStore } from './port';
import type { RunRecord, StoredRun } from './records';
import { decodeConversation, decodeRun, messagesJson, stateFields } from './records';
import { attachHistory } from '../engine/checked-history';
import { attachState } from '../engine/run-state';
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

/** Options of a stored run. Internal. */
export interface StoredRunOptions {
  history?: readonly Message[];
  compactions?: readonly Compaction[];
  conversation?: string;
  runId?: string;
  /** Who the run belongs to. */
  owner?: string | undefined;
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
  processOwner ??= `${hostName()}/${process.pid}`;
  return `${processOwner}/${newUuid().slice(0, 8)}`;
}

/**
 * The host's name, which only tells operators where a lease is held (the random suffix makes the
 * owner unique): Deno refuses it without `--allow-sys=hostname`, and then it is `unknown-host`.
 */
function hostName(): string {
  try {
    return hostname();
  } catch {
    return 'unknown-host';
  }
}

function nonSystem(messages: readonly Message[]): Message[] {
  return messages.filter((m) => m.role !== 'system');
}

/**
 * A stored run about to start: its id and owner (checked), and the history it starts from — the
 * stored conversation's when it names one. The agent prepares the run's state from `history`,
 * then `begin`s it. Internal.
 */
export interface RunOpening {
  readonly runId: string;
  readonly owner: string | undefined;
  readonly history: readonly Message[];
  readonly conversationId: string | null;
  readonly conversationVersion: number | undefined;
  /** The compactions the run starts with: its conversation's, or the caller's with `history`. */
  readonly compactions: readonly Compaction[] | undefined;
}

/** Checks a stored run's options and loads the conversation it continues, if any. */
export async function openRun(store: RunStore, options: StoredRunOptions): Promise<RunOpening> {
  const runId = options.runId === undefined ? newUuid() : checkId('runId', options.runId);
  const owner = checkOwner(options.owner);
  let history = options.history ?? [];
  let compactions = options.compactions;
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
    const record = stored === undefined ? undefined : decodeConversation(stored);
    history = record?.messages ?? [];
    compactions = record?.compactions;
    conversationVersion = stored?.version ?? 0;
  }
  return { runId, owner, history, conversationId, conversationVersion, compactions };
}

/**
 * Records the start of a run `opening` describes, by agent `agent`, with the prepared `state`
 * (its messages end with the prompt), and attaches the run's recorder to the state as its
 * checkpoints. Internal.
 */
export async function beginRun<Deps>(
  store: RunStore,
  opening: RunOpening,
  agent: string,
  state: RunProgress<Deps>,
): Promise<Recorder> {
  const now = store.now();
  const { runId, owner, conversationId, conversationVersion } = opening;
  const row: StoredRun = {
    id: runId,
    agent,
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
    conversationLength: conversationId === null ? null : opening.history.length,
  };
  await startRun(store, row, conversationVersion);
  const recorder = new Recorder(store, row);
  state.checkpoints = recorder;
  state.origin = {
    agent,
    runId,
    owner,
    conversationId: conversationId ?? undefined,
    startedAt: now,
  };
  return recorder;
}

/** A stored run this process took (its lease), to resume or continue: its record and recorder. Internal. */
export interface ClaimedRun {
  readonly record: RunRecord;
  readonly recorder: Recorder;
}

/**
 * Takes paused stored run `runId` for `scope` to `resume` its pending calls: `not-found` for an
 * unknown, foreign or other agent's run and `corrupt` before its lease is taken. Internal.
 */
export async function claimToResume(
  store: RunStore,
  runId: string,
  scope: RunScope,
): Promise<ClaimedRun> {
  const { id, checked } = scoped(runId, scope);
  await readable(store, id, checked);
  return take(store, id, checked, 'resume');
}

/**
 * Takes an interrupted or failed stored run `runId` for `scope` to continue it, checked as
 * {@link claimToResume} does; a paused run is not taken but returned as it is, as the result
 * `resumeRun` gives for it (nothing written). Internal.
 */
export async function claimToContinue(
  store: RunStore,
  runId: string,
  scope: RunScope,
): Promise<ClaimedRun | { readonly paused: Result<never> }> {
  const { id, checked } = scoped(runId, scope);
  const before = await readable(store, id, checked);
  if (before.status === 'paused' && before.pending !== undefined)
    return {
      paused: attachHistory(
        attachState(
          { ...evidence(before), output: undefined, pending: before.pending, runId: id },
          () => stateFields(before),
        ),
      ) as Result<never>,
    };
  return take(store, id, checked, 'continue');
}

function scoped(runId: string, scope: RunScope): { id: string; checked: RunScope } {
  return {
    id: checkId('runId', runId),
    checked: { agent: scope.agent, owner: checkOwner(scope.owner) },
  };
}

async function take(
  store: RunStore,
  id: string,
  scope: RunScope,
  purpose: 'resume' | 'continue',
): Promise<ClaimedRun> {
  const row = await acquireRun(store, id, leaseOwner(), purpose, scope);
  const record = decodeRun(row);
  return { record, recorder: new Recorder(store, row, record.inFlight) };
}

/** Continues `state` from the claimed run's checkpoint: its counters, and its recorder. Internal. */
export function attachClaim<Deps>(state: RunProgress<Deps>, claim: ClaimedRun): void {
  state.carryOver(stateFields(claim.record));
  state.checkpoints = claim.recorder;
}

/**
 * Gives a run claimed to `resume` back as it was, paused (the results were invalid: nothing was
 * written), and rethrows `error`. Internal.
 */
export async function giveBackPaused(claim: ClaimedRun, error: unknown): Promise<never> {
  await claim.recorder.release('paused');
  throw error;
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

/**
 * Runs `body` (the engine, entered at the run's step) and records how it ended: completed,
 * paused, failed, or abandoned on a store error; the result names the run. Internal.
 */
export async function settle<Deps, Output>(
  recorder: Recorder,
  state: RunProgress<Deps>,
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
  // Set in place: the result's state (a lazy property) names the run too.
  result.runId = recorder.runId;
  return result;
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
