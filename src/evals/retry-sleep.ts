/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** The first wait between a task's attempts, in ms; each later wait doubles. */
const FIRST_DELAY = 250;

/** The wait after failed attempt `attempt` (from 1): 250 ms, 500 ms, 1 s… */
export function retryDelay(attempt: number): number {
  return FIRST_DELAY * 2 ** (attempt - 1);
}

/** The default {@link Sleep}: a timer cleared when the signal aborts. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
