import { isCancellation } from '../errors/cancellation';
import type { Message, ToolCall } from '../contract/message';
import {
  effectiveTimeout,
  emitToolStart,
  findDeferred,
  recordToolEnd,
  toolLayers,
} from './tool-batch';
import { RunInputError, ToolError } from './errors';
import type { EngineConfig } from './run-config';
import type { RunProgress } from './run-progress';
import { deniedText } from './texts';
import { executeTool } from './tool-exec';
import { toolGuard } from './guardrail-checks';
import { atGuardrailStage } from './guardrail-input';
import { toolReporter } from './tool-report';
import { traced } from './instrumentation';
import type { Resolution, Step } from './step';
import { assembleMessages } from './assemble';

/**
 * The `resolve` step (see `Step`): resolves the calls, puts the results in their calls' places,
 * assembles the messages around them, and commits (with a store) before the next model call.
 */
export async function resolveStep<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  step: Extract<Step, { kind: 'resolve' }>,
): Promise<void> {
  const resolved = await resolveCalls(config, state, step.resolutions);
  state.messages = assembleMessages(
    step.system,
    spliceResolutions(state.messages, resolved),
    step.prompt,
  );
  if (state.checkpoints !== undefined) await state.checkpoints.commit(state);
}

/** The result of a call resolved without running it (a denial or an external result). */
function decidedResult(r: Resolution): Message | undefined {
  const { call } = r;
  let content: string;
  if (r.kind === 'external') content = r.text;
  else if (!r.approval.approved) content = deniedText(r.approval.reason);
  else return undefined;
  return { role: 'tool', content, toolCallId: call.id, toolName: call.name };
}

/**
 * Produces each call's result text: approved calls re-execute with `ctx.approved` set under the
 * tool timeout policy (a failure or a second deferral fails the run at the `tool` stage); denials
 * become the denial text; external results pass verbatim. Every resolution is observable, in
 * order: a re-run emits `tool_start`/`tool_end`, a denial or external result `tool_resolved`.
 * With checkpoints, every denial and external result is recorded before the first approved call
 * starts, so that call's write-ahead record carries them: a crash during a re-run never leaves a
 * decided call looking unanswered.
 */
async function resolveCalls<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  resolutions: readonly Resolution[],
): Promise<Map<string, Message>> {
  const decided = new Map<string, Message>();
  for (const r of resolutions) {
    const result = decidedResult(r);
    if (result === undefined) continue;
    decided.set(r.call.id, result);
    state.checkpoints?.result(r.call, result);
  }
  const results = new Map<string, Message>();
  for (const r of resolutions) {
    const { call } = r;
    const result = decided.get(call.id);
    if (result !== undefined) {
      emitResolved(
        state,
        call,
        result.content ?? '',
        r.kind === 'external' ? 'external' : 'denied',
      );
      results.set(call.id, result);
      continue;
    }
    const content = await rerun(config, state, call);
    const message: Message = { role: 'tool', content, toolCallId: call.id, toolName: call.name };
    results.set(call.id, message);
    state.checkpoints?.result(call, message);
  }
  return results;
}

/** Re-executes an approved call with `ctx.approved`; its text, or a `tool`-stage RunError. */
async function rerun<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  call: ToolCall,
): Promise<string> {
  const tool = config.advertised.get(call.name);
  if (tool === undefined)
    throw new RunInputError(`resume: tool "${call.name}" is not advertised by this agent`);
  if (state.checkpoints !== undefined) await state.checkpoints.starting(state, [call]);
  emitToolStart(state, 0, call);
  const outcome = await traced(state.run.trace, { kind: 'tool', callId: call.id }, () =>
    executeTool({
      tool,
      call,
      deps: state.run.deps,
      run: state.run,
      timeout: effectiveTimeout(config, tool),
      approved: true,
      retry: 0,
      report: toolReporter(state, 0, call),
      guard: toolGuard(config.guardrails, state, 0, call),
      middleware: toolLayers(config, state),
    }),
  );
  recordToolEnd(state, 0, call, outcome);
  if (outcome.ok) return outcome.text;
  const deferredAgain = !isCancellation(outcome.error) && findDeferred(outcome.error) !== undefined;
  const cause = deferredAgain
    ? new RunInputError(
        `approved call "${call.id}" deferred again; an approved re-run must produce a result`,
        { cause: outcome.error },
      )
    : outcome.error;
  throw atGuardrailStage(state.fail('tool', new ToolError(call.name, call.id, cause)));
}

/** Emits `tool_resolved` for a call resolved without running (built only when observed). */
function emitResolved<Deps>(
  state: RunProgress<Deps>,
  call: ToolCall,
  result: string,
  resolution: 'denied' | 'external',
): void {
  if (!state.observed) return;
  const { id: callId, name: toolName, args } = call;
  state.emit({
    kind: 'tool_resolved',
    turn: 0,
    callId,
    toolName,
    args,
    result,
    resolution,
  });
}

/**
 * Splices resolutions into the history (spec §21.2 step 5): the last assistant turn's calls get
 * their results in emission order (existing results and resolutions interleaved), unconsumed tool
 * messages after that turn follow, and resolutions for older turns' calls come last, by call id.
 */
export function spliceResolutions(
  history: readonly Message[],
  resolved: ReadonlyMap<string, Message>,
): Message[] {
  let last = -1;
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m?.role === 'assistant' && (m.toolCalls ?? []).length > 0) {
      last = i;
      break;
    }
  }
  const lastTurn = last >= 0 ? (history[last]?.toolCalls ?? []) : [];
  const before = history.slice(0, last + 1);
  const after = history.slice(last + 1);
  const byId = new Map<string, Message>();
  const rest: Message[] = [];
  const lastIds = new Set(lastTurn.map((c) => c.id));
  for (const m of after) {
    if (
      m.role === 'tool' &&
      m.toolCallId !== undefined &&
      lastIds.has(m.toolCallId) &&
      !byId.has(m.toolCallId)
    )
      byId.set(m.toolCallId, m);
    else rest.push(m);
  }
  const ordered: Message[] = [];
  for (const call of lastTurn) {
    const message = resolved.get(call.id) ?? byId.get(call.id);
    if (message !== undefined) ordered.push(message);
  }
  const older = [...resolved.entries()]
    .filter(([id]) => !lastIds.has(id))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [...before, ...ordered, ...rest, ...older.map(([, m]) => m)];
}
