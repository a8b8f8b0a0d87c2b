import type { RunScope } from './access';
import { checkOwner, conversationVisible, runNotFound, runVisible } from './access';
import type { RunFilter, RunStore } from './port';
import type { ConversationRecord, RunRecord } from './records';
import { decodeConversation, decodeRun } from './records';

/**
 * Who reads: `owner` limits a read to that owner's runs and conversations.
 * @inline
 */
export interface ReadScope {
  /**
   * Only a run or conversation stored with exactly this owner is found; any other is reported as
   * missing (the same `not-found`, so a refusal never tells that the id exists). Default: any.
   */
  owner?: string;
  /** Only a run stored by the agent of this name is found (`loadRun`). Default: any. */
  agent?: string;
}

/**
 * The stored run `runId`, decoded and validated: status, checkpointed messages, usage, pending
 * calls (of a paused run), in-flight calls, error. Throws `not-found` (also for a run of another
 * `owner` or `agent` than `scope` names) or `corrupt` StoreErrors.
 */
export async function loadRun(
  store: RunStore,
  runId: string,
  scope: ReadScope = {},
): Promise<RunRecord> {
  const checked: RunScope = { owner: checkOwner(scope.owner), agent: scope.agent };
  const row = await store.getRun(runId);
  if (row === undefined || !runVisible(row, checked)) throw runNotFound(runId, checked);
  return decodeRun(row);
}

/**
 * The stored conversation `id`, decoded; `undefined` when there is none (or it belongs to another
 * owner than `scope.owner`).
 */
export async function loadConversation(
  store: RunStore,
  id: string,
  scope: Pick<ReadScope, 'owner'> = {},
): Promise<ConversationRecord | undefined> {
  const owner = checkOwner(scope.owner);
  const row = await store.getConversation(id);
  return row === undefined || !conversationVisible(row, { owner })
    ? undefined
    : decodeConversation(row);
}

/**
 * Stored runs matching `filter`, newest first, decoded. `listRuns(store, { status: ['paused'] })`
 * lists the runs waiting for decisions, each with its `pending` calls; `{ owner }` lists one
 * owner's runs only.
 */
export async function listRuns(store: RunStore, filter: RunFilter = {}): Promise<RunRecord[]> {
  const owner = checkOwner(filter.owner);
  const rows = await store.listRuns(filter);
  // A store adapter written before owners existed ignores the filter: golem applies it anyway.
  return (owner === undefined ? rows : rows.filter((row) => row.owner === owner)).map(decodeRun);
}
