import { RunInputError } from '../engine/errors';
import type { StoredConversation, StoredRun } from './records';
import { quote, StoreError } from './store-error';

/**
 * Who asks for a stored run: the agent resuming it and the owner (tenant or user key) the request
 * speaks for. An absent field does not restrict: no `owner` is an operator's unscoped access.
 */
export interface RunScope {
  /** The name of the agent that would resume the run; a run stored by another agent is refused. */
  readonly agent?: string | undefined;
  /** Only a run or conversation stored with exactly this owner is visible. */
  readonly owner?: string | undefined;
}

/** Owners are keys, not text: 1–200 characters, none of them a control character. */
const OWNER = /^[^\p{Cc}]{1,200}$/u;

/** Validates an `owner` option: `undefined`, or a non-empty key without control characters. */
export function checkOwner(owner: unknown): string | undefined {
  if (owner === undefined) return undefined;
  if (typeof owner !== 'string' || !OWNER.test(owner))
    throw new RunInputError(
      'owner must be a string of 1–200 characters without control characters (a tenant or user key)',
    );
  return owner;
}

/** Whether `scope` may see `row`: the same owner when it names one, and the same agent. */
export function runVisible(row: StoredRun, scope: RunScope): boolean {
  if (scope.agent !== undefined && row.agent !== scope.agent) return false;
  return scope.owner === undefined || row.owner === scope.owner;
}

/** Whether `scope` may use `conversation` (its owner, when the scope names one). */
export function conversationVisible(conversation: StoredConversation, scope: RunScope): boolean {
  return scope.owner === undefined || conversation.owner === scope.owner;
}

/**
 * The `not-found` error for `runId` as `scope` sees it. A run of another owner or agent gets
 * exactly this error too, so a refusal never tells that the id exists.
 */
export function runNotFound(runId: string, scope: RunScope = {}): StoreError {
  const of = scope.agent === undefined ? '' : ` of agent ${quote(scope.agent)}`;
  return new StoreError(`no stored run${of} has the id ${quote(runId)}`, {
    reason: 'not-found',
    runId,
  });
}

/**
 * The refusal of a conversation that belongs to another owner. Conversation ids are chosen by the
 * caller (a new id creates the conversation), so the refusal itself says the id is taken: give
 * each owner ids of its own (e.g. random UUIDs, or ids prefixed with the owner).
 */
export function conversationNotFound(conversationId: string): StoreError {
  return new StoreError(
    `no stored conversation with the id ${quote(conversationId)} belongs to this owner; conversation ids are unique across owners, so give each owner ids of its own`,
    { reason: 'not-found', conversationId },
  );
}
