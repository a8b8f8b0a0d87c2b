import type { ToolCall } from '../contract/message';
import type { ToolUpdate } from '../tool/context';
import type { RunProgress } from './run-progress';

/**
 * The `ToolContext.report` of one execution: each update becomes a `tool_progress` or `tool_log`
 * event carrying a copy of the update. Undefined while nothing observes the run (no cost then).
 */
export function toolReporter<Deps>(
  state: RunProgress<Deps>,
  turn: number,
  call: ToolCall,
): ((update: ToolUpdate) => void) | undefined {
  if (!state.observed) return undefined;
  return (update) => {
    try {
      const at = { turn, callId: call.id, toolName: call.name };
      state.emit(
        update.kind === 'progress'
          ? { kind: 'tool_progress', ...at, update: { ...update } }
          : { kind: 'tool_log', ...at, update: { ...update } },
      );
    } catch {
      // A report is advisory: it never affects the tool or the run.
    }
  };
}
