import { cancellationError } from '../errors/cancellation';
import type { ModelRequest } from '../contract/request';
import type { ModelResponse } from '../contract/response';
import type { Message, ToolCall } from '../contract/message';
import { emptyUsage } from '../contract/usage';
import type { PendingToolCalls } from './deferred-types';
import { TurnLimitError } from './errors';
import { isPlainTurn, modelTurn, plainCall, plainTurnFailed } from './model-turn';
import { normaliseResponse } from './response';
import { INTERRUPTED_RESULT } from './repair';
import type { EngineConfig, HandoffRoute, HandoffTarget } from './run-config';
import { handoffCall, takeHandoff } from './handoff';
import type { RunProgress } from './run-progress';
import type { LoopStep } from './step';
import { endsLoop } from './step';
import type { BatchResult } from './tool-batch';
import { runBatch } from './tool-batch';
import { UsageLimitError, crossedLimit } from './usage-limit';
import { afterResponse, prepareContext } from './compact';
import type { CompactionPlan } from './compaction-plan';
import type { ModelSettings } from '../contract/request';

/** How a loop execution ended. Internal. */
export type LoopEnd<Deps = unknown> =
  | { kind: 'final'; response: ModelResponse }
  | { kind: 'output'; response: ModelResponse; call: ToolCall }
  | { kind: 'paused'; pending: PendingToolCalls }
  | { kind: 'handoff'; target: HandoffTarget<Deps> };

/**
 * One loop execution (spec §5), entered at `step`: model turns until a final answer, an
 * output-tool call, a pause, or a failure. Appends every turn and committed tool result to
 * `state.messages`. The order of a turn is written here once: model call → record → checkpoint
 * (a turn that ends the loop) → usage check → end, or the batch step.
 */
export async function runLoop<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  step: LoopStep,
): Promise<LoopEnd<Deps>> {
  // Tool corrections per tool name, made by the first batch (a loop that ends without one, as a
  // structured-output run does, never needs it).
  let corrections: Map<string, number> | undefined;
  if (step.kind === 'decode') return decodeEnd(config, state, step.message);
  if (step.kind === 'batch') {
    const batch =
      step.calls.length > 0
        ? await runBatch(config, state, 0, step.calls, (corrections = new Map<string, number>()))
        : undefined;
    const paused = await closeBatch(config, state, batch, step.waiting);
    if (paused !== undefined) return paused;
  }
  for (let turn = 0; ; turn++) {
    if (state.run.aborted) throw state.fail('model', cancellationError(state.run.signal));
    if (turn >= config.maxIterations)
      throw state.fail('loop', new TurnLimitError(config.maxIterations));
    const { compaction } = config;
    let messages: Message[];
    if (compaction === undefined && state.compactions.length === 0 && !state.observed)
      messages = state.messages.slice();
    else {
      try {
        messages = await prepareContext(config, state);
      } catch (cause) {
        throw state.fail('model', cause);
      }
    }
    const request: ModelRequest = { messages, tools: config.specs.slice() };
    if (config.outputSchema !== undefined) request.outputSchema = config.outputSchema;
    if (config.hostedTools !== undefined) request.hostedTools = [...config.hostedTools];
    const settings = withProviderCompaction(state.run.settings, compaction);
    if (settings !== undefined) request.settings = settings;
    let response: ModelResponse;
    try {
      if (isPlainTurn(config, state)) {
        // Awaited here, not in a function of its own: one async frame fewer per turn.
        try {
          response = normaliseResponse(await plainCall(config, state, request), state.requests);
        } catch (caught) {
          response = await plainTurnFailed(config, state, turn, request, caught);
        }
      } else response = await modelTurn(config, state, turn, request);
    } catch (cause) {
      // A bound a middleware enforces (a spend cap) fails the run where a usageLimit would.
      throw state.fail(UsageLimitError.is(cause) ? 'usage' : 'model', cause);
    }
    state.recordResponse(response.message, response.usage);
    if (state.requestLength !== undefined) afterResponse(state, response);
    const calls = response.message.toolCalls ?? [];
    if (config.handoffs !== undefined && !endsLoop(config, calls)) {
      const picked = handoffCall(config, calls);
      if (picked !== undefined) return handOff(config, state, turn, calls, picked);
    }
    // A turn that starts a batch is persisted by the batch's write-ahead checkpoint.
    if (state.checkpoints !== undefined && endsLoop(config, calls))
      await state.checkpoints.save(state);
    checkUsage(config, state);
    const end = finalEnd(config, state, response);
    if (end !== undefined) return end;
    const batch = await runBatch(
      config,
      state,
      turn,
      calls,
      (corrections ??= new Map<string, number>()),
    );
    const closed = closeBatch(config, state, batch, NOTHING_WAITING);
    // Without a store the batch closes synchronously: no extra await on the hot path.
    const paused = closed instanceof Promise ? await closed : closed;
    if (paused !== undefined) return paused;
  }
}

/**
 * A turn that called a transfer tool: the run hands off (its calls answered, the target's context
 * set up) and the handoff is committed in one checkpoint before the target's first model call.
 */
async function handOff<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  turn: number,
  calls: readonly ToolCall[],
  picked: { call: ToolCall; route: HandoffRoute<Deps> },
): Promise<LoopEnd<Deps>> {
  const target = await takeHandoff(config, state, turn, calls, picked);
  if (state.checkpoints !== undefined) await state.checkpoints.commit(state);
  checkUsage(config, state);
  return { kind: 'handoff', target };
}

const NOTHING_WAITING: PendingToolCalls = { approvals: [], external: [] };

/** The run's settings, asking the provider to compact when `provider` is a policy (unless set). */
function withProviderCompaction(
  settings: ModelSettings | undefined,
  plan: CompactionPlan | undefined,
): ModelSettings | undefined {
  const provider = plan?.provider;
  if (provider === undefined || settings?.compaction !== undefined) return settings;
  return { ...settings, compaction: provider };
}

/**
 * Closes a batch (the batch step is `runBatch`, then this): appends its results, commits them
 * with the calls the run pauses on (those the batch deferred, and `waiting`), checks usage, and
 * returns the pause when anything waits for a decision. Synchronous without checkpoints.
 */
function closeBatch<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  batch: BatchResult | undefined,
  waiting: PendingToolCalls,
): LoopEnd<Deps> | undefined | Promise<LoopEnd<Deps> | undefined> {
  // No allocation in the common case (nothing waits): the batch's own `pending` is used as is.
  let pending = waiting;
  if (batch !== undefined) {
    state.messages.push(...batch.messages);
    pending = waits(waiting)
      ? {
          approvals: [...batch.pending.approvals, ...waiting.approvals],
          external: [...batch.pending.external, ...waiting.external],
        }
      : batch.pending;
  }
  const pausing = waits(pending);
  const end: LoopEnd<Deps> | undefined = pausing ? { kind: 'paused', pending } : undefined;
  if (state.checkpoints === undefined) {
    checkUsage(config, state);
    return end;
  }
  return state.checkpoints.commit(state, pausing ? pending : undefined).then(() => {
    checkUsage(config, state);
    return end;
  });
}

function waits(pending: PendingToolCalls): boolean {
  return pending.approvals.length > 0 || pending.external.length > 0;
}

/** How a run continued at a committed final or output turn ends: that turn, decoded. */
function decodeEnd<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  message: Message,
): LoopEnd<Deps> {
  const end = finalEnd(config, state, { message, usage: emptyUsage() });
  if (end === undefined)
    throw new Error('golem: a decode step names a turn whose calls form a batch'); // a bug
  return end;
}

/**
 * How the loop ends on a committed `response` without executing tools: a final answer (no calls)
 * or an output-tool call (its sibling calls get "interrupted" results); `undefined` when the
 * response's calls form a batch to execute.
 */
export function finalEnd<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  response: ModelResponse,
): LoopEnd<Deps> | undefined {
  const calls = response.message.toolCalls ?? [];
  if (calls.length === 0) return { kind: 'final', response };
  const outputName = config.outputTool?.name;
  const outputCall =
    outputName === undefined ? undefined : calls.find((c) => c.name === outputName);
  if (outputCall === undefined) return undefined;
  for (const call of calls) {
    if (call === outputCall) continue;
    state.messages.push({
      role: 'tool',
      content: INTERRUPTED_RESULT,
      toolCallId: call.id,
      toolName: call.name,
    });
  }
  const final: ModelResponse = {
    ...response,
    message: { ...response.message, content: outputCall.args },
  };
  return { kind: 'output', response: final, call: outputCall };
}

/** Fails the run at the `usage` stage when a bound is crossed (decision D7: after every response). */
export function checkUsage<Deps>(config: EngineConfig<Deps>, state: RunProgress<Deps>): void {
  const crossed = crossedLimit(config.usageLimit, state);
  if (crossed !== undefined) throw state.fail('usage', crossed);
}
