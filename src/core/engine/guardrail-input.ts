import { findError } from '../kit/error-chain';
import type { GenerateOptions, Model, StreamingModel } from '../contract/model';
import { isStreamingModel } from '../contract/model';
import type { Message } from '../contract/message';
import type { CheckSite } from './guardrail-checks';
import { checkContext, runCheck } from './guardrail-checks';
import type { GuardrailInput, InputGuardrail } from './guardrails';
import { GuardrailError } from './guardrails';
import { RunError } from './errors';
import type { EngineConfig } from './run-config';
import type { RunProgress } from './run-progress';

/** A run whose parallel input guardrails are still deciding. Internal. */
export interface InputGate<Deps> {
  /** The configuration to run with: its model waits for the verdict before answering. */
  readonly config: EngineConfig<Deps>;
  /** Stops checks still running (the run ended). */
  close(): void;
}

/**
 * Runs the input guardrails when the run starts with new user input (no turn completed yet, the
 * last message is the user's): sequential ones now, in order (rewrites replace the prompt; a trip
 * fails the run at the `guardrail` stage); parallel ones are started and returned as a gate whose
 * model is called at once but answers only after they all pass, and is aborted when one trips.
 * Internal.
 */
export async function openInputGate<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  resumed: boolean,
): Promise<InputGate<Deps> | undefined> {
  const guardrails = config.guardrails?.input ?? [];
  const last = state.messages.at(-1);
  if (guardrails.length === 0 || resumed || state.completedTurns > 0 || last?.role !== 'user')
    return undefined;
  const index = state.messages.length - 1;
  const { signal } = state.run;
  for (const guardrail of guardrails) {
    if (guardrail.mode === 'parallel') continue;
    const input = inputOf(state.messages[index] as Message);
    try {
      const effect = await runCheck(state, site(guardrail, true), signal, () =>
        guardrail.check(input, checkContext(state, signal)),
      );
      if (effect !== undefined) state.messages[index] = rewritten(guardrail, input, effect.value);
    } catch (error) {
      throw state.fail(GuardrailError.is(error) ? 'guardrail' : 'model', error);
    }
  }
  const parallel = guardrails.filter((g) => g.mode === 'parallel');
  if (parallel.length === 0) return undefined;
  return startParallel(config, state, parallel, inputOf(state.messages[index] as Message));
}

function startParallel<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  guardrails: readonly InputGuardrail<Deps>[],
  input: GuardrailInput,
): InputGate<Deps> {
  const controller = new AbortController();
  const signal = AbortSignal.any([state.run.signal, controller.signal]);
  const verdict = Promise.all(
    guardrails.map((g) =>
      runCheck(state, site(g, false), signal, () => g.check(input, checkContext(state, signal))),
    ),
  );
  // The first trip aborts the model call and the other checks.
  verdict.catch((error: unknown) => {
    controller.abort(error);
  });
  const held = async <R>(call: (signal: AbortSignal) => Promise<R>, outer?: AbortSignal) => {
    const combined =
      outer === undefined ? controller.signal : AbortSignal.any([outer, controller.signal]);
    try {
      const response = await call(combined);
      await verdict;
      return response;
    } catch (error) {
      await verdict; // a trip wins over the failure it caused
      throw error;
    }
  };
  const inner = config.model;
  const model: Model | StreamingModel = isStreamingModel(inner)
    ? {
        name: inner.name,
        generate: (request, options: GenerateOptions = {}) =>
          held((s) => inner.generate(request, { ...options, signal: s }), options.signal),
        stream: (request, onDelta, options: GenerateOptions = {}) =>
          held((s) => inner.stream(request, onDelta, { ...options, signal: s }), options.signal),
      }
    : {
        name: inner.name,
        generate: (request, options: GenerateOptions = {}) =>
          held((s) => inner.generate(request, { ...options, signal: s }), options.signal),
      };
  return {
    config: { ...config, model },
    close: () => {
      controller.abort(new Error('the run ended'));
    },
  };
}

function site<Deps>(guardrail: InputGuardrail<Deps>, rewrite: boolean): CheckSite {
  return { name: guardrail.name, phase: 'input', retry: false, rewrite, turn: 0 };
}

function inputOf(message: Message): GuardrailInput {
  return { prompt: message.content ?? '', parts: message.parts ?? [] };
}

function rewritten<Deps>(guardrail: InputGuardrail<Deps>, input: GuardrailInput, value: unknown) {
  if (typeof value !== 'string')
    throw new GuardrailError({
      guardrail: guardrail.name,
      phase: 'input',
      outcome: 'failed',
      reason: 'it rewrote the prompt to something other than a string',
    });
  const message: Message = { role: 'user', content: value };
  if (input.parts.length > 0) message.parts = [...input.parts];
  return message;
}

/**
 * A `RunError` caused (through tool and correction wrappers, not through a nested run) by a
 * `GuardrailError`, restaged at `guardrail` with the same partial evidence; anything else as is.
 * Internal.
 */
export function atGuardrailStage(error: unknown): unknown {
  if (!RunError.is(error) || error.stage === 'guardrail') return error;
  const cause = findError(error.cause, (e) => GuardrailError.is(e), {
    stopAt: (e) => RunError.is(e),
  });
  if (cause === undefined) return error;
  const restaged = new RunError('guardrail', cause, error.partial);
  restaged.runId = error.runId;
  return restaged;
}
