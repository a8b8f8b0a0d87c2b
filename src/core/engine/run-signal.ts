import { DeadlineExceededError } from '../errors/cancellation';

/**
 * What gives a run's (or a call's) signal when asked: a run's settings, a turn deadline, an
 * `AbortController`. Internal.
 */
export interface SignalSource {
  readonly signal: AbortSignal;
  /** `true` while the signal does not exist yet (reading `signal` creates it); else absent or false. */
  readonly deferred?: boolean;
}

/** A run's cancellation as the engine checks it: `aborted` never creates the signal. Internal. */
export interface RunCancellation extends SignalSource {
  /** Whether the run is aborted, read without creating a signal nothing could abort. */
  readonly aborted: boolean;
}

/** Who a run belongs to and the stored conversation it continues, as its contexts report them. Internal. */
export interface RunScope {
  /** The run's `owner` option, if any. */
  readonly owner?: string | undefined;
  /** The run's `conversation` option, if any. */
  readonly conversationId?: string | undefined;
}

/**
 * `fields` (a fresh object, changed in place) with the run's `owner` and `conversationId` added
 * when it has them. In place, not a spread copy: a spread object stamped with a lazy signal costs
 * ~20× more. Internal.
 */
export function scoped<T extends object>(
  fields: T,
  scope: RunScope,
): T & { owner?: string; conversationId?: string } {
  const out = fields as T & { owner?: string; conversationId?: string };
  if (scope.owner !== undefined) out.owner = scope.owner;
  if (scope.conversationId !== undefined) out.conversationId = scope.conversationId;
  return out;
}

/** A run's signal and the function that releases what links it to its sources. */
export interface RunSignal extends RunCancellation {
  /** Removes the listener on the caller's signal and clears the deadline timers. Idempotent. */
  readonly release: () => void;
}

const NOTHING = (): void => undefined;

/** Whether `release` is the no-op of a run signal with nothing to unlink (no timer, no caller link). Internal. */
export function releasesNothing(release: (error?: unknown) => void): boolean {
  return release === NOTHING;
}

/**
 * Whether making an `AbortSignal` costs more than deferring it: on Node before 22 a signal is
 * made transferable in its constructor, ~4.5 µs (Node 20.20); Node 22 makes a controller and its
 * signal in ~80 ns and Node 24 in ~35 ns, less than the ~120 ns of the lazy `signal` accessor
 * each call's options and each tool context then need (`withLazySignal`; bench/RESULTS.md,
 * issue 35). Outside Node (a browser, another runtime) a run's signal is made at once. Internal.
 */
export const SIGNALS_ARE_COSTLY = ((): boolean => {
  const node = (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions
    ?.node;
  return typeof node === 'string' && Number.parseInt(node, 10) < 22;
})();

/**
 * The signal of a run with neither a caller's signal nor a deadline where signals are costly
 * ({@link SIGNALS_ARE_COSTLY}): nothing can abort it, so it is created on first read (by a tool's
 * `ctx.signal`, a model reading its call options, …) — most such runs never hand their signal out.
 * Each run still gets its own signal when read (never a shared one: listeners added to it must go
 * away with the run).
 */
class LazyRunSignal implements RunSignal {
  private created: AbortSignal | undefined;
  readonly release = NOTHING;

  get signal(): AbortSignal {
    return (this.created ??= new AbortController().signal);
  }

  get aborted(): boolean {
    return this.created?.aborted ?? false;
  }

  get deferred(): boolean {
    return this.created === undefined;
  }
}

/**
 * A signal the run only reads: the caller's, when the run has no deadline of its own, or the
 * run's own when nothing can abort it and signals are cheap to make.
 */
class PlainRunSignal implements RunSignal {
  readonly release = NOTHING;

  constructor(readonly signal: AbortSignal) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }
}

/**
 * The signal of one run: the caller's signal and any deadlines (ms) folded into one controller.
 * Unlike `AbortSignal.any`/`AbortSignal.timeout`, nothing stays attached to a long-lived caller
 * signal (a server's shutdown signal, say) once `release` runs, so runs never accumulate there.
 * Without a caller's signal or a deadline the run gets a signal of its own, which nothing aborts;
 * where signals are costly it is created on first read (see {@link LazyRunSignal}).
 */
export function linkRunSignal(
  caller: AbortSignal | undefined,
  deadlines: readonly number[],
): RunSignal {
  if (deadlines.length === 0) {
    if (caller !== undefined) return new PlainRunSignal(caller);
    return SIGNALS_ARE_COSTLY
      ? new LazyRunSignal()
      : new PlainRunSignal(new AbortController().signal);
  }
  const controller = new AbortController();
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
  return new LinkedRunSignal(controller.signal, () => {
    if (released) return;
    released = true;
    for (const timer of timers) clearTimeout(timer);
    caller?.removeEventListener('abort', onAbort);
  });
}

/** A run's own controller's signal, linked to the caller's signal and the deadlines. */
class LinkedRunSignal implements RunSignal {
  constructor(
    readonly signal: AbortSignal,
    readonly release: () => void,
  ) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }
}
