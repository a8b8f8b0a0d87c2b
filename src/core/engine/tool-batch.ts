import { findError } from '../kit/error-chain';
import { ModelRetry } from '../errors/errors';
import { safeGet } from '../kit/safe-inspect';
import type { Message, ToolCall } from '../contract/message';
import { Deferred } from '../tool/errors';
import type { Tool } from '../tool/tool';
import type { PendingToolCall, PendingToolCalls } from './deferred-types';
import {
  AttemptsExhaustedError,
  deferralNotEnabledError,
  RunError,
  ToolError,
  UndeclaredToolError,
} from './errors';
import type { EngineConfig } from './run-config';
import type { RunProgress } from './run-progress';
import { reasonText, toolRejectedText } from './texts';
import type { ToolLayers, ToolOutcome } from './tool-exec';
import { executePlain, executeTool } from './tool-exec';
import { toolGuard } from './guardrail-checks';
import { toolReporter } from './tool-report';
import { traced } from './instrumentation';

/** What a classified batch contributes. Internal. */
export interface BatchResult {
  messages: Message[];
  pending: PendingToolCalls;
}

/** Finds a correctable rejection, not looking inside nested runs' errors (decision D10). */
export function findModelRetry(error: unknown): ModelRetry | undefined {
  if (RunError.is(error)) return undefined;
  return findError(error, (e) => ModelRetry.is(e), { stopAt: (e) => RunError.is(e) });
}

/**
 * The model-facing reason of a found rejection. Read defensively: a proxied or altered ModelRetry
 * whose `reason` cannot be read gives "(no reason)" instead of failing the run with the read error.
 */
export function retryReason(retry: ModelRetry): string {
  const reason = safeGet(retry, 'reason');
  return reasonText(typeof reason === 'string' ? reason : '');
}

/**
 * Executes a batch of calls and classifies the outcomes in emission order (spec §10, §14). Every
 * call is checked against the advertised tools first; all calls run before any failure is
 * classified. Returns the result messages to commit; throws a `tool`-stage RunError (with the
 * evidence so far, not including this batch's results) on the first terminal outcome.
 */
export async function runBatch<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  turn: number,
  calls: readonly ToolCall[],
  corrections: Map<string, number>,
): Promise<BatchResult> {
  const tools: Tool<Deps>[] = [];
  for (const call of calls) {
    const tool = config.advertised.get(call.name);
    if (tool === undefined)
      throw state.fail(
        'tool',
        new ToolError(call.name, call.id, new UndeclaredToolError(call.name)),
      );
    tools.push(tool);
  }
  const only = calls.length === 1 ? (calls[0] as ToolCall) : undefined;
  // One plain call and no store (the common tool turn): it runs here, without the groups' frame.
  let outcomes: (ToolOutcome | undefined)[];
  if (
    only !== undefined &&
    state.checkpoints === undefined &&
    !state.run.aborted &&
    isPlainBatch(config, state) &&
    isPlainCall(config, tools[0] as Tool<Deps>)
  ) {
    const tool = tools[0] as Tool<Deps>;
    const retry = corrections.get(only.name) ?? 0;
    const outcome = await executePlain(tool, only, state.run.deps, state.run, retry);
    finishEvent(state, turn, only, outcome);
    outcomes = [outcome];
  } else outcomes = await executeGroups(config, state, turn, calls, tools, corrections);
  const messages: Message[] = [];
  // Made on the first deferred call (most batches have none).
  let pending: PendingToolCalls | undefined;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index] as ToolCall;
    const outcome = outcomes[index];
    if (outcome === undefined) break;
    if (outcome.ok) {
      messages.push({
        role: 'tool',
        content: outcome.text,
        toolCallId: call.id,
        toolName: call.name,
      });
      continue;
    }
    const deferred = outcome.cancelled ? undefined : findDeferred(outcome.error);
    if (deferred !== undefined && !config.deferredTools) {
      throw state.fail(
        'tool',
        new ToolError(call.name, call.id, deferralNotEnabledError(call.name)),
        completedResults(messages, calls, outcomes, index),
      );
    }
    const deferral = safeGet(deferred, 'deferral');
    if (deferred !== undefined && (deferral === 'approval' || deferral === 'external')) {
      const reason = safeGet(deferred, 'reason');
      const entry: PendingToolCall = {
        callId: call.id,
        toolName: call.name,
        args: call.args,
        reason: typeof reason === 'string' ? reason : '',
      };
      pending ??= { approvals: [], external: [] };
      (deferral === 'approval' ? pending.approvals : pending.external).push(entry);
      continue;
    }
    const used = corrections.get(call.name) ?? 0;
    const retry = outcome.cancelled ? undefined : findModelRetry(outcome.error);
    if (retry !== undefined && used < retryLimit(config, tools[index])) {
      corrections.set(call.name, used + 1);
      messages.push({
        role: 'tool',
        content: toolRejectedText(retryReason(retry)),
        toolCallId: call.id,
        toolName: call.name,
      });
      continue;
    }
    const cause =
      used > 0 && !outcome.cancelled
        ? new AttemptsExhaustedError('tool', used + 1, outcome.error)
        : outcome.error;
    throw state.fail(
      'tool',
      new ToolError(call.name, call.id, cause),
      completedResults(messages, calls, outcomes, index),
    );
  }
  return { messages, pending: pending ?? NOTHING_PENDING };
}

/** The `pending` of a batch that deferred nothing (never mutated: a batch's own is made). */
const NOTHING_PENDING: PendingToolCalls = Object.freeze({
  approvals: Object.freeze([]) as unknown as PendingToolCall[],
  external: Object.freeze([]) as unknown as PendingToolCall[],
});

/** Results already classified, plus the successful results of the calls after the failing one. */
function completedResults(
  classified: readonly Message[],
  calls: readonly ToolCall[],
  outcomes: readonly (ToolOutcome | undefined)[],
  failed: number,
): Message[] {
  const results = [...classified];
  for (let i = failed + 1; i < calls.length; i++) {
    const outcome = outcomes[i];
    const call = calls[i];
    if (outcome?.ok === true && call !== undefined)
      results.push({
        role: 'tool',
        content: outcome.text,
        toolCallId: call.id,
        toolName: call.name,
      });
  }
  return results;
}

/** Finds a deferral signal, not looking inside nested runs' errors. */
export function findDeferred(error: unknown): Deferred | undefined {
  if (RunError.is(error)) return undefined;
  return findError(error, (e) => Deferred.is(e), { stopAt: (e) => RunError.is(e) });
}

function retryLimit<Deps>(config: EngineConfig<Deps>, tool: Tool<Deps> | undefined): number {
  return tool?.maxRetries ?? config.toolRetries;
}

/** Splits the batch into groups (parallel runs of non-sequential calls) and runs them in order. */
async function executeGroups<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  turn: number,
  calls: readonly ToolCall[],
  tools: readonly Tool<Deps>[],
  corrections: Map<string, number>,
): Promise<(ToolOutcome | undefined)[]> {
  const outcomes: (ToolOutcome | undefined)[] = new Array<ToolOutcome | undefined>(
    calls.length,
  ).fill(undefined);
  const groups = tools.length === 1 ? ONE_CALL : callGroups(config, tools);
  const plain = isPlainBatch(config, state);
  const execute = (index: number): Promise<ToolOutcome> => {
    const tool = tools[index] as Tool<Deps>;
    const call = calls[index] as ToolCall;
    const retry = corrections.get(call.name) ?? 0;
    if (plain && isPlainCall(config, tool))
      return executePlain(tool, call, state.run.deps, state.run, retry);
    const input = {
      tool,
      call,
      deps: state.run.deps,
      run: state.run,
      timeout: effectiveTimeout(config, tool),
      approved: false,
      retry,
      report: toolReporter(state, turn, call),
      guard: toolGuard(config.guardrails, state, turn, call),
      middleware: toolLayers(config, state),
    };
    const { trace } = state.run; // untraced (the common case): no scope or closure per call
    if (trace === undefined) return executeTool(input);
    return traced(trace, { kind: 'tool', callId: call.id }, () => executeTool(input));
  };
  const checkpoints = state.checkpoints;
  for (const group of groups) {
    if (group.length === 1) {
      const index = group[0] as number;
      const call = calls[index] as ToolCall;
      if (state.run.aborted) {
        outcomes[index] = await execute(index);
        return outcomes;
      }
      if (checkpoints !== undefined) await checkpoints.starting(state, [call]);
      emitToolStart(state, turn, call);
      const outcome = await execute(index);
      outcomes[index] = outcome;
      if (checkpoints !== undefined && outcome.ok)
        checkpoints.result(call, resultMessage(call, outcome.text));
      finishEvent(state, turn, call, outcome);
      continue;
    }
    if (checkpoints !== undefined)
      await checkpoints.starting(
        state,
        group.map((index) => calls[index] as ToolCall),
      );
    for (const index of group) {
      const call = calls[index] as ToolCall;
      emitToolStart(state, turn, call);
    }
    const settled = await Promise.all(
      checkpoints === undefined
        ? group.map(execute)
        : group.map(async (index) => {
            const outcome = await execute(index);
            const call = calls[index] as ToolCall;
            if (outcome.ok) {
              checkpoints.result(call, resultMessage(call, outcome.text));
              await checkpoints.save(state);
            }
            return outcome;
          }),
    );
    for (const [position, index] of group.entries()) {
      const outcome = settled[position] as ToolOutcome;
      outcomes[index] = outcome;
      finishEvent(state, turn, calls[index] as ToolCall, outcome);
    }
  }
  return outcomes;
}

/** The groups of a one-call batch. */
const ONE_CALL: readonly (readonly number[])[] = [[0]];

/** A batch's calls in groups: runs of non-sequential calls run in parallel, when allowed. */
function callGroups<Deps>(config: EngineConfig<Deps>, tools: readonly Tool<Deps>[]): number[][] {
  const groups: number[][] = [];
  for (const [index, tool] of tools.entries()) {
    const last = groups[groups.length - 1];
    if (
      config.parallelToolCalls &&
      tool.sequential !== true &&
      last !== undefined &&
      !(tools[last[0] ?? 0]?.sequential ?? false)
    ) {
      last.push(index);
    } else {
      groups.push([index]);
    }
  }
  return groups;
}

/**
 * Whether nothing observes, guards, wraps or traces a batch's calls: each then runs on the plain
 * path (`executePlain`) unless {@link isPlainCall} says otherwise.
 */
function isPlainBatch<Deps>(config: EngineConfig<Deps>, state: RunProgress<Deps>): boolean {
  return (
    !state.observed &&
    config.guardrails?.tool === undefined &&
    config.toolMiddleware === undefined &&
    (state.run.middleware?.tool.length ?? 0) === 0 &&
    state.run.trace === undefined
  );
}

/** Whether a call of `tool` needs neither a deadline nor its approval policy. */
function isPlainCall<Deps>(config: EngineConfig<Deps>, tool: Tool<Deps>): boolean {
  return (
    effectiveTimeout(config, tool) <= 0 && (tool.approval === undefined || tool.approval === false)
  );
}

/** The tool message of a completed call. */
function resultMessage(call: ToolCall, text: string): Message {
  return { role: 'tool', content: text, toolCallId: call.id, toolName: call.name };
}

/** The deadline of one execution: the tool's own timeout when set, else the agent's. */
export function effectiveTimeout<Deps>(config: EngineConfig<Deps>, tool: Tool<Deps>): number {
  return tool.timeout !== undefined && tool.timeout > 0 ? tool.timeout : config.toolTimeout;
}

function eventBase(turn: number, call: ToolCall) {
  return { turn, callId: call.id, toolName: call.name, args: call.args };
}

/** Emits `tool_start` for `call` (built only when the run is observed). */
export function emitToolStart<Deps>(state: RunProgress<Deps>, turn: number, call: ToolCall): void {
  if (state.observed) state.emit({ kind: 'tool_start', ...eventBase(turn, call) });
}

/** Counts one execution and emits its `tool_end` (built only when the run is observed). */
export function recordToolEnd<Deps>(
  state: RunProgress<Deps>,
  turn: number,
  call: ToolCall,
  outcome: ToolOutcome,
): void {
  state.toolCalls++;
  if (!state.observed) return;
  const base = eventBase(turn, call);
  state.emit(
    outcome.ok
      ? { kind: 'tool_end', ...base, result: outcome.text }
      : { kind: 'tool_end', ...base, error: outcome.error },
  );
}

function finishEvent<Deps>(
  state: RunProgress<Deps>,
  turn: number,
  call: ToolCall,
  outcome: ToolOutcome,
): void {
  if (!outcome.ok && !outcome.cancelled && findDeferred(outcome.error) !== undefined) {
    if (state.observed) state.emit({ kind: 'deferred', ...eventBase(turn, call) });
    return;
  }
  recordToolEnd(state, turn, call, outcome);
}

/** The agent's tool middleware and the run's scope, or `undefined` without any. Internal. */
export function toolLayers<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
): ToolLayers | undefined {
  const own = state.run.middleware?.tool;
  const layers =
    own === undefined || own.length === 0
      ? config.toolMiddleware
      : [...own, ...(config.toolMiddleware ?? [])];
  if (layers === undefined) return undefined;
  const { agent, runId, owner, conversationId } = state.origin;
  return {
    layers,
    scope: {
      agent,
      ...(runId !== undefined && { runId }),
      ...(owner !== undefined && { owner }),
      ...(conversationId !== undefined && { conversationId }),
    },
  };
}
