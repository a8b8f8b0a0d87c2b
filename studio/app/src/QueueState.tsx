import type { StudioQueueState } from '../../../src/studio/api-types';

const TONE: Readonly<Record<string, string>> = {
  queued: 'info',
  running: 'info',
  paused: 'warn',
  completed: 'ok',
  failed: 'danger',
  cancelled: 'danger',
};

/**
 * Where a run is on the studio's queue (golem/queue): its state as a tag, the job carrying its
 * latest segment (lane · id · state), and why it was cancelled.
 */
export function QueueState({ queue }: { queue: StudioQueueState }) {
  const { job } = queue;
  return (
    <span className="queue-state" data-testid="queue-state" data-state={queue.state}>
      <span className={`tag ${TONE[queue.state] ?? ''}`} title="state on the run queue">
        queue: {queue.state}
      </span>
      {job !== undefined && (
        <span className="mono muted small" data-testid="queue-job" title="the queue's job">
          {job.lane} · {job.id}
          {job.state !== undefined && ` · ${job.state}`}
        </span>
      )}
      {queue.cancelReason !== undefined && (
        <span className="muted small" data-testid="queue-cancel-reason">
          {' '}
          — {queue.cancelReason}
        </span>
      )}
    </span>
  );
}
