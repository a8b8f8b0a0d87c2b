import { cancellationError } from '../errors/cancellation';
import { isRetryable, retryAfterOf } from '../errors/errors';
import type { Delta } from '../contract/delta';
import type { GenerateOptions, Model } from '../contract/model';
import { isStreamingModel } from '../contract/model';
import type { ModelRequest } from '../contract/request';
import type { ModelResponse } from '../contract/response';
import { AttemptsExhaustedError, agentConfigError } from './errors';
import { UsageLimitError } from './usage-limit';
import type { EngineConfig, RunSettings } from './run-config';
import type { RunProgress } from './run-progress';
import { traced } from './instrumentation';
import { callOptions, endEvent, price } from './model-turn-events';
import { normaliseResponse } from './response';
import { planRetry } from './retry';
import { StreamCallIds } from './stream-call-ids';
import { StreamedText, streamedTextOf } from './streamed-text';
import { RetryAfterTooLongError } from './retry-after-error';
import { withLazySignal } from './lazy-signal';
import type { SignalSource } from './run-signal';
import { startTurnDeadline, TurnTimeoutError, type TurnDeadline } from './turn-deadline';

/**
 * Calls the model for one turn and returns the normalised response (a plain turn — see
 * {@link isPlainTurn} — is awaited by the loop itself: {@link plainCall}). Non-streaming turns retry
 * retryable failures up to `maxAttempts` with backoff; streaming turns are single-attempt. Each
 * call (stream included) is bounded by the turn deadline, whose expiry is a retryable
 * `TurnTimeoutError`. A provider asking to wait longer than `maxRetryWait` ends the retries with
 * `RetryAfterTooLongError`. Throws the cause (the caller wraps it in a `model`-stage RunError);
 * when the run's signal is aborted the signal's cancellation error is thrown instead.
 */
export function modelTurn<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  turn: number,
  request: ModelRequest,
): Promise<ModelResponse> {
  return modelAttempts(config, state, turn, request, 1);
}

/**
 * Whether a turn needs nothing but the call itself: not streamed, observed, traced, priced or
 * bounded by a turn deadline, and no middleware or call scope. Such a turn skips the per-attempt
 * machinery (events, deadline, options, trace scope) until its first attempt fails.
 */
export function isPlainTurn<Deps>(config: EngineConfig<Deps>, state: RunProgress<Deps>): boolean {
  const { run } = state;
  return (
    run.onDelta === undefined &&
    !state.observed &&
    config.prices === undefined &&
    !config.scoped &&
    run.middleware === undefined &&
    !(run.turnTimeout > 0) &&
    run.trace === undefined
  );
}

/**
 * A plain turn's first attempt: the model called directly, the caller normalising what it answers
 * (`normaliseResponse(raw, state.requests)`). A failure — a throw, a rejection, or a response that
 * does not normalise — goes to {@link plainTurnFailed}.
 */
export function plainCall<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  request: ModelRequest,
): Promise<unknown> {
  state.requests++;
  return config.model.generate(request, plainOptions(state));
}

/** A plain turn whose first attempt failed with `caught`: the full attempt loop from attempt 2. */
export async function plainTurnFailed<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  turn: number,
  request: ModelRequest,
  caught: unknown,
): Promise<ModelResponse> {
  await failedAttempt(config, state, turn, 1, config.maxAttempts, caught, undefined);
  return modelAttempts(config, state, turn, request, 2);
}

/**
 * The call options of a plain turn: only the run's signal, read through (created only if the
 * model reads it). One object per run, shared by its plain turns.
 */
function plainOptions<Deps>(state: RunProgress<Deps>): GenerateOptions {
  return (state.plainCallOptions ??= withLazySignal({}, state.run));
}

/** The attempts of a turn from `first` on, with events, deadlines, traces and retries. */
async function modelAttempts<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  turn: number,
  request: ModelRequest,
  first: number,
): Promise<ModelResponse> {
  const { onDelta } = state.run;
  const attempts = onDelta === undefined ? config.maxAttempts : 1;
  const modelName = config.model.name;
  for (let attempt = first; ; attempt++) {
    if (state.observed)
      state.emit(
        state.contextTokens === undefined
          ? { kind: 'model_start', turn, attempt, model: modelName, request }
          : {
              kind: 'model_start',
              turn,
              attempt,
              model: modelName,
              request,
              contextTokens: state.contextTokens,
            },
      );
    state.requests++;
    // Which model answers: the agent's, or the member a FallbackModel moved on to.
    const answering = { name: modelName };
    const options = callOptions(config, state, turn, attempt, answering);
    let response: ModelResponse;
    const deadline = startTurnDeadline(
      state.run,
      state.run.turnTimeout,
      () => new TurnTimeoutError(config.model.name, state.run.turnTimeout, turn, attempt),
    );
    try {
      const call = (): Promise<unknown> =>
        onDelta === undefined
          ? modelOf(config, state.run).generate(request, withSignal(options, deadline))
          : streamTurn(config, state, request, onDelta, deadline, options);
      const raw: unknown = await traced(state.run.trace, { kind: 'model', turn, attempt }, call);
      // A model that ignored its signal and answered late still timed out (as tools do).
      const late = deadline.expired();
      if (late !== undefined) throw late;
      response = normaliseResponse(raw, state.requests);
    } catch (caught) {
      await failedAttempt(config, state, turn, attempt, attempts, caught, deadline);
      continue;
    } finally {
      deadline.release();
    }
    const cost =
      config.prices === undefined ? undefined : price(config, state, response, answering);
    if (state.observed) state.emit(endEvent(turn, attempt, modelName, response, cost));
    return response;
  }
}

/**
 * What follows a failed attempt: the `model_end` event, then the error to throw (the run was
 * cancelled, the attempts are spent, the error is not retryable, or the provider asks to wait
 * longer than `maxRetryWait`), else the backoff wait before the next attempt.
 */
async function failedAttempt<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  turn: number,
  attempt: number,
  attempts: number,
  caught: unknown,
  deadline: TurnDeadline | undefined,
): Promise<void> {
  deadline?.release(); // before any retry wait
  const error = deadline?.expired() ?? caught;
  const cause = state.run.aborted ? cancellationError(state.run.signal) : error;
  if (state.observed)
    state.emit({
      kind: 'model_end',
      turn,
      attempt,
      usage: { inputTokens: 0, outputTokens: 0 },
      error: cause,
      model: config.model.name,
    });
  if (state.run.aborted) throw cause;
  if (attempt >= attempts || !isRetryable(error))
    throw attempt > 1 && !UsageLimitError.is(error)
      ? new AttemptsExhaustedError('model', attempt, error)
      : error;
  const plan = planRetry(config.backoff, attempt, retryAfterOf(error), config.maxRetryWait);
  if (plan.refused !== undefined)
    throw new RetryAfterTooLongError({
      requested: plan.refused,
      allowed: config.maxRetryWait,
      attempts: attempt,
      cause: error,
    });
  await config.sleep(plan.wait, state.run.signal);
}

/**
 * One streamed turn. The text streamed so far is remembered, so a turn that fails after the
 * caller saw part of an answer keeps that text in the partial evidence (`partial.interrupted`).
 * Each call's first fragment carries the id the committed message will have (see `StreamCallIds`).
 */
async function streamTurn<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  request: ModelRequest,
  onDelta: (delta: Delta) => void | Promise<void>,
  deadline: TurnDeadline,
  options: GenerateOptions | undefined,
): Promise<ModelResponse> {
  const model = modelOf(config, state.run);
  if (!isStreamingModel(model))
    throw agentConfigError(
      `model ${model.name ?? ''} does not support streaming`.replace('  ', ' '),
    );
  // The text streamed so far: the handler's own record when it keeps one (a run stream's), else
  // the engine's.
  const recorded = streamedTextOf(onDelta);
  const streamed = recorded ?? new StreamedText();
  const own = recorded === undefined ? streamed : undefined;
  let ids: StreamCallIds | undefined;
  try {
    const response = await model.stream(
      request,
      (delta) => {
        own?.add(delta.content);
        if (delta.toolCalls !== undefined) {
          ids ??= new StreamCallIds(state.requests);
          return onDelta(ids.fill(delta));
        }
        return onDelta(delta);
      },
      withSignal(options, deadline),
    );
    const late = deadline.expired();
    if (late !== undefined) throw late;
    return response;
  } catch (error) {
    const text = streamed.text();
    if (text !== '') state.interrupted = { role: 'assistant', content: text };
    throw error;
  }
}

/**
 * The call options: the attempt's signal, plus `options` when the run needs more. `signal` is an
 * own enumerable accessor (it survives a spread): a run that nothing can abort creates its signal
 * only when the model reads it.
 */
function withSignal(options: GenerateOptions | undefined, source: SignalSource): GenerateOptions {
  // Built field by field: a spread copy stamped with the lazy signal costs ~30× more.
  const copy: GenerateOptions = {};
  if (options !== undefined) {
    if (options.onFallback !== undefined) copy.onFallback = options.onFallback;
    if (options.scope !== undefined) copy.scope = options.scope;
  }
  return withLazySignal(copy, source);
}

/** The model a run calls: the agent's, inside the run's own middleware when it has some. */
function modelOf<Deps>(config: EngineConfig<Deps>, run: RunSettings<Deps>): Model {
  return run.middleware === undefined ? config.model : run.middleware.wrapped(config.model);
}
