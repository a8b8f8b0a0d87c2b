import { count } from './format';
import { href } from './router';
import { StatusBadge } from './StatusBadge';
import { Timeline } from './Timeline';
import { useRun } from './use-run';

function Side({ id, label, testId }: { id: string; label: string; testId: string }) {
  const run = useRun(id);
  const detail = run.data;
  return (
    <div className="compare-side" data-testid={testId} data-run-id={id}>
      <header className="compare-head">
        <span className="label">{label}</span>
        <a className="mono" href={href('runs', id)} title={id}>
          {id}
        </a>
        {detail !== undefined && (
          <>
            <StatusBadge status={detail.summary.status} testId="run-status" />
            <span className="muted small">
              {detail.timeline.length} turn{detail.timeline.length === 1 ? '' : 's'} ·{' '}
              {count(detail.summary.usage.inputTokens)} / {count(detail.summary.usage.outputTokens)}{' '}
              tokens
            </span>
          </>
        )}
      </header>
      {detail === undefined ? (
        <p className="empty">{run.error ?? 'Loading…'}</p>
      ) : (
        <>
          {detail.summary.error !== undefined && (
            <div className="failure small">
              <strong>Failed at {detail.summary.error.stage}</strong>:{' '}
              {detail.summary.error.message}
            </div>
          )}
          <Timeline turns={detail.timeline} />
        </>
      )}
    </div>
  );
}

/** `#/compare/:a/:b`: two runs' timelines side by side (live). */
export function ComparePage({ left, right }: { left: string; right: string }) {
  return (
    <section className="page wide">
      <header className="page-head">
        <h1>Compare</h1>
      </header>
      <div className="compare">
        <Side id={left} label="original" testId="compare-left" />
        <Side id={right} label="replay" testId="compare-right" />
      </div>
    </section>
  );
}
