import { endPaused, recordUnstarted } from '../core/durable/external-end';
import type { RunStore } from '../core/durable/port';
import type { RunRecord } from '../core/durable/records';
import { decodeRun } from '../core/durable/records';
import type { PendingToolCalls } from '../core/engine/deferred-types';
import type { FeedEntry, RunFeedEvent } from './feed-events';
import { jsonOf } from './feed-events';
import type { JobProducerPort, JobState, RunControlPort, RunFeedPort } from './port';
import { jobIdOf } from './job';
import { QueueError } from './queue-error';
import type { OwnerScope } from './run-access';
import { unknownRun, visibleTo } from './run-access';

/** Where a queued run is. `queued`: accepted, not started by a worker yet. */
export type QueuedRunState = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

/** What `queue.status(runId)` reports. */
export interface RunStatusReport {
  readonly runId: string;
  readonly state: QueuedRunState;
  /** The stored run (absent while it waits for its first worker). */
  readonly record: RunRecord | undefined;
  /** The job carrying the run's latest segment, while BullMQ keeps it. */
  readonly job:
    | { readonly lane: string; readonly id: string; readonly state: JobState | undefined }
    | undefined;
  /** Why it was cancelled, when it was. */
  readonly cancelReason: string | undefined;
}

/** How a run settled, read from the store. */
export type RunOutcome =
  | {
      readonly runId: string;
      readonly status: 'completed';
      readonly output: unknown;
      readonly record: RunRecord;
    }
  | {
      readonly runId: string;
      readonly status: 'paused';
      readonly pending: PendingToolCalls;
      readonly record: RunRecord;
    }
  | {
      readonly runId: string;
      readonly status: 'failed';
      readonly error: { readonly stage: string; readonly message: string };
      readonly record: RunRecord;
    }
  | {
      readonly runId: string;
      readonly status: 'cancelled';
      readonly reason: string;
      readonly record: RunRecord | undefined;
    };

/** Options of `queue.cancel`: why (recorded with the run), and who asks. */
export interface CancelOptions extends OwnerScope {
  /** Recorded as the run's failure (`cancelled: <reason>`); default `cancelled by request`. */
  reason?: string;
}

/** What `queue.cancel` did: withdrew a queued job, signalled the worker running it, ended a paused run, or found it finished. */
export type CancelResult = 'withdrawn' | 'signalled' | 'ended' | 'finished';

/** The stored run, or `not-found` (also when `owner` names another owner than the run's). */
export async function storedRecord(
  store: RunStore,
  runId: string,
  owner?: string,
): Promise<RunRecord> {
  const row = await store.getRun(runId);
  if (row === undefined || !visibleTo(owner, row, undefined))
    throw new QueueError(
      `no stored run has the id "${runId}" (a queued run is stored when a worker starts it)`,
      {
        reason: 'not-found',
        runId,
      },
    );
  return decodeRun(row);
}

const LIVE_JOB: ReadonlySet<string | undefined> = new Set(['waiting', 'delayed', 'active']);

/**
 * The run's state from the store, its job and its cancellation marker; `not-found` for a run
 * neither knows, or one `owner` may not see.
 */
export async function runStatus(
  store: RunStore,
  control: RunControlPort,
  producer: JobProducerPort,
  runId: string,
  owner?: string,
): Promise<RunStatusReport> {
  const [info, cancelReason] = await Promise.all([
    control.runInfo(runId),
    control.cancelReason(runId),
  ]);
  // The job's state is read before the store's record, never after: a segment that settles in
  // between then shows as a live job beside a newer record (its completion, see `segmentPending`),
  // not as a finished job beside the record it has since replaced.
  const job =
    info === undefined
      ? undefined
      : { lane: info.lane, id: info.jobId, state: await producer.state(info.lane, info.jobId) };
  const row = await store.getRun(runId);
  const record = row === undefined ? undefined : decodeRun(row);
  if (!visibleTo(owner, record, info)) throw unknownRun(runId);
  if (record === undefined) {
    if (job === undefined || !LIVE_JOB.has(job.state)) throw unknownRun(runId);
    return { runId, state: 'queued', record, job, cancelReason };
  }
  const state =
    record.status === 'failed' && cancelReason !== undefined ? 'cancelled' : record.status;
  return { runId, state, record, job, cancelReason };
}

/**
 * Whether the run's latest segment is still to come or under way, so its ending is not read yet:
 * its job waits, is delayed or runs, and the store shows the run running, or shows it settled at
 * the very version that job was queued on (`decide` or `recover` queued it; no worker took it
 * yet). A settled store at a newer version with the job still `active` is that job completing.
 * Internal.
 */
export function segmentPending(report: RunStatusReport): boolean {
  const { job, record, runId } = report;
  if (job === undefined || !LIVE_JOB.has(job.state)) return false;
  if (record === undefined || record.status === 'running') return true;
  return (
    job.id === jobIdOf('resume', runId, record.version) ||
    job.id === jobIdOf('continue', runId, record.version)
  );
}

/** The outcome of a settled run; `invalid-state` while it is still queued or running. */
export function runOutcome(report: RunStatusReport): RunOutcome {
  const { runId, record } = report;
  if (report.state === 'cancelled')
    return { runId, status: 'cancelled', reason: report.cancelReason ?? '', record };
  if (record?.status === 'completed')
    return { runId, status: 'completed', output: record.output, record };
  if (record?.status === 'paused' && record.pending !== undefined)
    return { runId, status: 'paused', pending: record.pending, record };
  if (record?.status === 'failed')
    return {
      runId,
      status: 'failed',
      error: record.error ?? { stage: 'unknown', message: '' },
      record,
    };
  throw new QueueError(`run "${runId}" has not settled: it is ${report.state}`, {
    reason: 'invalid-state',
    runId,
  });
}

/** How a settled run ended, as a feed event (for a subscriber that finds no feed). */
function endingEvent(
  record: RunRecord,
  cancelReason: string | undefined,
): RunFeedEvent | undefined {
  const at = record.updatedAt;
  switch (record.status) {
    case 'completed':
      return {
        type: 'completed',
        output: jsonOf(record.output),
        usage: record.usage,
        requests: record.requests,
        toolCalls: record.toolCalls,
        at,
      };
    case 'paused':
      return record.pending === undefined
        ? undefined
        : { type: 'paused', pending: record.pending, at };
    case 'failed':
      if (cancelReason !== undefined) return { type: 'cancelled', reason: cancelReason, at };
      return {
        type: 'failed',
        error: {
          stage: record.error?.stage ?? 'unknown',
          kind: 'stored',
          message: record.error?.message ?? '',
        },
        at,
      };
    default:
      return undefined;
  }
}

/** The run's ending from the store when its feed is gone; `undefined` while it still runs or waits. */
export async function storedEnding(
  store: RunStore,
  control: RunControlPort,
  producer: JobProducerPort,
  runId: string,
  after: string | undefined,
  owner?: string,
): Promise<FeedEntry | undefined> {
  const report = await runStatus(store, control, producer, runId, owner);
  const event =
    report.record === undefined ? undefined : endingEvent(report.record, report.cancelReason);
  return event === undefined ? undefined : { cursor: after ?? '0-0/0', seq: 0, event };
}

/** What cancellation needs. */
export interface CancelContext {
  readonly store: RunStore;
  readonly control: RunControlPort;
  readonly producer: JobProducerPort;
  readonly feed: RunFeedPort;
  readonly now: () => number;
}

/** Cancels a run wherever it is (see `RunQueue.cancel`); `owner` limits it to that owner's runs. */
export async function cancelRun(
  c: CancelContext,
  runId: string,
  reason: string,
  owner?: string,
): Promise<CancelResult> {
  const message = `cancelled: ${reason}`;
  const info = await c.control.runInfo(runId);
  const before = await c.store.getRun(runId);
  if ((before === undefined && info === undefined) || !visibleTo(owner, before, info))
    throw unknownRun(runId);
  if (before?.status === 'completed' || before?.status === 'failed') return 'finished';
  // Marked first: a worker that takes the job from now on sees it; one running it is told.
  await c.control.requestCancel(runId, reason);
  const ended = async (): Promise<void> => {
    await c.feed.append(runId, [{ type: 'cancelled', reason, at: c.now() }]);
  };
  if (info !== undefined && (await c.producer.withdraw(info.lane, info.jobId))) {
    const row = await c.store.getRun(runId);
    if (row === undefined)
      await recordUnstarted(c.store, {
        runId,
        agent: info.agent,
        owner: info.owner,
        stage: 'queue',
        message,
      });
    else if (row.status === 'paused') await endPaused(c.store, runId, { stage: 'queue', message });
    await ended();
    return 'withdrawn';
  }
  const row = await c.store.getRun(runId);
  if (row?.status === 'paused' && (await endPaused(c.store, runId, { stage: 'queue', message }))) {
    await ended();
    return 'ended';
  }
  return 'signalled';
}
