import type { Message } from '../contract/message';
import type { RunStore, StoreTransaction, WriteOptions } from './port';
import type { StoredConversation, StoredRun } from './records';
import { messagesJson, readMessages } from './records';
import { quote, StoreError } from './store-error';
import type { RunScope } from './access';
import { conversationNotFound, conversationVisible, runNotFound, runVisible } from './access';

/** The rules every store follows, written once over the port's rows and transactions. Internal. */

const LIVE = new Set(['running', 'paused']);

function held(run: StoredRun, now: number): boolean {
  return run.leaseOwner !== null && (run.leaseExpiresAt ?? 0) > now;
}

function heldError(run: StoredRun): StoreError {
  const until = new Date(run.leaseExpiresAt ?? 0).toISOString();
  return new StoreError(
    `run ${quote(run.id)} is held by another process (lease owner ${quote(run.leaseOwner ?? '')}, until ${until}); exactly one process continues a run — retry after that process finishes or its lease expires`,
    { reason: 'conflict', runId: run.id },
  );
}

/** Claims `conversationId` for `runId` inside `tx`, or throws `conflict` if another live run has it. */
async function claim(
  tx: StoreTransaction,
  conversationId: string,
  runId: string,
  now: number,
  expectedVersion: number | undefined,
  owner: string | null | undefined,
): Promise<void> {
  const conversation = await tx.getConversation(conversationId);
  if (conversation === undefined) {
    if (expectedVersion !== undefined && expectedVersion !== 0) throw changed(conversationId);
    await tx.putConversation({
      id: conversationId,
      messages: '[]',
      activeRunId: runId,
      version: 1,
      createdAt: now,
      updatedAt: now,
      owner: owner ?? null,
    });
    return;
  }
  if (owner !== undefined && owner !== null && !conversationVisible(conversation, { owner }))
    throw conversationNotFound(conversationId);
  const active = conversation.activeRunId;
  if (active !== null && active !== runId) {
    const other = await tx.getRun(active);
    if (other !== undefined && LIVE.has(other.status)) {
      throw new StoreError(
        `conversation ${quote(conversationId)} has an unfinished run ${quote(active)} (${other.status}); finish it first — agent.resume(${quote(active)}, results) for a paused run, agent.resumeRun(${quote(active)}) for an interrupted one`,
        { reason: 'conflict', conversationId, runId: active },
      );
    }
  }
  if (expectedVersion !== undefined && conversation.version !== expectedVersion)
    throw changed(conversationId);
  await tx.putConversation({
    ...conversation,
    activeRunId: runId,
    version: conversation.version + 1,
    updatedAt: now,
  });
}

function changed(conversationId: string): StoreError {
  return new StoreError(
    `conversation ${quote(conversationId)} changed while this run was starting (another run finished on it); start the run again`,
    { reason: 'conflict', conversationId },
  );
}

function idTaken(runId: string): StoreError {
  return new StoreError(`a stored run already has the id ${quote(runId)}; run ids are unique`, {
    reason: 'conflict',
    runId,
  });
}

/**
 * Inserts a new run (leased to its owner) and claims its conversation, atomically. `conflict` when
 * the id is taken, or when another unfinished run has the conversation. Without a conversation
 * the insert is one statement when the store has `insertRun`, committed without waiting for the
 * disk flush: the run's first batch write-ahead record, flushed, precedes any tool.
 */
export async function startRun(
  store: RunStore,
  run: StoredRun,
  conversationVersion: number | undefined,
): Promise<void> {
  if (run.conversationId === null && store.insertRun !== undefined) {
    if (!(await store.insertRun(run, { flush: false }))) throw idTaken(run.id);
    return;
  }
  await store.transaction(async (tx) => {
    if ((await tx.getRun(run.id)) !== undefined) throw idTaken(run.id);
    if (run.conversationId !== null)
      await claim(tx, run.conversationId, run.id, run.createdAt, conversationVersion, run.owner);
    await tx.putRun(run);
  });
}

/** Why a conditional write of `run` at `expected` failed (read back to say which). */
async function explain(store: RunStore, runId: string, expected: number): Promise<StoreError> {
  return versionError(runId, await store.getRun(runId), expected);
}

/** The error for a write of `runId` at version `expected` over `current` (as read). */
function versionError(runId: string, current: StoredRun | undefined, expected: number): StoreError {
  if (current === undefined) return runNotFound(runId);
  return new StoreError(
    `run ${quote(runId)} was changed by another process (version ${current.version}, expected ${expected}; lease owner ${quote(current.leaseOwner ?? '')}); this process stops writing it`,
    { reason: 'conflict', runId },
  );
}

/** A checkpoint: replaces `next` over version `expected`, or throws `conflict`/`not-found`. */
export async function writeRun(
  store: RunStore,
  next: StoredRun,
  expected: number,
  options?: WriteOptions,
): Promise<void> {
  if (!(await store.replaceRun(next, expected, options)))
    throw await explain(store, next.id, expected);
}

/** Appends `tail` (durable JSON) to a conversation's messages (durable JSON). */
function appendJson(messages: string, tail: string): string {
  if (tail === '[]') return messages;
  if (messages.trim() === '[]') return tail;
  return `${messages.slice(0, messages.lastIndexOf(']'))},${tail.slice(1)}`;
}

/**
 * The final write of a run segment: the run row, and for a run on a conversation its effect there
 * — a completed run appends `tail` and releases the conversation, a failed run releases it, a
 * paused run keeps it.
 */
export async function finishRun(
  store: RunStore,
  next: StoredRun,
  expected: number,
  tail: readonly Message[],
): Promise<void> {
  const conversationId = next.conversationId;
  if (conversationId === null || next.status === 'paused') {
    await writeRun(store, next, expected);
    return;
  }
  await store.transaction(async (tx) => {
    // The conversation is locked before the run, as a start locks it before the run holding it:
    // one lock order, so a run finishing and another starting on its conversation never deadlock.
    const stored = await tx.getConversation(conversationId);
    const current = await tx.getRun(next.id);
    // Explained from what was read: the store must not be used beside its own transaction.
    if (current?.version !== expected) throw versionError(next.id, current, expected);
    await tx.putRun(next);
    const conversation: StoredConversation = stored ?? {
      id: conversationId,
      messages: '[]',
      activeRunId: next.id,
      version: 0,
      createdAt: next.updatedAt,
      updatedAt: next.updatedAt,
    };
    if (conversation.activeRunId !== next.id) return;
    await tx.putConversation({
      ...conversation,
      messages:
        next.status === 'completed'
          ? appendJson(conversation.messages, messagesJson(tail))
          : conversation.messages,
      compactions:
        next.status === 'completed'
          ? (next.compactions ?? null)
          : (conversation.compactions ?? null),
      activeRunId: null,
      version: conversation.version + 1,
      updatedAt: next.updatedAt,
    });
  });
}

/**
 * Takes the lease of a stored run for `owner`: `resume` needs a paused run, `continue` an
 * interrupted (running, lease expired or released) or failed one. A failed run on a conversation
 * claims it again. Throws `not-found`, `invalid-state` or `conflict` (a live lease).
 */
export async function acquireRun(
  store: RunStore,
  runId: string,
  owner: string,
  mode: 'resume' | 'continue',
  scope: RunScope = {},
): Promise<StoredRun> {
  return store.transaction(async (tx) => {
    const run = await tx.getRun(runId);
    if (run === undefined || !runVisible(run, scope)) throw runNotFound(runId, scope);
    const now = store.now();
    if (run.status === 'completed' || (mode === 'resume') !== (run.status === 'paused'))
      throw wrongState(run, mode);
    if (held(run, now)) throw heldError(run);
    if (run.conversationId !== null && run.status === 'failed') {
      await checkBase(tx, run, run.conversationId);
      await claim(tx, run.conversationId, run.id, now, undefined, undefined);
    }
    const next: StoredRun = {
      ...run,
      status: 'running',
      errorStage: null,
      errorMessage: null,
      leaseOwner: owner,
      leaseExpiresAt: now + store.leaseMs,
      updatedAt: now,
      version: run.version + 1,
    };
    await tx.putRun(next);
    return next;
  });
}

/**
 * Refuses (`conflict`) to continue a failed run whose conversation has more messages than when
 * the run started: a newer run completed there, and this run's answer — based on the older
 * conversation — would be appended after messages it never saw. Runs stored without the length
 * (before schema version 4) are not checked.
 */
async function checkBase(
  tx: StoreTransaction,
  run: StoredRun,
  conversationId: string,
): Promise<void> {
  const started = run.conversationLength;
  if (typeof started !== 'number' || !Number.isSafeInteger(started)) return;
  const conversation = await tx.getConversation(conversationId);
  // The run's start created or claimed it: it was deleted since (threads), and continuing the run
  // must not bring it back.
  if (conversation === undefined)
    throw new StoreError(
      `run ${quote(run.id)} cannot be continued: its conversation ${quote(conversationId)} was deleted; read this run's messages with loadRun(store, ${quote(run.id)})`,
      { reason: 'conflict', runId: run.id, conversationId },
    );
  const length = readMessages(conversation.messages, 'conversation', conversationId).length;
  if (length === started) return;
  throw new StoreError(
    `run ${quote(run.id)} cannot be continued: its conversation ${quote(conversationId)} moved on since the run started (${started} messages then, ${length} now: a newer run completed on it), and this run's messages would follow messages it never saw; start a new run on the conversation, or read this run's messages with loadRun(store, ${quote(run.id)})`,
    { reason: 'conflict', runId: run.id, conversationId },
  );
}

function wrongState(run: StoredRun, mode: 'resume' | 'continue'): StoreError {
  const hint =
    run.status === 'completed'
      ? 'it has nothing left to do (read its messages with getRun)'
      : run.status === 'paused'
        ? `it waits for decisions on its pending calls: agent.resume(${quote(run.id)}, results)`
        : `it is not paused; agent.resumeRun(${quote(run.id)}) continues an interrupted or failed run`;
  return new StoreError(
    `run ${quote(run.id)} is ${run.status}, so it cannot be ${mode === 'resume' ? 'resumed with results' : 'continued'}: ${hint}`,
    { reason: 'invalid-state', runId: run.id },
  );
}
