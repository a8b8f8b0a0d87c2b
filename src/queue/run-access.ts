import { isOwner } from './job';
import type { RunInfo } from './port';
import { QueueError } from './queue-error';

/**
 * Who a producer call speaks for. With `owner`, the call sees only the runs enqueued with exactly
 * that owner: any other run — another owner's, or one without an owner — is reported exactly as a
 * run that does not exist (the same `not-found`, so a refusal never tells that the id is used).
 * Without it, the call is unscoped (an operator's).
 */
export interface OwnerScope {
  /** The owner (a tenant or user key) the request speaks for, e.g. the authenticated user's id. */
  owner?: string;
}

/** A valid `owner` option, or undefined; `invalid-input` otherwise. Internal. */
export function checkedOwner(owner: unknown): string | undefined {
  if (owner === undefined) return undefined;
  if (!isOwner(owner))
    throw new QueueError(
      'owner must be a string of 1–200 characters without control characters (a tenant or user key)',
      { reason: 'invalid-input' },
    );
  return owner;
}

/**
 * Whether a call for `owner` may see the run: its stored owner when it is stored, else the owner
 * it was enqueued with (kept with its info in Redis). Internal.
 */
export function visibleTo(
  owner: string | undefined,
  stored: { readonly owner?: string | null | undefined } | undefined,
  info: RunInfo | undefined,
): boolean {
  if (owner === undefined) return true;
  if (stored !== undefined) return stored.owner === owner;
  return info?.owner === owner;
}

/** The `not-found` of a run the store and the queue do not know (or that `owner` may not see). */
export function unknownRun(runId: string): QueueError {
  return new QueueError(`no run has the id "${runId}" in the store or the queue`, {
    reason: 'not-found',
    runId,
  });
}
