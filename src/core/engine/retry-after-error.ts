import { causeText } from '../kit/cause-text';
import { GolemError, brandGuard } from '../kit/error-base';
import { MAX_TIMEOUT_MS } from '../kit/timeouts';

/** What a `RetryAfterTooLongError` is built from. */
export interface RetryAfterTooLongInit {
  /** The wait the provider asked for, in ms (`MAX_TIMEOUT_MS` means "at least that long"). */
  requested: number;
  /** The agent's `maxRetryWait`, in ms. */
  allowed: number;
  /** Provider attempts made for the turn. */
  attempts: number;
  /** The provider's error that asked for the wait. */
  cause: unknown;
}

/**
 * A retryable model failure asked to wait longer than the agent's `maxRetryWait` before the next
 * attempt, so the engine gave up instead of retrying sooner than asked. `cause` is the provider's
 * error. It stays retryable and carries `retryAfter` (= `requested`), so a caller that can wait —
 * a job queue, say — may schedule the retry itself.
 */
export class RetryAfterTooLongError extends GolemError {
  /** The wait the provider asked for, in ms (`MAX_TIMEOUT_MS` means "at least that long"). */
  readonly requested: number;
  /** The agent's `maxRetryWait`, in ms. */
  readonly allowed: number;
  /** Provider attempts made for the turn before giving up. */
  readonly attempts: number;
  /** Same as `requested`: when a later retry may be made. */
  readonly retryAfter: number;
  /** Always `true`: the failure is transient, only the wait is too long for this run. */
  readonly retryable = true;

  constructor(init: RetryAfterTooLongInit) {
    const asked = init.requested >= MAX_TIMEOUT_MS ? 'at least ' : '';
    super(
      'RetryAfterTooLongError',
      `the provider asked to wait ${asked}${init.requested} ms before retrying (after attempt ${init.attempts}), longer than maxRetryWait (${init.allowed} ms); giving up instead of retrying early — raise maxRetryWait or retry later: ${causeText(init.cause)}`,
      { cause: init.cause },
    );
    this.requested = init.requested;
    this.allowed = init.allowed;
    this.attempts = init.attempts;
    this.retryAfter = init.requested;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<RetryAfterTooLongError>('RetryAfterTooLongError');
}
