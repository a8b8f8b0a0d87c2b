import { cancellationError, DeadlineExceededError } from '../core/errors/cancellation';
import { MAX_TIMEOUT_MS } from '../core/kit/timeouts';

/**
 * A request deadline of our own (the SDK's timeout error is a JSON-RPC code a server could also
 * send): `signal` aborts when the caller's signal does or `ms` pass, and {@link Deadline.settle}
 * turns a failure into the caller's cancellation error, the deadline error, or `undefined`.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly timer: AbortController;
  private readonly handle: NodeJS.Timeout | undefined;
  private readonly outer: AbortSignal | undefined;

  constructor(outer: AbortSignal | undefined, ms: number, message: string) {
    this.outer = outer;
    this.timer = new AbortController();
    this.handle =
      ms >= MAX_TIMEOUT_MS
        ? undefined
        : setTimeout(() => {
            this.timer.abort(new DeadlineExceededError(message));
          }, ms);
    this.signal =
      outer === undefined ? this.timer.signal : AbortSignal.any([outer, this.timer.signal]);
  }

  /** The cancellation error to throw for a failed request, if the failure came from aborting. */
  settle(): Error | undefined {
    if (this.outer?.aborted === true) return cancellationError(this.outer);
    if (this.timer.signal.aborted) return cancellationError(this.timer.signal);
    return undefined;
  }

  /** Stops the timer. */
  clear(): void {
    clearTimeout(this.handle);
  }
}

/** The timeout to hand the SDK so that its own timer never fires before ours. */
export const SDK_TIMEOUT = MAX_TIMEOUT_MS;

/** Waits for `work`, but rejects with the cancellation error as soon as `signal` aborts. */
export async function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw cancellationError(signal);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      reject(cancellationError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
