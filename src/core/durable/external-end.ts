import type { RunStore } from './port';
import type { StoredRun } from './records';
import { messagesJson } from './records';
import { finishRun } from './store-ops';

/** A run that ended before any agent ran it (rejected or cancelled while queued). Internal. */
export interface UnstartedRun {
  runId: string;
  agent: string;
  conversationId?: string | undefined;
  /** Who the run belongs to (the `owner` it was submitted with). */
  owner?: string | undefined;
  prompt?: string | undefined;
  /** Recorded as the error's stage (e.g. `queue`). */
  stage: string;
  message: string;
}

/**
 * Stores `run` as `failed` with its error (its conversation is not touched: it never had it), so
 * every run a queue accepted has a stored ending. Resolves `false`, changing nothing, when a run
 * with that id exists already.
 */
export async function recordUnstarted(store: RunStore, run: UnstartedRun): Promise<boolean> {
  const now = store.now();
  const row: StoredRun = {
    id: run.runId,
    agent: run.agent,
    conversationId: run.conversationId ?? null,
    conversationBase: 0,
    status: 'failed',
    messages: messagesJson(run.prompt === undefined ? [] : [{ role: 'user', content: run.prompt }]),
    usage: JSON.stringify({ inputTokens: 0, outputTokens: 0 }),
    requests: 0,
    toolCalls: 0,
    turns: 0,
    pending: null,
    inFlight: null,
    errorStage: run.stage,
    errorMessage: run.message,
    createdAt: now,
    updatedAt: now,
    leaseOwner: null,
    leaseExpiresAt: null,
    version: 1,
    output: null,
    owner: run.owner ?? null,
  };
  return store.transaction(async (tx) => {
    if ((await tx.getRun(run.runId)) !== undefined) return false;
    await tx.putRun(row);
    return true;
  });
}

/**
 * Ends a paused run without resuming it (it was cancelled): `failed` with `error`, its pending
 * calls kept as evidence, its conversation released. Resolves `false` when the run is not paused
 * (any more). Conflicts with a concurrent writer surface as the store's `conflict` error.
 */
export async function endPaused(
  store: RunStore,
  runId: string,
  error: { stage: string; message: string },
): Promise<boolean> {
  const current = await store.getRun(runId);
  if (current?.status !== 'paused') return false;
  const now = store.now();
  await finishRun(
    store,
    {
      ...current,
      status: 'failed',
      errorStage: error.stage,
      errorMessage: error.message,
      leaseOwner: null,
      leaseExpiresAt: null,
      updatedAt: now,
      version: current.version + 1,
    },
    current.version,
    [],
  );
  return true;
}
