import { cancellationError } from '../errors/cancellation';
import { MAX_TIMEOUT_MS } from '../kit/timeouts';
import { agentConfigError } from './errors';

/** Milliseconds to wait after the 1-based `attempt` failed. */
export type Backoff = (attempt: number) => number;

/** Waits `ms` unless `signal` aborts first (then rejects with the typed cancellation error). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

const BASE_MS = 500;
const CAP_MS = 30_000;

/** Default `maxRetryWait`: the longest wait a provider may impose before a retry (60 s). */
export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;

/** Default backoff: 500 ms doubling per attempt, capped at 30 s (attempt < 1 → 500 ms). */
export const defaultBackoff: Backoff = (attempt) => {
  if (!Number.isFinite(attempt) || attempt < 1) return BASE_MS;
  if (attempt > 16) return CAP_MS;
  return Math.min(BASE_MS * 2 ** (attempt - 1), CAP_MS);
};

/**
 * A real timer honouring cancellation; the timer is always cleared. A wait of 0 or less (or `NaN`)
 * resolves without a timer; a wait longer than one Node timer can hold (`MAX_TIMEOUT_MS`) is
 * chained over several timers, so it never fires early.
 */
export const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(cancellationError(signal));
      return;
    }
    if (!(ms > 0)) {
      resolve();
      return;
    }
    let remaining = ms;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancellationError(signal));
    };
    const arm = (): void => {
      const step = Math.min(remaining, MAX_TIMEOUT_MS);
      remaining -= step;
      timer = setTimeout(() => {
        if (remaining > 0) {
          arm();
          return;
        }
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, Math.ceil(step));
    };
    arm();
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** What to do after a retryable failure: wait `wait` ms, or refuse the provider's longer wait. */
export type RetryPlan =
  | { readonly wait: number; readonly refused?: undefined }
  | { readonly refused: number; readonly wait?: undefined };

/**
 * The wait before retrying after the 1-based `attempt` failed. The backoff (the agent's own
 * policy) is bounded to [0, MAX_TIMEOUT_MS]; the provider's `retryAfter` (finite, >= 0) lengthens
 * it, but only up to `maxWait`: a provider asking for longer than both — or for `MAX_TIMEOUT_MS`
 * or more, which means "at least that long" — is refused, never retried early.
 */
export function planRetry(
  backoff: Backoff,
  attempt: number,
  retryAfter: number | undefined,
  maxWait: number,
): RetryPlan {
  const planned = backoffWait(backoff, attempt);
  if (retryAfter === undefined) return { wait: planned };
  if (retryAfter >= MAX_TIMEOUT_MS) return { refused: retryAfter };
  if (retryAfter <= planned) return { wait: planned };
  return retryAfter > maxWait ? { refused: retryAfter } : { wait: retryAfter };
}

/** The backoff's wait, bounded: negative → 0, above `MAX_TIMEOUT_MS` (or `Infinity`) → the maximum. */
function backoffWait(backoff: Backoff, attempt: number): number {
  const ms: unknown = backoff(attempt);
  if (typeof ms !== 'number' || Number.isNaN(ms)) {
    throw agentConfigError(
      `Agent \`retryBackoff\` returned ${String(ms)} for attempt ${attempt}; it must return a number of ms >= 0`,
    );
  }
  return Math.min(Math.max(0, ms), MAX_TIMEOUT_MS);
}
