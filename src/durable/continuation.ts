import { endsLoop } from '../engine/loop';
import type { PendingToolCall } from '../engine/deferred-types';
import type { EngineConfig } from '../engine/run-config';
import type { Message, ToolCall } from '../model/message';
import { INTERRUPTED_CALL_REASON } from './interrupted-call';

/** What continuing a stored run starts with. Internal. */
export type Continuation =
  /** The last turn was a final answer or an output-tool call: decode it (no model call). */
  | { kind: 'decode'; message: Message }
  /** The last turn's batch was cut short: run `run`, ask about `interrupted`, then loop. */
  | { kind: 'batch'; run: ToolCall[]; interrupted: PendingToolCall[] }
  /** Every call has its result: the next step is a model call. */
  | { kind: 'loop' };

/**
 * Where a stored run's checkpoint leaves off. Calls of the last turn without a result split into
 * those that never started (safe to run), those in flight that are `idempotent` (re-run) and
 * the other in-flight ones (their outcome is unknown: they pause the run for a decision).
 */
export function planContinuation<Deps>(
  config: EngineConfig<Deps>,
  messages: readonly Message[],
  inFlight: readonly string[],
): Continuation {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role !== 'assistant') index--;
  const turn = messages[index];
  if (turn === undefined) return { kind: 'loop' };
  const calls = turn.toolCalls ?? [];
  const answered = new Set<string>();
  for (const m of messages.slice(index + 1))
    if (m.role === 'tool' && m.toolCallId !== undefined) answered.add(m.toolCallId);
  if (calls.length === 0) {
    if (index !== messages.length - 1) return { kind: 'loop' };
    return { kind: 'decode', message: turn };
  }
  if (endsLoop(config, calls)) {
    const outputName = config.outputTool?.name;
    const outputCall = calls.find((c) => c.name === outputName);
    if (outputCall !== undefined && !answered.has(outputCall.id))
      return { kind: 'decode', message: turn };
    return { kind: 'loop' };
  }
  const started = new Set(inFlight);
  const seen = new Set<string>();
  const run: ToolCall[] = [];
  const interrupted: PendingToolCall[] = [];
  for (const call of calls) {
    if (answered.has(call.id) || seen.has(call.id)) continue;
    seen.add(call.id);
    if (!started.has(call.id) || config.advertised.get(call.name)?.idempotent === true) {
      run.push(call);
      continue;
    }
    interrupted.push({
      callId: call.id,
      toolName: call.name,
      args: call.args,
      reason: INTERRUPTED_CALL_REASON,
    });
  }
  if (run.length === 0 && interrupted.length === 0) return { kind: 'loop' };
  return { kind: 'batch', run, interrupted };
}
