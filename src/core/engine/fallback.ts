import { cancellationError } from '../errors/cancellation';
import { GolemError, describeError, brandGuard } from '../kit/error-base';
import { ConfigError } from '../kit/config-error';
import { isRetryable, retryAfterOf } from '../errors/errors';
import type {
  DeltaHandler,
  FallbackTransition,
  GenerateOptions,
  Model,
  StreamingModel,
} from '../contract/model';
import { isStreamingModel } from '../contract/model';
import { isRecord } from '../kit/guards';
import { isWrappedModel, markWrapped } from './middleware-chain';
import type { ModelRequest } from '../contract/request';
import type { ModelResponse } from '../contract/response';

/** Options of a {@link FallbackModel}. */
export interface FallbackOptions {
  /** Whether to try the next model after `error`; default: when the error is retryable. */
  shouldFallback?: (error: unknown) => boolean;
}

/**
 * Every model of a fallback chain failed. Its message and `retryable` are the last failure's, so
 * it classifies like that failure; `errors` keeps every attempted model's error, in order.
 */
export class FallbackExhaustedError extends GolemError {
  readonly errors: readonly unknown[];
  readonly retryable: boolean;
  /**
   * The longest wait (ms) any member asked for, or `undefined` when none did. A retry restarts
   * the chain at the primary, so waiting this long never calls a member sooner than it asked.
   */
  readonly retryAfter: number | undefined;

  constructor(errors: readonly unknown[]) {
    const last = errors[errors.length - 1];
    super('FallbackExhaustedError', describeError(last), {
      cause: last,
    });
    this.errors = errors;
    this.retryable = isRetryable(last);
    this.retryAfter = longestWait(errors);
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<FallbackExhaustedError>('FallbackExhaustedError');
}

function longestWait(errors: readonly unknown[]): number | undefined {
  let longest: number | undefined;
  for (const error of errors) {
    const wait = retryAfterOf(error);
    if (wait !== undefined && (longest === undefined || wait > longest)) longest = wait;
  }
  return longest;
}

/** The fallback chain is misconfigured (missing members, or a non-streaming member asked to stream). */
function fallbackConfigError(message: string): ConfigError {
  return new ConfigError(message, { component: 'fallback' });
}

/**
 * Tries models in order: the first success wins; a failure the policy does not fall back on (by
 * default a non-retryable one) is returned unchanged; when every model failed, a
 * `FallbackExhaustedError` aggregates their errors. Cancellation stops the chain at once.
 * Streaming falls back only while no fragment has reached the caller.
 */
export class FallbackModel implements StreamingModel {
  readonly name: string;
  private readonly models: readonly Model[];
  private readonly shouldFallback: (error: unknown) => boolean;

  constructor(models: readonly Model[], options: FallbackOptions = {}) {
    if (!Array.isArray(models) || models.length < 2) {
      throw fallbackConfigError('FallbackModel needs a primary model and at least one alternate');
    }
    for (const [i, model] of models.entries()) {
      if (!isRecord(model) || typeof model.generate !== 'function') {
        throw fallbackConfigError(`FallbackModel member ${i} is not a model`);
      }
    }
    this.models = models.slice();
    this.shouldFallback = options.shouldFallback ?? isRetryable;
    this.name = `fallback(${this.models.map((m, i) => m.name ?? `#${i}`).join(', ')})`;
    // A member's middleware sees each call's scope, as the agent's own would.
    if (this.models.some(isWrappedModel)) markWrapped(this);
  }

  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    return this.attempt(options, (model) => model.generate(request, options));
  }

  async stream(
    request: ModelRequest,
    onDelta: DeltaHandler,
    options: GenerateOptions = {},
  ): Promise<ModelResponse> {
    const streaming = this.models.map((model, i) => {
      if (!isStreamingModel(model))
        throw fallbackConfigError(
          `FallbackModel member ${i} (${model.name ?? 'unnamed'}) does not support streaming`,
        );
      return model;
    });
    let forwarded = false;
    const forward: DeltaHandler = (delta) => {
      forwarded = true;
      return onDelta(delta);
    };
    return this.attempt(
      options,
      (_model, i) => (streaming[i] as StreamingModel).stream(request, forward, options),
      () => forwarded,
    );
  }

  private async attempt(
    { signal, onFallback }: GenerateOptions,
    call: (model: Model, index: number) => Promise<ModelResponse>,
    committed: () => boolean = () => false,
  ): Promise<ModelResponse> {
    const errors: unknown[] = [];
    for (const [i, model] of this.models.entries()) {
      try {
        return await call(model, i);
      } catch (error) {
        if (signal?.aborted === true) throw cancellationError(signal);
        errors.push(error);
        if (committed()) throw error;
        if (i === this.models.length - 1) throw new FallbackExhaustedError(errors);
        if (!this.shouldFallback(error)) throw error;
        if (onFallback !== undefined) announce(onFallback, this.models, i, error);
      }
    }
    throw fallbackConfigError('FallbackModel has no members');
  }
}

/** Tells `onFallback` that member `failed` gave way to the next; its exceptions are ignored. */
function announce(
  onFallback: (transition: FallbackTransition) => void,
  models: readonly Model[],
  failed: number,
  error: unknown,
): void {
  try {
    onFallback({
      from: models[failed]?.name ?? `#${failed}`,
      to: models[failed + 1]?.name ?? `#${failed + 1}`,
      index: failed + 1,
      error,
    });
  } catch {
    // Observers are advisory: they never change which model answers.
  }
}
