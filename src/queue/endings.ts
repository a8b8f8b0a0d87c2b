import { endPaused, recordUnstarted } from '../core/durable/external-end';
import type { RunStore } from '../core/durable/port';
import type { RunRecord } from '../core/durable/records';
import { decodeRun } from '../core/durable/records';
import { StoreError } from '../core/durable/store-error';
import { RunError, RunInputError } from '../core/engine/errors';
import { ConfigError } from '../core/kit/config-error';
import { describeError } from '../core/kit/error-base';
import { isRecord } from '../core/kit/guards';
import type { ActiveRun } from './active-runs';
import type { FeedFailure } from './feed-events';
import type { RunJob } from './job';
import { isOwner, isRunId } from './job';
import type { FeedPublisher } from './feed-publisher';
import type { JobDelivery, JobOutcome } from './port';
import { QueueError } from './queue-error';

/** What recording a run's ending needs of a worker (its executor is one). Internal. */
export interface EndingContext {
  readonly store: RunStore;
  readonly feed: FeedPublisher;
  readonly now: () => number;
}

/** An error as the feed reports it. */
export function describeFailure(error: unknown): FeedFailure {
  if (RunError.is(error)) return { stage: error.stage, kind: 'RunError', message: error.message };
  if (StoreError.is(error))
    return { stage: 'store', kind: 'StoreError', reason: error.reason, message: error.message };
  if (QueueError.is(error))
    return { stage: 'queue', kind: 'QueueError', reason: error.reason, message: error.message };
  const kind = error instanceof Error ? error.name : 'Error';
  return { stage: 'queue', kind, message: describeError(error) };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(describeError(error));
}

/**
 * A job rejected before its run could start (a payload that does not decode, an unknown agent,
 * a deadline passed in the queue): the run, when the payload names one (else `jobRunId`, the one
 * its job id names), is stored as `failed` at the stage `queue` (unless it exists), subscribers
 * get `failed`, and the job fails for good with the error's message as its reason.
 */
export async function rejectPayload(
  x: EndingContext,
  error: unknown,
  data: unknown,
  jobRunId?: string,
): Promise<JobOutcome> {
  const payload = isRecord(data) ? data : {};
  const runId = isRunId(payload.runId) ? payload.runId : jobRunId;
  if (runId !== undefined) {
    const tooLarge = QueueError.isReason(error, 'too-large');
    try {
      await recordUnstarted(x.store, {
        runId,
        agent: typeof payload.agent === 'string' ? payload.agent.slice(0, 200) : '(unknown)',
        conversationId: isRunId(payload.conversation) ? payload.conversation : undefined,
        owner: payload.kind === 'start' && isOwner(payload.owner) ? payload.owner : undefined,
        prompt: typeof payload.prompt === 'string' && !tooLarge ? payload.prompt : undefined,
        stage: 'queue',
        message: describeError(error),
      });
    } catch (storeError) {
      if (StoreError.is(storeError) && storeError.retryable)
        return { type: 'fail', error: storeError, retry: true };
    }
    await x.feed.end(runId, { type: 'failed', error: describeFailure(error), at: x.now() });
  }
  return { type: 'fail', error: asError(error), retry: false };
}

/** Ends a cancelled run in the store (kept as evidence), tells subscribers, fails the job. */
export async function endCancelled(
  x: EndingContext,
  job: RunJob,
  record: RunRecord | undefined,
  reason: string,
): Promise<JobOutcome> {
  const message = `cancelled: ${reason}`;
  try {
    if (record?.status === 'paused')
      await endPaused(x.store, job.runId, { stage: 'queue', message });
    else
      await recordUnstarted(x.store, {
        runId: job.runId,
        agent: job.agent,
        conversationId: job.conversation,
        owner: job.kind === 'start' ? job.owner : undefined,
        prompt: job.prompt,
        stage: 'queue',
        message,
      });
  } catch (error) {
    if (StoreError.is(error) && error.retryable) return { type: 'fail', error, retry: true };
  }
  await x.feed.end(job.runId, { type: 'cancelled', reason, at: x.now() });
  const error = new QueueError(`run "${job.runId}" was cancelled: ${reason}`, {
    reason: 'cancelled',
    runId: job.runId,
  });
  return { type: 'fail', error, retry: false };
}

/** The agent refused the decisions: the run stays paused (subscribers are told so again). */
async function refusedDecision(
  x: EndingContext,
  job: RunJob,
  error: RunInputError,
): Promise<JobOutcome> {
  const row = await x.store.getRun(job.runId).catch(() => undefined);
  const record = row === undefined ? undefined : decodeRun(row);
  if (record?.status === 'paused' && record.pending !== undefined)
    await x.feed.end(job.runId, { type: 'paused', pending: record.pending, at: x.now() });
  const refused = new QueueError(
    `the decisions for run "${job.runId}" were refused, the run stays paused: ${error.message}`,
    { reason: 'invalid-decision', runId: job.runId, cause: error },
  );
  return { type: 'fail', error: refused, retry: false };
}

async function leaseExpiry(x: EndingContext, runId: string): Promise<number | undefined> {
  const row = await x.store.getRun(runId).catch(() => undefined);
  if (row === undefined) return undefined;
  const record = decodeRun(row);
  const expires = record.lease?.expiresAt;
  return record.status === 'running' && expires !== undefined && expires > x.store.now()
    ? expires
    : undefined;
}

/** A failure that retrying later may fix: retried (from the checkpoint) while attempts remain. */
async function retryLater(
  x: EndingContext,
  job: RunJob,
  delivery: JobDelivery,
  error: unknown,
): Promise<JobOutcome> {
  const failure = describeFailure(error);
  const at = x.now();
  await x.feed.end(
    job.runId,
    delivery.attempt < delivery.attempts
      ? { type: 'retrying', error: failure, attempt: delivery.attempt, at }
      : { type: 'failed', error: failure, at },
  );
  return { type: 'fail', error: asError(error), retry: true };
}

/**
 * What a failed execution becomes. The run's own failures (`RunError`: its stages already spent
 * their retry budgets) fail the job for good; a store that could not be reached is retried from
 * the checkpoint; a lease held elsewhere or a conversation busy with a running run waits; a
 * cancellation ends the run; a shutdown hands it to another worker.
 */
export async function failureOutcome(
  x: EndingContext,
  job: RunJob,
  delivery: JobDelivery,
  error: unknown,
  run: ActiveRun | undefined,
): Promise<JobOutcome> {
  if (run?.cancelled !== undefined) return endCancelled(x, job, undefined, run.cancelled);
  if (run?.handedOver === true) {
    x.feed.push(job.runId, { type: 'requeued', reason: 'worker shut down', at: x.now() });
    return { type: 'later', at: x.now(), handover: true };
  }
  if (RunError.is(error)) {
    await x.feed.end(job.runId, { type: 'failed', error: describeFailure(error), at: x.now() });
    return { type: 'fail', error, retry: false };
  }
  if (StoreError.isReason(error, 'conflict')) {
    if (error.conversationId !== undefined && error.runId !== job.runId) {
      const other = error.runId === undefined ? undefined : await x.store.getRun(error.runId);
      if (other?.status === 'running') {
        const wait = Math.min(5_000, Math.max(100, Math.floor(x.store.leaseMs / 10)));
        const reason = `waiting for run "${other.id}" on conversation "${error.conversationId}"`;
        x.feed.push(job.runId, { type: 'requeued', reason, at: x.now() });
        return { type: 'later', at: x.now() + wait, handover: false };
      }
      return rejectPayload(x, error, job);
    }
    const expires = await leaseExpiry(x, job.runId);
    if (expires !== undefined) return { type: 'later', at: expires + 1, handover: false };
    return retryLater(x, job, delivery, error);
  }
  // A start refused by the store (a conversation of another owner): stored as failed, so its
  // owner finds it.
  if (job.kind === 'start' && StoreError.isReason(error, 'not-found'))
    return rejectPayload(x, error, job);
  if (StoreError.is(error) && !error.retryable) {
    await x.feed.end(job.runId, { type: 'failed', error: describeFailure(error), at: x.now() });
    return { type: 'fail', error, retry: false };
  }
  if (job.kind === 'resume' && RunInputError.is(error)) return refusedDecision(x, job, error);
  if (RunInputError.is(error) || ConfigError.is(error, 'agent') || QueueError.is(error))
    return rejectPayload(x, error, job);
  return retryLater(x, job, delivery, error);
}
