import type { StudioRunStatus } from '../../../src/studio/api-types';

/** A coloured dot for a run status (running blue, paused amber, completed green, failed red). */
export function StatusDot({ status }: { status: StudioRunStatus }) {
  return <span className={`dot status-${status}`} title={status} aria-label={status} />;
}

/** A run status as a labelled pill. */
export function StatusBadge({ status, testId }: { status: StudioRunStatus; testId?: string }) {
  return (
    <span className={`badge status-${status}`} data-testid={testId} data-status={status}>
      <span className={`dot status-${status}`} />
      {status}
    </span>
  );
}
