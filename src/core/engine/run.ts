import type { ModelResponse } from '../contract/response';
import type { ToolCall } from '../contract/message';
import type { DecodeContext, OutputDecoder } from '../output/decoder';
import { isContextFree } from '../output/decoder';
import { AttemptsExhaustedError } from './errors';
import { checkOutput } from './guardrail-checks';
import { atGuardrailStage, openInputGate } from './guardrail-input';
import type { LoopEnd } from './loop';
import { runLoop } from './loop';
import type { Result } from './result';
import type { EngineConfig, RunSettings } from './run-config';
import type { RunProgress } from './run-progress';
import type { LoopStep, Step } from './step';
import { MODEL_STEP } from './step';
import { resolveStep } from './resolve';
import { zeroCost } from './run-progress';
import type { PendingToolCalls } from './deferred-types';
import { EngineResult, type ResultEvidenceFields } from './run-result';
import { withLazySignal } from './lazy-signal';
import { outputRejectedText, outputToolRejectedText, RESULT_RECORDED } from './texts';
import { findModelRetry, retryReason } from './tool-batch';
import { isThenable } from '../kit/guards';

/**
 * The one entry into a run (every door builds a `step` and comes here): runs loop executions
 * and decodes (spec §9). The first loop execution enters at `step` (a model call by default; a
 * stored run continued after a crash may enter at its cut-short batch or its committed final
 * turn, or a paused run at its calls' decisions); a decoder's `ModelRetry` within `outputRetries`
 * feeds the rejection back and starts a new loop execution, at a model call, with fresh turn and
 * tool budgets. Input guardrails run first (parallel ones alongside the first model call) when
 * the run starts with a model call on new user input; output guardrails after decoding; a run a
 * guardrail stopped fails at the `guardrail` stage.
 */
export function executeRun<Deps, Output>(
  config: EngineConfig<Deps>,
  decoder: OutputDecoder<Output>,
  state: RunProgress<Deps>,
  step: Step = MODEL_STEP,
): Promise<Result<Output>> {
  // Neither decisions to resolve nor guardrails (the common case): straight to the loop.
  const running =
    step.kind !== 'resolve' && config.guardrails === undefined
      ? decodeRounds(config, decoder, state, step)
      : executeSteps(config, decoder, state, step);
  const { remember } = state;
  return remember === undefined ? running : running.then((result) => remembered(state, result));
}

/**
 * A completed result, once the agent's memory was given the run's new messages (from
 * `state.rememberFrom`); a memory failure is a `memory_failed` event, never the run's.
 */
async function remembered<Deps, Output>(
  state: RunProgress<Deps>,
  result: Result<Output>,
): Promise<Result<Output>> {
  if (result.pending !== undefined || state.remember === undefined) return result;
  try {
    await state.remember(result.messages.slice(state.rememberFrom));
  } catch (error) {
    if (state.observed) state.emit({ kind: 'memory_failed', error });
  }
  return result;
}

async function executeSteps<Deps, Output>(
  config: EngineConfig<Deps>,
  decoder: OutputDecoder<Output>,
  state: RunProgress<Deps>,
  step: Step,
): Promise<Result<Output>> {
  let start: LoopStep;
  if (step.kind === 'resolve') {
    // Decisions first, then the prompt they were given with is the run's new input.
    await resolveStep(config, state, step);
    start = MODEL_STEP;
  } else start = step;
  if (config.guardrails === undefined) return decodeRounds(config, decoder, state, start);
  const gate = await openInputGate(config, state, start.kind !== 'model');
  try {
    return await decodeRounds(gate?.config ?? config, decoder, state, start);
  } catch (error) {
    throw atGuardrailStage(error);
  } finally {
    gate?.close();
  }
}

async function decodeRounds<Deps, Output>(
  initial: EngineConfig<Deps>,
  initialDecoder: OutputDecoder<Output>,
  state: RunProgress<Deps>,
  step: LoopStep,
): Promise<Result<Output>> {
  let config = initial;
  let decoder = initialDecoder;
  let start = step;
  state.handoffLimit ??= initial.maxHandoffs;
  for (let round = 0; ; round++) {
    const end: LoopEnd<Deps> = await runLoop(config, state, start);
    start = MODEL_STEP;
    if (end.kind === 'handoff') {
      // The target continues the run: its tools, output and budgets, a fresh loop execution.
      ({ engine: config } = end.target);
      decoder = end.target.decoder as OutputDecoder<Output>;
      round = -1;
      continue;
    }
    if (end.kind === 'paused')
      return succeed<Deps, Output>(state, evidence(config, state), undefined, end.pending);
    const response: ModelResponse = end.response;
    let output: Output;
    try {
      // A decoder that answers synchronously (text, most schemas) costs no extra await.
      const decoded = decoder(
        response,
        isContextFree(decoder) ? UNREAD_CONTEXT : decodeContext(state.run),
      );
      output = isThenable(decoded) ? await decoded : decoded;
      if (config.guardrails?.output !== undefined)
        output = (await checkOutput(config.guardrails, state, output)) as Output;
    } catch (error) {
      const retry = findModelRetry(error);
      if (retry === undefined || round >= config.outputRetries) {
        throw state.fail(
          'decode',
          round > 0 ? new AttemptsExhaustedError('output', round + 1, error) : error,
        );
      }
      if (state.observed) state.emit({ kind: 'output_rejected', attempt: round + 1, error: retry });
      state.messages.push(
        rejection(end.kind === 'output' ? end.call : undefined, retryReason(retry)),
      );
      continue;
    }
    if (end.kind === 'output') {
      state.messages.push({
        role: 'tool',
        content: RESULT_RECORDED,
        toolCallId: end.call.id,
        toolName: end.call.name,
      });
    }
    return succeed(state, evidence(config, state), output, undefined);
  }
}

/** What a decoder that never reads its context is given (see `contextFree`). */
const UNREAD_CONTEXT = Object.freeze({}) as DecodeContext;

/** What the decoder receives; the run's signal is read (or created) only if the decoder reads it. */
function decodeContext<Deps>(run: RunSettings<Deps>): DecodeContext {
  return withLazySignal({ deps: run.deps }, run);
}

/** The run's result (its state on demand), recorded on the run's trace when traced. */
function succeed<Deps, Output>(
  state: RunProgress<Deps>,
  evidence: ResultEvidenceFields,
  output: Output | undefined,
  pending: PendingToolCalls | undefined,
): Result<Output> {
  if (state.handoffs.length > 0) evidence.handoffs = state.handoffs;
  const result = new EngineResult(evidence, output, pending, state.origin, state.completedTurns);
  state.run.trace?.record({ ok: true, result: result as Result<unknown> });
  return result as Result<Output>;
}

function rejection(outputCall: ToolCall | undefined, reason: string) {
  return outputCall === undefined
    ? { role: 'user' as const, content: outputRejectedText(reason) }
    : {
        role: 'tool' as const,
        content: outputToolRejectedText(reason, outputCall.name),
        toolCallId: outputCall.id,
        toolName: outputCall.name,
      };
}

/**
 * The result's evidence. The run ends here, so its messages array is handed over, not copied
 * (O(history) per run otherwise): nothing appends to it afterwards. Guardrails saw the live array
 * (`ctx.messages`) and may have kept it, so with guardrails the result gets its own copy.
 */
function evidence<Deps>(config: EngineConfig<Deps>, state: RunProgress<Deps>) {
  const evidence: ResultEvidenceFields = {
    messages: config.guardrails === undefined ? state.messages : [...state.messages],
    usage: { ...state.usage },
    requests: state.requests,
    toolCalls: state.toolCalls,
  };
  if (config.prices !== undefined)
    evidence.cost = state.cost ?? zeroCost(config.prices.currency ?? 'USD');
  if (state.compactions.length > 0) evidence.compactions = state.compactions;
  if (config.compaction !== undefined && state.contextTokens !== undefined)
    evidence.contextTokens = state.contextTokens;
  return evidence;
}
