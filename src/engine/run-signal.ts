import { DeadlineExceededError } from '../model/cancellation';

/** A run's signal and the function that releases what links it to its sources. */
export interface RunSignal {
  readonly signal: AbortSignal;
  /** Removes the listener on the caller's signal and clears the deadline timers. Idempotent. */
  readonly release: () => void;
}

const NOTHING = (): void => undefined;

/**
 * The signal of one run: the caller's signal and any deadlines (ms) folded into one controller.
 * Unlike `AbortSignal.any`/`AbortSignal.timeout`, nothing stays attached to a long-lived caller
 * signal (a server's shutdown signal, say) once `release` runs, so runs never accumulate there.
 */
export function linkRunSignal(
  caller: AbortSignal | undefined,
  deadlines: readonly number[],
): RunSignal {
  if (deadlines.length === 0 && caller !== undefined) return { signal: caller, release: NOTHING };
  const controller = new AbortController();
  if (caller === undefined && deadlines.length === 0)
    return { signal: controller.signal, release: NOTHING };
  const timers = deadlines.map((ms) =>
    setTimeout(() => {
      controller.abort(new DeadlineExceededError(`run exceeded its timeout of ${ms} ms`));
    }, Math.ceil(ms)),
  );
  const onAbort = (): void => {
    controller.abort(caller?.reason);
  };
  if (caller?.aborted === true) controller.abort(caller.reason);
  else caller?.addEventListener('abort', onAbort, { once: true });
  let released = false;
  return {
    signal: controller.signal,
    release: () => {
      if (released) return;
      released = true;
      for (const timer of timers) clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}
