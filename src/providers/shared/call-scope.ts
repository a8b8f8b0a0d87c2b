import { cancellationError } from '../../core/errors/cancellation';
import { ModelTransportError } from '../../core/errors/provider-errors';

/** Options of {@link CallScope}. */
export interface CallScopeOptions {
  /** Provider name for errors. */
  provider: string;
  /** The adapter's whole-call timeout in ms (request, response and stream); 0 = none. */
  timeout: number;
  /** The caller's signal. */
  signal?: AbortSignal;
}

/**
 * One provider call's lifetime: the caller's signal combined with the adapter's own timeout, in
 * one `AbortController` whose timer is cleared and whose listener on the caller's signal is
 * removed when the call settles — so a completed call retains nothing (no timer or
 * `AbortSignal.timeout` kept alive for the rest of the timeout window, no listener piling up on
 * a long-lived caller signal).
 *
 * Errors leave {@link CallScope.run} classified: the caller's abort as the signal's cancellation
 * error; the adapter's timeout as a retryable `ModelTransportError`; anything else as is.
 */
export class CallScope {
  /** Aborts on the caller's abort, on the adapter's timeout, and when the call fails. */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timedOut = false;
  private readonly onCallerAbort: (() => void) | undefined;

  constructor(private readonly options: CallScopeOptions) {
    this.signal = this.controller.signal;
    const caller = options.signal;
    if (caller !== undefined) {
      if (caller.aborted) {
        this.controller.abort(caller.reason);
      } else {
        this.onCallerAbort = () => {
          this.controller.abort(caller.reason);
        };
        caller.addEventListener('abort', this.onCallerAbort, { once: true });
      }
    }
    if (options.timeout > 0 && !this.controller.signal.aborted) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort(new Error(`adapter timeout of ${options.timeout} ms`));
      }, options.timeout);
    }
  }

  /**
   * Runs `work` under the call's signal and releases the call afterwards, whatever happens. A
   * failure aborts the signal (so an unread body is released). Errors `asIs` accepts (a delta
   * handler's own error) are rethrown unchanged.
   */
  async run<T>(
    work: (signal: AbortSignal) => Promise<T>,
    asIs: (error: unknown) => boolean = () => false,
  ): Promise<T> {
    try {
      this.throwIfStopped();
      return await work(this.signal);
    } catch (error) {
      throw this.classify(error, asIs);
    } finally {
      this.release();
    }
  }

  /** Clears the timer and removes the caller listener; idempotent. */
  release(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.onCallerAbort !== undefined)
      this.options.signal?.removeEventListener('abort', this.onCallerAbort);
  }

  private throwIfStopped(): void {
    const caller = this.options.signal;
    if (caller?.aborted === true) throw cancellationError(caller);
  }

  private classify(error: unknown, asIs: (error: unknown) => boolean): unknown {
    const timedOut = this.timedOut;
    if (!this.controller.signal.aborted) this.controller.abort();
    if (asIs(error)) return error;
    const caller = this.options.signal;
    if (caller?.aborted === true) return cancellationError(caller);
    if (timedOut)
      return new ModelTransportError(
        this.options.provider,
        `no complete response within the adapter timeout of ${this.options.timeout} ms`,
      );
    return error;
  }
}
