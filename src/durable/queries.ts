import type { RunFilter, RunStore } from './port';
import type { ConversationRecord, RunRecord } from './records';
import { decodeConversation, decodeRun } from './records';
import { StoreError } from './store-error';

/**
 * The stored run `runId`, decoded and validated: status, checkpointed messages, usage, pending
 * calls (of a paused run), in-flight calls, error. Throws `not-found` or `corrupt` StoreErrors.
 */
export async function loadRun(store: RunStore, runId: string): Promise<RunRecord> {
  const row = await store.getRun(runId);
  if (row === undefined)
    throw new StoreError(`no stored run has the id "${runId}"`, { reason: 'not-found', runId });
  return decodeRun(row);
}

/** The stored conversation `id`, decoded; `undefined` when there is none. */
export async function loadConversation(
  store: RunStore,
  id: string,
): Promise<ConversationRecord | undefined> {
  const row = await store.getConversation(id);
  return row === undefined ? undefined : decodeConversation(row);
}

/**
 * Stored runs matching `filter`, newest first, decoded. `listRuns(store, { status: ['paused'] })`
 * lists the runs waiting for decisions, each with its `pending` calls.
 */
export async function listRuns(store: RunStore, filter: RunFilter = {}): Promise<RunRecord[]> {
  return (await store.listRuns(filter)).map(decodeRun);
}
