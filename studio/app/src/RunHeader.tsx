import { useState, type ReactNode } from 'react';
import type { RunDetail, StartedRun, StudioCost } from '../../../src/studio/api-types';
import { request } from './api';
import { CancelRunButton } from './CancelRunButton';
import { count, dateTime, prettyJson, relativeTime } from './format';
import { QueueState } from './QueueState';
import { StatusBadge } from './StatusBadge';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A price: `0.0042 USD` (two decimals from 1 on, else three significant digits). */
function price(cost: StudioCost): string {
  const { total } = cost;
  const amount = total >= 1 ? total.toFixed(2) : String(Number(total.toPrecision(3)));
  return `${amount} ${cost.currency}`;
}

/**
 * A run's header: status (and its place on the queue, when the studio has one), facts, usage and
 * cost, the failure, the output, and Resume and Cancel when allowed.
 */
export function RunHeader({ detail }: { detail: RunDetail }) {
  const run = detail.summary;
  const [resuming, setResuming] = useState(false);
  const resume = (): void => {
    setResuming(true);
    request<StartedRun>(`api/runs/${encodeURIComponent(run.id)}/resume`, { method: 'POST' }).then(
      () => {
        setResuming(false);
      },
      () => {
        setResuming(false);
      },
    );
  };
  return (
    <header className="run-head">
      <div className="row">
        <StatusBadge status={run.status} testId="run-status" />
        <h1 className="mono run-id" title={run.id}>
          {run.id}
        </h1>
        {run.held && <span className="tag info">held by a live process</span>}
        {detail.queue !== undefined && <QueueState queue={detail.queue} />}
        <span className="grow-right" />
        {detail.actions.cancel && <CancelRunButton key={run.id} runId={run.id} />}
        {detail.actions.resume && (
          <button
            type="button"
            className="primary"
            data-testid="resume-run"
            disabled={resuming}
            onClick={resume}
          >
            {resuming ? 'Resuming…' : 'Resume'}
          </button>
        )}
      </div>
      <dl className="facts">
        <Fact label="agent">{run.agent}</Fact>
        <Fact label="owner">
          <span className="mono">{run.owner ?? '—'}</span>
        </Fact>
        <Fact label="conversation">
          <span className="mono">{run.conversationId ?? '—'}</span>
        </Fact>
        <Fact label="created">
          <span title={dateTime(run.createdAt)}>{relativeTime(run.createdAt)}</span>
        </Fact>
        <Fact label="updated">
          <span title={dateTime(run.updatedAt)}>{relativeTime(run.updatedAt)}</span>
        </Fact>
        <Fact label="turns · requests · tools">
          {run.turns} · {run.requests} · {run.toolCalls}
        </Fact>
        <Fact label="tokens in / out">
          <span className="mono" data-testid="run-usage">
            {count(run.usage.inputTokens)} / {count(run.usage.outputTokens)}
            {run.usage.cacheReadTokens !== undefined &&
              run.usage.cacheReadTokens > 0 &&
              ` · ${count(run.usage.cacheReadTokens)} cached`}
            {run.usage.reasoningTokens !== undefined &&
              run.usage.reasoningTokens > 0 &&
              ` · ${count(run.usage.reasoningTokens)} reasoning`}
          </span>
        </Fact>
        {run.cost !== undefined && (
          <Fact label="cost">
            <span className="mono" data-testid="run-cost">
              {price(run.cost)}
            </span>
          </Fact>
        )}
        <Fact label="version">
          <span className="mono">{run.version}</span>
        </Fact>
      </dl>
      {run.error !== undefined && (
        <div className="failure" data-testid="run-error">
          <strong>Failed at {run.error.stage}</strong>
          <div className="pre">{run.error.message}</div>
          {detail.inFlight.length > 0 && (
            <div className="small">
              Calls in flight at the last checkpoint:{' '}
              {detail.inFlight.map((id) => (
                <code key={id}>{id} </code>
              ))}
            </div>
          )}
        </div>
      )}
      {detail.output !== undefined && (
        <details className="output" open>
          <summary>output</summary>
          <pre className="code" data-testid="run-output">
            {prettyJson(detail.output)}
          </pre>
        </details>
      )}
    </header>
  );
}
