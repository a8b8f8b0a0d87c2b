import type { ToolCall } from '../contract/message';
import type { ToolUpdate } from '../tool/context';
import type { RunState } from './run-state';

/**
 * The `ToolContext.report` of one execution: each update becomes a `tool_progress` or `tool_log`
 * event carrying a copy of the update. Undefined while nothing observes the run (no cost then).
 */
export function toolReporter<Deps>(
  state: RunState<Deps>,
  turn: number,
  call: ToolCall,
): ((update: ToolUpdate) => void) | undefined {
  if (!state.observed) return undefined;
  return (update) => {
    try {
      state.emit({
        kind: update.kind === 'progress' ? 'tool_progress' : 'tool_log',
        turn,
        attempt: 0,
        callId: call.id,
        toolName: call.name,
        update: { ...update },
      });
    } catch {
      // A report is advisory: it never affects the tool or the run.
    }
  };
}
