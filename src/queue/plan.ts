import type { RunRecord } from '../core/durable/records';
import type { RunJob } from './job';
import { QueueError } from './queue-error';

/** What a delivery does, given its job and the stored run. Internal. */
export type DeliveryPlan =
  /** Run the agent: start the run, resume it with the job's decisions, or continue it. */
  | { type: 'execute'; mode: 'start' | 'resume' | 'continue' }
  /** Nothing left to do: the run is completed or paused (an earlier delivery got there). */
  | { type: 'settled'; record: RunRecord }
  /** Another process holds the run's lease: come back when it expires. */
  | { type: 'later'; at: number }
  /** The job cannot proceed (the run failed, or the job names a run that is not stored). */
  | { type: 'fail'; error: Error };

/**
 * Decides what a delivery of `job` does from the stored run — the same table for a first
 * delivery, a retry, and a redelivery after a worker died, so every delivery is safe to repeat:
 *
 * | stored run                      | plan                                                     |
 * | ------------------------------- | -------------------------------------------------------- |
 * | none                            | `start` for a start job; `not-found` otherwise           |
 * | running, lease live             | later, when the lease expires                            |
 * | running, lease free or expired  | continue from the last checkpoint (a worker died)        |
 * | paused at the job's version     | resume with the job's decisions                          |
 * | paused otherwise, or completed  | settled: report the stored state                         |
 * | failed                          | continue for a recovery or a handover; else fail with it |
 */
export function planDelivery(
  job: RunJob,
  record: RunRecord | undefined,
  now: number,
): DeliveryPlan {
  if (record === undefined) {
    if (job.kind === 'start') return { type: 'execute', mode: 'start' };
    return {
      type: 'fail',
      error: new QueueError(
        `no stored run has the id "${job.runId}", so it cannot be ${job.kind}d`,
        {
          reason: 'not-found',
          runId: job.runId,
        },
      ),
    };
  }
  switch (record.status) {
    case 'completed':
      return { type: 'settled', record };
    case 'paused':
      return job.kind === 'resume' && job.pausedVersion === record.version
        ? { type: 'execute', mode: 'resume' }
        : { type: 'settled', record };
    case 'running':
      if (record.lease !== undefined && record.lease.expiresAt > now)
        return { type: 'later', at: record.lease.expiresAt + 1 };
      return { type: 'execute', mode: 'continue' };
    case 'failed':
      if (job.kind === 'continue' || job.handover === true)
        return { type: 'execute', mode: 'continue' };
      return {
        type: 'fail',
        error: new Error(
          `run "${record.id}" failed at the ${record.error?.stage ?? 'unknown'} stage: ${record.error?.message ?? ''}`,
        ),
      };
  }
}
