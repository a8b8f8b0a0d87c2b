import type { StudioToolCall } from '../../../src/studio/api-types';

function state(call: StudioToolCall): { label: string; tone: string } {
  if (call.pending === true) return { label: 'waiting', tone: 'warn' };
  if (call.inFlight === true) return { label: 'in flight', tone: 'info' };
  if (call.isError === true) return { label: 'error', tone: 'danger' };
  if (call.result !== undefined) return { label: 'done', tone: 'ok' };
  return { label: 'no result', tone: 'muted' };
}

/** One tool call: its name, pretty arguments and result (errors in red). */
export function ToolCard({ call }: { call: StudioToolCall }) {
  const { label, tone } = state(call);
  return (
    <div
      className={`tool-card${call.isError === true ? ' is-error' : ''}`}
      data-testid="tool-card"
      data-call-id={call.id}
    >
      <div className="tool-head">
        <span className="tool-name mono">{call.name}</span>
        <span className={`tag ${tone}`}>{label}</span>
        <span className="mono muted small grow-right" title="call id">
          {call.id}
        </span>
      </div>
      <div className="tool-body">
        <div>
          <div className="label">arguments</div>
          <pre className="code" data-testid="tool-args">
            {call.args}
          </pre>
        </div>
        {call.result !== undefined && (
          <div>
            <div className="label">{call.isError === true ? 'error' : 'result'}</div>
            <pre className="code result" data-testid="tool-result">
              {call.result}
            </pre>
          </div>
        )}
      </div>
    </div>
  );
}
