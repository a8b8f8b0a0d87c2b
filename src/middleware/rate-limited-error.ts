import { GolemError, brandGuard } from '../core/kit/error-base';

/** Which bound kept a call waiting. */
export type RateLimitKind = 'requests' | 'tokens' | 'provider';

/**
 * A model call could not start within `rateLimit()`'s `maxWait`: its key (`openai:gpt-4o`, a
 * provider, your own) has used its requests or tokens for the interval, or the provider asked
 * every worker to wait (its rate-limit headers, a 429). Retryable: the engine's retries wait
 * `retryAfter` ms (the time until the limit frees up) before trying again.
 */
export class RateLimitedError extends GolemError {
  /** The rate limit's key. */
  readonly key: string;
  /** The bound that was reached. */
  readonly limitKind: RateLimitKind;
  /** Always true: trying again after `retryAfter` may succeed. */
  readonly retryable = true;
  /** Until the limit frees up, in ms. */
  readonly retryAfter: number;

  constructor(key: string, limitKind: RateLimitKind, retryAfter: number, maxWait: number) {
    super(
      'RateLimitedError',
      `rate limit on ${JSON.stringify(key)} (${limitKind}) frees up in ${retryAfter} ms, ` +
        `longer than maxWait ${maxWait} ms`,
    );
    this.key = key;
    this.limitKind = limitKind;
    this.retryAfter = retryAfter;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<RateLimitedError>('RateLimitedError');
}
