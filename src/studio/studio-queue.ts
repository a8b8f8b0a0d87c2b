import { hasKind } from '../core/index';
import type { StudioQueueState } from './api-types';
import type { StudioQueue } from './studio-options';

/** Job states of a segment still to run or under way. */
const LIVE_JOB: ReadonlySet<string | undefined> = new Set(['waiting', 'delayed', 'active']);

/** The `reason` of a golem/queue `QueueError`, or undefined for any other error. */
export function queueReason(error: unknown): string | undefined {
  if (!hasKind(error, 'QueueError')) return undefined;
  const reason = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : undefined;
}

/**
 * Where run `runId` is on `queue` (`status`, scoped to `owner`), or undefined when the queue does
 * not know it: `not-found` (another owner's, or unknown), or a stored run it has no job for and
 * never cancelled (one that ran outside the queue). Other failures propagate.
 */
export async function queueStateOf(
  queue: StudioQueue,
  runId: string,
  owner: string | undefined,
): Promise<StudioQueueState | undefined> {
  let report;
  try {
    report = await queue.status(runId, owner === undefined ? {} : { owner });
  } catch (error) {
    if (queueReason(error) === 'not-found') return undefined;
    throw error;
  }
  const { job } = report;
  if (job === undefined && report.cancelReason === undefined) return undefined;
  return {
    state: report.state,
    ...(job !== undefined && {
      job: {
        lane: job.lane,
        id: job.id,
        ...(job.state !== undefined && { state: job.state }),
      },
    }),
    ...(report.cancelReason !== undefined && { cancelReason: report.cancelReason }),
  };
}

/**
 * Whether a cancel can still stop the run: the queue carries it (it has a job) and it is queued or
 * running, or paused with its decision queued (the resume's job waits or runs).
 */
export function cancellable(state: StudioQueueState | undefined): boolean {
  if (state?.job === undefined) return false;
  if (state.state === 'queued' || state.state === 'running') return true;
  return state.state === 'paused' && LIVE_JOB.has(state.job.state);
}

/**
 * The HTTP answer of a queue refusal (`not-found` 404, `invalid-state`/`conflict` 409,
 * `invalid-decision`/`invalid-input` 400) with the queue's message (run ids and reasons, never
 * secrets), or undefined for any other failure (an internal error).
 */
export function queueRefusal(error: unknown): { status: number; message: string } | undefined {
  const reason = queueReason(error);
  const message = error instanceof Error ? error.message : '';
  switch (reason) {
    case 'not-found':
      return { status: 404, message: 'run not found' };
    case 'invalid-state':
    case 'conflict':
      return { status: 409, message };
    case 'invalid-decision':
    case 'invalid-input':
      return { status: 400, message };
    default:
      return undefined;
  }
}
