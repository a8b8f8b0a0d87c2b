import { GolemError, brandGuard } from '../kit/error-base';
import type { SignalSource } from './run-signal';

/**
 * One model call (a provider attempt, including its whole stream) outlived the turn deadline
 * (`turnTimeout`). Retryable, so `maxAttempts` retries it; deliberately **not** a
 * `DeadlineExceededError` (a cancellation, never retried) — the run deadline still bounds
 * everything. The model's own error (usually its reaction to the aborted signal) is discarded.
 */
export class TurnTimeoutError extends GolemError {
  /** The turn deadline that passed, in ms. */
  readonly timeout: number;
  /** The 0-based model turn. */
  readonly turn: number;
  /** The 1-based provider attempt within the turn. */
  readonly attempt: number;
  /** Always `true`: a slow call is transient. */
  readonly retryable = true;

  constructor(model: string | undefined, timeout: number, turn: number, attempt: number) {
    super(
      'TurnTimeoutError',
      `model ${model === undefined ? '(unnamed)' : `"${model}"`} did not finish turn ${turn} (attempt ${attempt}) within its turnTimeout of ${timeout} ms; raise turnTimeout, or ask for less output (maxTokens)`,
    );
    this.timeout = timeout;
    this.turn = turn;
    this.attempt = attempt;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<TurnTimeoutError>('TurnTimeoutError');
}

/** The signal of one model call and what ends it. Internal. */
export interface TurnDeadline extends SignalSource {
  /**
   * The run's signal (read through, so a run nothing can abort creates it only when the call
   * reads it), or a child of it that also aborts when the turn deadline passes.
   */
  readonly signal: AbortSignal;
  /** The timeout error once the deadline has passed, else `undefined`. */
  readonly expired: () => TurnTimeoutError | undefined;
  /** Clears the timer and unlinks from the run signal. Idempotent; call once the call settles. */
  readonly release: () => void;
}

const NOTHING = (): undefined => undefined;

/** A call without a turn deadline: the run's own signal, read through (created only if read). */
class RunSignalThrough implements TurnDeadline {
  readonly expired = NOTHING;
  readonly release = NOTHING;

  constructor(private readonly source: SignalSource) {}

  get signal(): AbortSignal {
    return this.source.signal;
  }

  get deferred(): boolean | undefined {
    return this.source.deferred;
  }
}

/**
 * Starts the deadline of one model call. `timeout <= 0` means none: the call gets the run's own
 * signal (read through from `source`) and no controller or timer is made. Otherwise a child
 * controller aborts on the run's abort (with its reason) or, after `timeout` ms, with `error()`.
 */
export function startTurnDeadline(
  source: SignalSource,
  timeout: number,
  error: () => TurnTimeoutError,
): TurnDeadline {
  if (!(timeout > 0)) return new RunSignalThrough(source);
  const run = source.signal;
  const controller = new AbortController();
  const onRunAbort = (): void => {
    controller.abort(run.reason);
  };
  let passed: TurnTimeoutError | undefined;
  const timer = setTimeout(() => {
    passed = error();
    controller.abort(passed);
  }, Math.ceil(timeout));
  if (run.aborted) controller.abort(run.reason);
  else run.addEventListener('abort', onRunAbort, { once: true });
  return {
    signal: controller.signal,
    expired: () => passed,
    release: () => {
      clearTimeout(timer);
      run.removeEventListener('abort', onRunAbort);
    },
  };
}
