import { getToolName, type DynamicToolUIPart, type ToolUIPart } from 'ai';

/** A tool part of an assistant message: static (`tool-<name>`) or dynamic. */
export type ToolPart = ToolUIPart | DynamicToolUIPart;

/** What the user decided about a call awaiting approval. */
export interface ApprovalDecision {
  id: string;
  approved: boolean;
  reason?: string;
}

const STATE_LABELS: Record<ToolPart['state'], string> = {
  'input-streaming': 'receiving input…',
  'input-available': 'running…',
  'approval-requested': 'needs your approval',
  'approval-responded': 'decision sent…',
  'output-available': 'done',
  'output-error': 'failed',
  'output-denied': 'denied',
};

/**
 * A value as people read it: JSON (golem's tool results are text, often JSON) pretty-printed,
 * any other text as it is.
 */
function show(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'object' && parsed !== null) return JSON.stringify(parsed, null, 2);
  } catch {
    // Not JSON: plain text.
  }
  return value;
}

/**
 * One tool call as it runs: its input while it streams, then its output (or error), and an
 * Approve / Deny pair while golem holds the call for a human decision.
 */
export function ToolCall({
  part,
  onDecision,
}: {
  part: ToolPart;
  onDecision: (decision: ApprovalDecision) => void;
}) {
  const name = getToolName(part);
  return (
    <div className={`tool tool-${part.state}`} data-testid={`tool-${name}`} data-state={part.state}>
      <div className="tool-head">
        <span className="tool-name">{name}</span>
        <span className="tool-state">
          {part.approval?.approved === true ? 'approved, ' : ''}
          {STATE_LABELS[part.state]}
        </span>
      </div>
      {part.input !== undefined && <pre className="tool-input">{show(part.input)}</pre>}
      {part.state === 'output-available' && (
        <pre className="tool-output" data-testid={`tool-output-${name}`}>
          {show(part.output)}
        </pre>
      )}
      {part.state === 'output-error' && <pre className="tool-error">{part.errorText}</pre>}
      {part.state === 'approval-requested' && (
        <div className="approval">
          <button
            type="button"
            className="approve"
            onClick={() => onDecision({ id: part.approval.id, approved: true })}
          >
            Approve
          </button>
          <button
            type="button"
            className="deny"
            onClick={() =>
              onDecision({ id: part.approval.id, approved: false, reason: 'Denied in the chat UI' })
            }
          >
            Deny
          </button>
        </div>
      )}
    </div>
  );
}
