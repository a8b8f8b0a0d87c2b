import { useState } from 'react';
import { GuardrailPanel } from './GuardrailPanel';
import { PendingPanel } from './PendingPanel';
import { ReplayDialog } from './ReplayDialog';
import { RunHeader } from './RunHeader';
import { SpanWaterfall } from './SpanWaterfall';
import { Timeline } from './Timeline';
import { useRun } from './use-run';

/**
 * `#/runs/:id`: a run's header (with its queue state and Cancel when the studio has a run queue),
 * pending calls, timeline with checkpoints, and spans.
 */
export function RunPage({ id }: { id: string }) {
  const run = useRun(id);
  const [replayFrom, setReplayFrom] = useState<number | undefined>(undefined);
  const detail = run.data;
  if (detail === undefined)
    return (
      <section className="page">
        <a href="#/runs" className="muted small">
          ← Runs
        </a>
        <p className="empty">{run.error ?? 'Loading…'}</p>
      </section>
    );
  const pendingKey = detail.pending.map((call) => call.callId).join(',');
  return (
    <section className="page" data-testid="run-page" data-run-id={id}>
      <a href="#/runs" className="muted small">
        ← Runs
      </a>
      <RunHeader detail={detail} />
      {detail.pending.length > 0 && (
        <PendingPanel
          key={pendingKey}
          runId={id}
          pending={detail.pending}
          canDecide={detail.actions.decide}
          queued={detail.queue !== undefined}
        />
      )}
      <section className="panel">
        <header className="panel-head">
          <h2>Timeline</h2>
          <span className="muted small">
            {detail.timeline.length} turn{detail.timeline.length === 1 ? '' : 's'}
          </span>
        </header>
        <Timeline
          turns={detail.timeline}
          checkpoints={detail.checkpoints}
          onReplay={detail.actions.replay ? setReplayFrom : undefined}
        />
      </section>
      <GuardrailPanel verdicts={detail.guardrails} />
      <SpanWaterfall spans={detail.spans} />
      {replayFrom !== undefined && (
        <ReplayDialog
          runId={id}
          fromTurn={replayFrom}
          turns={detail.timeline}
          onClose={() => {
            setReplayFrom(undefined);
          }}
        />
      )}
    </section>
  );
}
