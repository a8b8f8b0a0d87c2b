import { cancellationError } from '../model/cancellation';
import { isRetryable, retryAfterOf } from '../model/errors';
import type { Delta } from '../model/delta';
import { isStreamingModel } from '../model/model';
import type { ModelRequest } from '../model/request';
import type { ModelResponse } from '../model/response';
import { AttemptsExhaustedError, ConfigError } from './errors';
import type { EngineConfig } from './run-config';
import type { RunState } from './run-state';
import { normaliseResponse } from './response';
import { planRetry } from './retry';
import { RetryAfterTooLongError } from './retry-after-error';
import { startTurnDeadline, TurnTimeoutError, type TurnDeadline } from './turn-deadline';

/**
 * Calls the model for one turn and returns the normalised response. Non-streaming turns retry
 * retryable failures up to `maxAttempts` with backoff; streaming turns are single-attempt. Each
 * call (stream included) is bounded by the turn deadline, whose expiry is a retryable
 * `TurnTimeoutError`. A provider asking to wait longer than `maxRetryWait` ends the retries with
 * `RetryAfterTooLongError`. Throws the cause (the caller wraps it in a `model`-stage RunError);
 * when the run's signal is aborted the signal's cancellation error is thrown instead.
 */
export async function modelTurn<Deps>(
  config: EngineConfig<Deps>,
  state: RunState<Deps>,
  turn: number,
  request: ModelRequest,
): Promise<ModelResponse> {
  const { signal, onDelta } = state.run;
  const attempts = onDelta === undefined ? config.maxAttempts : 1;
  for (let attempt = 1; ; attempt++) {
    if (state.observed) state.emit({ kind: 'model_start', turn, attempt });
    state.requests++;
    let response: ModelResponse;
    const deadline = startTurnDeadline(
      signal,
      state.run.turnTimeout,
      () => new TurnTimeoutError(config.model.name, state.run.turnTimeout, turn, attempt),
    );
    try {
      const raw: unknown =
        onDelta === undefined
          ? await config.model.generate(request, { signal: deadline.signal })
          : await streamTurn(config, state, request, onDelta, deadline);
      // A model that ignored its signal and answered late still timed out (as tools do).
      const late = deadline.expired();
      if (late !== undefined) throw late;
      response = normaliseResponse(raw, state.requests);
    } catch (caught) {
      deadline.release(); // before any retry wait
      const error = deadline.expired() ?? caught;
      const cause = signal.aborted ? cancellationError(signal) : error;
      if (state.observed)
        state.emit({
          kind: 'model_end',
          turn,
          attempt,
          usage: { inputTokens: 0, outputTokens: 0 },
          error: cause,
        });
      if (signal.aborted) throw cause;
      if (attempt >= attempts || !isRetryable(error))
        throw attempt > 1 ? new AttemptsExhaustedError('model', attempt, error) : error;
      const plan = planRetry(config.backoff, attempt, retryAfterOf(error), config.maxRetryWait);
      if (plan.refused !== undefined)
        throw new RetryAfterTooLongError({
          requested: plan.refused,
          allowed: config.maxRetryWait,
          attempts: attempt,
          cause: error,
        });
      await config.sleep(plan.wait, signal);
      continue;
    } finally {
      deadline.release();
    }
    if (state.observed)
      state.emit({ kind: 'model_end', turn, attempt, usage: { ...response.usage } });
    return response;
  }
}

/**
 * One streamed turn. The text streamed so far is remembered, so a turn that fails after the
 * caller saw part of an answer keeps that text in the partial evidence (`partial.interrupted`).
 */
async function streamTurn<Deps>(
  config: EngineConfig<Deps>,
  state: RunState<Deps>,
  request: ModelRequest,
  onDelta: (delta: Delta) => void | Promise<void>,
  deadline: TurnDeadline,
): Promise<ModelResponse> {
  const model = config.model;
  if (!isStreamingModel(model))
    throw new ConfigError(
      `model ${model.name ?? ''} does not support streaming`.replace('  ', ' '),
    );
  let streamed = '';
  try {
    const response = await model.stream(
      request,
      (delta) => {
        if (delta.content !== undefined) streamed += delta.content;
        return onDelta(delta);
      },
      { signal: deadline.signal },
    );
    const late = deadline.expired();
    if (late !== undefined) throw late;
    return response;
  } catch (error) {
    if (streamed !== '') state.interrupted = { role: 'assistant', content: streamed };
    throw error;
  }
}
