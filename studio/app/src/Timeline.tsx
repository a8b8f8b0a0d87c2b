import type { StudioTurn } from '../../../src/studio/api-types';
import { TurnCard } from './TurnCard';

function Checkpoint({ turn, onReplay }: { turn: number; onReplay: (turn: number) => void }) {
  return (
    <div className="checkpoint" data-testid="checkpoint" data-turn={turn}>
      <span className="checkpoint-line" />
      <span className="muted small">checkpoint {turn}</span>
      <button
        type="button"
        className="small"
        data-testid={`replay-from-${turn}`}
        onClick={() => {
          onReplay(turn);
        }}
      >
        ↻ Replay from here
      </button>
    </div>
  );
}

/** A run's turns in order; checkpoint markers with "Replay from here" when `onReplay` is set. */
export function Timeline({
  turns,
  checkpoints = [],
  onReplay,
}: {
  turns: readonly StudioTurn[];
  checkpoints?: readonly number[];
  onReplay?: (turn: number) => void;
}) {
  const marks = new Set(onReplay === undefined ? [] : checkpoints);
  return (
    <div className="timeline" data-testid="timeline">
      {turns.length === 0 && <p className="empty">No model turn yet.</p>}
      {turns.map((turn) => (
        <div key={turn.index}>
          {onReplay !== undefined && marks.has(turn.index) && (
            <Checkpoint turn={turn.index} onReplay={onReplay} />
          )}
          <TurnCard turn={turn} />
        </div>
      ))}
      {onReplay !== undefined && marks.has(turns.length) && (
        <Checkpoint turn={turns.length} onReplay={onReplay} />
      )}
    </div>
  );
}
