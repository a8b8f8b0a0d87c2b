import type { PendingToolCall, PendingToolCalls } from '../engine/deferred-types';
import type { EngineConfig } from '../engine/run-config';
import type { LoopStep } from '../engine/step';
import { endsLoop, MODEL_STEP } from '../engine/step';
import type { Message, ToolCall } from '../contract/message';
import { INTERRUPTED_CALL_REASON } from './interrupted-call';

/**
 * The step a stored run re-enters the loop at, from where its checkpoint leaves off: `decode` when
 * the last turn was a final answer or an output-tool call, `batch` when the last turn's batch was
 * cut short, else `model`. Calls of the last turn without a result split into
 * those in flight that are `idempotent` (re-run), the other in-flight ones (their outcome is
 * unknown: they pause the run for a decision), those still waiting for a decision (`pending`
 * when the run was taken by a resume that died before its resolutions were committed: they pause
 * the run again as they were) and those that never started (safe to run).
 */
export function planContinuation<Deps>(
  config: EngineConfig<Deps>,
  messages: readonly Message[],
  inFlight: readonly string[],
  pending: PendingToolCalls | undefined,
): LoopStep {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role !== 'assistant') index--;
  const turn = messages[index];
  if (turn === undefined) return MODEL_STEP;
  const calls = turn.toolCalls ?? [];
  const answered = new Set<string>();
  for (const m of messages.slice(index + 1))
    if (m.role === 'tool' && m.toolCallId !== undefined) answered.add(m.toolCallId);
  if (calls.length === 0) {
    if (index !== messages.length - 1) return MODEL_STEP;
    return { kind: 'decode', message: turn };
  }
  if (endsLoop(config, calls)) {
    const outputName = config.outputTool?.name;
    const outputCall = calls.find((c) => c.name === outputName);
    if (outputCall !== undefined && !answered.has(outputCall.id))
      return { kind: 'decode', message: turn };
    return MODEL_STEP;
  }
  const started = new Set(inFlight);
  const asked = new Map<string, { group: 'approvals' | 'external'; entry: PendingToolCall }>();
  for (const entry of pending?.approvals ?? [])
    asked.set(entry.callId, { group: 'approvals', entry });
  for (const entry of pending?.external ?? [])
    asked.set(entry.callId, { group: 'external', entry });
  const seen = new Set<string>();
  const run: ToolCall[] = [];
  const waiting: PendingToolCalls = { approvals: [], external: [] };
  for (const call of calls) {
    if (answered.has(call.id) || seen.has(call.id)) continue;
    seen.add(call.id);
    if (started.has(call.id)) {
      if (config.advertised.get(call.name)?.idempotent === true) run.push(call);
      else
        waiting.approvals.push({
          callId: call.id,
          toolName: call.name,
          args: call.args,
          reason: INTERRUPTED_CALL_REASON,
        });
      continue;
    }
    const decision = asked.get(call.id);
    if (decision === undefined) run.push(call);
    else waiting[decision.group].push(decision.entry);
  }
  if (run.length === 0 && waiting.approvals.length === 0 && waiting.external.length === 0)
    return MODEL_STEP;
  return { kind: 'batch', calls: run, waiting };
}
