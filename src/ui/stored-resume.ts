import type { RunStore } from '../core/durable/port';
import { loadRun } from '../core/durable/queries';
import type { RunRecord } from '../core/durable/records';
import { StoreError } from '../core/durable/store-error';
import { show } from './ui-message-parts';
import { UIMessageError } from './ui-message-error';

/** Whose stored run a chat request may resume: the route's agent and the request's owner. */
export interface ResumeScope {
  agent: string | undefined;
  owner: string | undefined;
}

/** The stored run a chat request's decisions are for. */
export interface StoredDecisions {
  runId: string;
  /** Where the run id is in the request (`messages[3].metadata.runId`). */
  runIdPath: string;
  /** Where the decisions are (`messages[3]`). */
  messagePath: string;
  /** The call ids the client decided or answered. */
  callIds: readonly string[];
}

/**
 * Refuses, before anything runs, decisions for a stored run the route cannot resume: a run that
 * does not exist, or belongs to another owner or agent, is one and the same HTTP 404 (the text
 * never tells whether the id exists, nor quotes it); a run of this owner that no longer waits
 * for a decision (already resumed, or running) is HTTP 409; a decision for a call the run is not
 * waiting on is HTTP 400. Any other store failure is left to the resume itself, which reports it
 * on the stream. Internal.
 */
export async function checkStoredResume(
  store: RunStore,
  decisions: StoredDecisions,
  scope: ResumeScope,
): Promise<void> {
  let record: RunRecord;
  try {
    const scoped: { agent?: string; owner?: string } = {};
    if (scope.agent !== undefined) scoped.agent = scope.agent;
    if (scope.owner !== undefined) scoped.owner = scope.owner;
    record = await loadRun(store, decisions.runId, scoped);
  } catch (error) {
    if (StoreError.is(error) && error.reason === 'not-found')
      throw new UIMessageError(decisions.runIdPath, 'no paused run of this chat has this id', 404);
    return;
  }
  if (record.status !== 'paused' || record.pending === undefined)
    throw new UIMessageError(
      decisions.runIdPath,
      `the run is ${record.status}, not waiting for a decision`,
      409,
    );
  const waiting = new Set(
    [...record.pending.approvals, ...record.pending.external].map((call) => call.callId),
  );
  const stranger = decisions.callIds.find((id) => !waiting.has(id));
  if (stranger !== undefined)
    throw new UIMessageError(
      decisions.messagePath,
      `tool call ${show(stranger)} is not a call the run waits on; decisions are taken only for the server's pending calls`,
    );
}
