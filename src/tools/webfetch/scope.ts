import { cancellationError, DeadlineExceededError } from '../../core/errors/cancellation';

/**
 * The life of one call: aborts when the caller's signal aborts, when the total timeout passes, or
 * when a connection stays idle too long. Every wait races it, and every socket is destroyed on it.
 * Internal.
 */
export class FetchScope {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort = (): void => {
    this.controller.abort(this.caller.reason);
  };

  constructor(
    private readonly caller: AbortSignal,
    timeout: number,
    url: string,
  ) {
    caller.addEventListener('abort', this.onCallerAbort, { once: true });
    if (timeout > 0) {
      this.timer = setTimeout(() => {
        this.abort(
          new DeadlineExceededError(
            `webfetch: ${url} took longer than the total timeout of ${timeout} ms`,
          ),
        );
      }, timeout);
    }
  }

  /** Aborts when the call must stop. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the call with `reason` (a deadline), unless it already stopped. */
  abort(reason: Error): void {
    this.controller.abort(reason);
  }

  /** The typed error for the stop: the caller's cancellation first, else the deadline. */
  error(): Error {
    if (this.caller.aborted) return cancellationError(this.caller);
    const reason: unknown = this.controller.signal.reason;
    return reason instanceof Error ? reason : cancellationError(this.controller.signal);
  }

  /** Throws {@link FetchScope.error} when the call has stopped. */
  check(): void {
    if (this.controller.signal.aborted) throw this.error();
  }

  /** Settles like `promise`, or rejects with {@link FetchScope.error} as soon as the call stops. */
  race<T>(promise: Promise<T>): Promise<T> {
    this.check();
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        reject(this.error());
      };
      this.signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          this.signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.signal.removeEventListener('abort', onAbort);
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- relays the original rejection unchanged
          reject(error);
        },
      );
    });
  }

  /** Releases the timer and the caller listener. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.caller.removeEventListener('abort', this.onCallerAbort);
  }
}
