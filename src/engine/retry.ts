import { cancellationError } from '../model/cancellation';

/** Milliseconds to wait after the 1-based `attempt` failed. */
export type Backoff = (attempt: number) => number;

/** Waits `ms` unless `signal` aborts first (then rejects with the typed cancellation error). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

const BASE_MS = 500;
const CAP_MS = 30_000;

/** Default backoff: 500 ms doubling per attempt, capped at 30 s (attempt < 1 → 500 ms). */
export const defaultBackoff: Backoff = (attempt) => {
  if (!Number.isFinite(attempt) || attempt < 1) return BASE_MS;
  if (attempt > 16) return CAP_MS;
  return Math.min(BASE_MS * 2 ** (attempt - 1), CAP_MS);
};

/** A real timer honouring cancellation; the timer is always cleared. */
export const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(cancellationError(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancellationError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** The wait before retrying: the provider's `retryAfter` when it asks for longer than the backoff. */
export function retryDelay(
  backoff: Backoff,
  attempt: number,
  retryAfter: number | undefined,
): number {
  const planned = backoff(attempt);
  return retryAfter !== undefined && retryAfter > planned ? retryAfter : planned;
}
