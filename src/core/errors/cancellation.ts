import { GolemError, hasKind, brandGuard, brandOf } from '../kit/error-base';
import { errorChain } from '../kit/error-chain';
import { safeGet } from '../kit/safe-inspect';

/** The run (or a call) was cancelled through its `AbortSignal`. `cause` is the signal's reason. */
export class CancelledError extends GolemError {
  constructor(message = 'operation was cancelled', options?: { cause?: unknown }) {
    super('CancelledError', message, options);
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<CancelledError>('CancelledError');
}

/** A deadline passed: a run deadline, a tool timeout, or an `AbortSignal.timeout`. */
export class DeadlineExceededError extends GolemError {
  constructor(message = 'deadline exceeded', options?: { cause?: unknown }) {
    super('DeadlineExceededError', message, options);
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<DeadlineExceededError>('DeadlineExceededError');
}

/** Whether `value` is an object whose `name` is `name` (an unreadable name is not). */
function isNamed(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && safeGet(value, 'name') === name;
}

/**
 * The kind of the engine's `StreamAbandonedError` (a streaming run's consumer stopped reading):
 * a cancellation too, and kept as the cause when a run's signal is aborted with it.
 */
const STREAM_ABANDONED = 'StreamAbandonedError';

/** Whether the chain of `error` contains a cancellation or a deadline (ours or a DOM abort). */
export function isCancellation(error: unknown): boolean {
  for (const e of errorChain(error)) {
    if (
      CancelledError.is(e) ||
      hasKind(e, STREAM_ABANDONED) ||
      DeadlineExceededError.is(e) ||
      isNamed(e, 'AbortError') ||
      isNamed(e, 'TimeoutError')
    ) {
      return true;
    }
  }
  return false;
}

/** Whether the chain of `error` contains a deadline (ours or a DOM `TimeoutError`). */
export function isDeadlineExceeded(error: unknown): boolean {
  for (const e of errorChain(error))
    if (DeadlineExceededError.is(e) || isNamed(e, 'TimeoutError')) return true;
  return false;
}

/**
 * The typed error for an aborted signal: its reason when that is already one of ours (a
 * cancellation, a deadline, or a stream consumer that stopped reading), a `DeadlineExceededError`
 * for a timeout reason, otherwise a `CancelledError` whose cause is the reason.
 */
export function cancellationError(signal: AbortSignal): CancelledError | DeadlineExceededError {
  const reason: unknown = signal.reason;
  if (CancelledError.is(reason) || DeadlineExceededError.is(reason)) return reason;
  if (brandOf(reason) === STREAM_ABANDONED) return reason as CancelledError;
  if (isNamed(reason, 'TimeoutError'))
    return new DeadlineExceededError('deadline exceeded', { cause: reason });
  return new CancelledError('operation was cancelled', { cause: reason });
}

/** Throws the typed cancellation error when `signal` is aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw cancellationError(signal);
}
