import type { Cost } from '../contract/cost';
import type { CallScope, GenerateOptions } from '../contract/model';
import { modelRef } from '../contract/model-name';
import type { ModelResponse } from '../contract/response';
import type { ModelEndSucceeded } from './events';
import type { EngineConfig } from './run-config';
import type { RunProgress } from './run-progress';

/** The model a turn's attempt is answered by: the agent's, or a fallback member. Internal. */
export interface Answering {
  name: string | undefined;
}

/**
 * The provider-call options of one attempt beyond its signal: `onFallback` when the run is
 * observed (the `fallback` event) or priced (a fallback member is priced as itself), `scope` when
 * the model goes through middleware; `undefined` otherwise (the common case allocates nothing).
 * Internal.
 */
export function callOptions<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  turn: number,
  attempt: number,
  answering: Answering,
): GenerateOptions | undefined {
  if (!state.observed && config.prices === undefined)
    return config.scoped || state.run.middleware !== undefined
      ? { scope: callScope(state, turn, attempt) }
      : undefined;
  const options: GenerateOptions = {
    onFallback: (transition) => {
      answering.name = transition.to;
      if (state.observed)
        state.emit({
          kind: 'fallback',
          turn,
          attempt,
          model: transition.from,
          nextModel: transition.to,
          error: transition.error,
        });
    },
  };
  if (config.scoped || state.run.middleware !== undefined)
    options.scope = callScope(state, turn, attempt);
  return options;
}

/** Who a call is for, from the run's origin. Internal. */
export function callScope<Deps>(
  state: RunProgress<Deps>,
  turn: number,
  attempt: number,
): CallScope {
  const { agent, runId, owner, conversationId } = state.origin;
  const scope: { -readonly [K in keyof CallScope]: CallScope[K] } = { agent, turn, attempt };
  if (runId !== undefined) scope.runId = runId;
  if (owner !== undefined) scope.owner = owner;
  if (conversationId !== undefined) scope.conversationId = conversationId;
  return scope;
}

/**
 * Prices one successful response with the agent's table and adds it to the run's cost. A table
 * that throws or returns something that is not a cost leaves the response unpriced: accounting
 * never fails a run. Internal.
 */
export function price<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  response: ModelResponse,
  answering: Answering,
): Cost | undefined {
  const prices = config.prices;
  if (prices === undefined) return undefined;
  const currency = prices.currency ?? 'USD';
  const ref = modelRef(answering.name);
  let cost: Cost | undefined;
  try {
    const found = prices.cost(response.usage, {
      provider: ref.provider,
      model: ref.model,
      ...(response.modelName !== undefined && { responseModel: response.modelName }),
    });
    cost = isCost(found) ? found : undefined;
    state.addCost(cost, currency);
  } catch {
    cost = undefined;
    state.addCost(undefined, currency);
  }
  return cost;
}

function isCost(value: unknown): value is Cost {
  if (typeof value !== 'object' || value === null) return false;
  const { total, input, output, currency } = value as Record<string, unknown>;
  return (
    [total, input, output].every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0) &&
    typeof currency === 'string'
  );
}

/** The `model_end` event of a successful attempt. Internal. */
export function endEvent(
  turn: number,
  attempt: number,
  model: string | undefined,
  response: ModelResponse,
  cost: Cost | undefined,
): ModelEndSucceeded {
  const event: ModelEndSucceeded = {
    kind: 'model_end',
    turn,
    attempt,
    usage: { ...response.usage },
    model,
    message: response.message,
  };
  if (response.responseId !== undefined) event.responseId = response.responseId;
  if (response.modelName !== undefined) event.responseModel = response.modelName;
  if (response.finishReason !== undefined) event.finishReason = response.finishReason;
  if (cost !== undefined) event.cost = { ...cost };
  return event;
}
