import type { StudioTurn } from '../../../src/studio/api-types';
import { count, duration, money } from './format';
import { ToolCard } from './ToolCard';

/** One model turn: the user text before it, thinking, text and tool calls. */
export function TurnCard({ turn }: { turn: StudioTurn }) {
  return (
    <article className="turn" data-testid="turn" data-turn={turn.index}>
      <header className="turn-head">
        <span className="turn-index">Turn {turn.index}</span>
        <span className="muted small">
          {turn.usage !== undefined &&
            `${count(turn.usage.inputTokens)} in · ${count(turn.usage.outputTokens)} out`}
          {turn.cost !== undefined && ` · ${money(turn.cost)}`}
          {turn.durationMs !== undefined && ` · ${duration(turn.durationMs)}`}
          {turn.attempts !== undefined && turn.attempts > 1 && (
            <span className="tag warn">{turn.attempts} attempts</span>
          )}
        </span>
      </header>
      {turn.prompt !== undefined && (
        <div className="prompt" data-testid="turn-prompt">
          <span className="label">user</span>
          <div className="pre">{turn.prompt}</div>
        </div>
      )}
      {turn.thinking?.map((thought, index) => (
        <details key={index} className="thinking" data-testid="thinking">
          <summary>thinking</summary>
          <div className="pre">{thought}</div>
        </details>
      ))}
      {turn.text !== undefined && turn.text !== '' && (
        <div className="pre text" data-testid="turn-text">
          {turn.text}
        </div>
      )}
      {turn.toolCalls.map((call) => (
        <ToolCard key={call.id} call={call} />
      ))}
    </article>
  );
}
