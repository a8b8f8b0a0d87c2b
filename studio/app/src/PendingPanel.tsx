import { useState } from 'react';
import type { DecisionsBody, StartedRun, StudioPendingCall } from '../../../src/studio/api-types';
import { request } from './api';
import { prettyJsonText } from './format';

type Decision =
  | { readonly kind: 'approval'; readonly approved: boolean; readonly reason?: string }
  | { readonly kind: 'external'; readonly result: string };

function body(decisions: ReadonlyMap<string, Decision>): DecisionsBody {
  const approvals: Record<string, { approved: boolean; reason?: string }> = {};
  const external: Record<string, string> = {};
  for (const [callId, decision] of decisions) {
    if (decision.kind === 'approval')
      approvals[callId] =
        decision.reason === undefined
          ? { approved: decision.approved }
          : { approved: decision.approved, reason: decision.reason };
    else external[callId] = decision.result;
  }
  return {
    ...(Object.keys(approvals).length > 0 ? { approvals } : {}),
    ...(Object.keys(external).length > 0 ? { external } : {}),
  };
}

function PendingCall({
  call,
  decision,
  disabled,
  onDecide,
}: {
  call: StudioPendingCall;
  decision: Decision | undefined;
  disabled: boolean;
  onDecide: (decision: Decision) => void;
}) {
  const [reason, setReason] = useState('');
  const [result, setResult] = useState('');
  const id = call.callId;
  const why = reason.trim() === '' ? undefined : reason.trim();
  return (
    <div className="pending-call" data-testid="pending-call" data-call-id={id}>
      <div className="tool-head">
        <span className="tool-name mono">{call.toolName}</span>
        <span className="tag warn">{call.kind === 'approval' ? 'needs approval' : 'external'}</span>
        <span className="mono muted small grow-right">{id}</span>
      </div>
      {call.reason !== '' && <p className="muted small">{call.reason}</p>}
      <pre className="code">{prettyJsonText(call.args)}</pre>
      {call.kind === 'approval' ? (
        <div className="row">
          <input
            className="grow"
            placeholder="reason (optional)"
            aria-label="Reason"
            data-testid={`reason-${id}`}
            value={reason}
            disabled={disabled}
            onChange={(event) => {
              setReason(event.target.value);
            }}
          />
          <button
            type="button"
            className={`primary${decision?.kind === 'approval' && decision.approved ? ' on' : ''}`}
            data-testid={`approve-${id}`}
            disabled={disabled}
            onClick={() => {
              onDecide({ kind: 'approval', approved: true, reason: why });
            }}
          >
            Approve
          </button>
          <button
            type="button"
            className={`danger${decision?.kind === 'approval' && !decision.approved ? ' on' : ''}`}
            data-testid={`deny-${id}`}
            disabled={disabled}
            onClick={() => {
              onDecide({ kind: 'approval', approved: false, reason: why });
            }}
          >
            Deny
          </button>
        </div>
      ) : (
        <div className="col">
          <textarea
            rows={3}
            className="mono"
            placeholder="the call's result"
            aria-label="External result"
            data-testid={`external-${id}`}
            value={result}
            disabled={disabled}
            onChange={(event) => {
              setResult(event.target.value);
            }}
          />
          <div className="row">
            <button
              type="button"
              className={`primary${decision?.kind === 'external' ? ' on' : ''}`}
              data-testid={`submit-${id}`}
              disabled={disabled}
              onClick={() => {
                onDecide({ kind: 'external', result });
              }}
            >
              Submit result
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * A paused run's pending calls. A resume resolves every pending call at once, so decisions are
 * collected and POSTed when the last one is made (at once when there is a single call). With
 * `queued`, the decisions go to a run queue: a worker resumes the run.
 */
export function PendingPanel({
  runId,
  pending,
  canDecide,
  queued = false,
}: {
  runId: string;
  pending: readonly StudioPendingCall[];
  canDecide: boolean;
  queued?: boolean;
}) {
  const [decisions, setDecisions] = useState<ReadonlyMap<string, Decision>>(new Map());
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const disabled = !canDecide || state !== 'idle';
  const decide = (callId: string, decision: Decision): void => {
    const next = new Map(decisions).set(callId, decision);
    setDecisions(next);
    if (!pending.every((call) => next.has(call.callId))) return;
    setState('sending');
    request<StartedRun>(`api/runs/${encodeURIComponent(runId)}/decisions`, {
      method: 'POST',
      body: body(next),
    }).then(
      () => {
        setState('sent');
      },
      () => {
        setState('idle');
        setDecisions(new Map());
      },
    );
  };
  return (
    <section className="panel pending-panel" data-testid="pending-panel">
      <header className="panel-head">
        <h2>Waiting for {pending.length === 1 ? 'a decision' : `${pending.length} decisions`}</h2>
        <span className="muted small" data-testid="decision-state">
          {state === 'sending'
            ? 'sending…'
            : state === 'sent'
              ? queued
                ? 'queued for a worker…'
                : 'resuming…'
              : pending.length > 1
                ? `${decisions.size} of ${pending.length} decided`
                : ''}
        </span>
      </header>
      {pending.map((call) => (
        <PendingCall
          key={call.callId}
          call={call}
          decision={decisions.get(call.callId)}
          disabled={disabled}
          onDecide={(decision) => {
            decide(call.callId, decision);
          }}
        />
      ))}
    </section>
  );
}
