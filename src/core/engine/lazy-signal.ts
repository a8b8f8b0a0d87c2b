import type { SignalSource } from './run-signal';

/**
 * Lets a subclass stamp its private fields onto an object it did not create (the constructor
 * returns `target`, so `new` yields `target` itself, still a plain object).
 */
class Stamp {
  constructor(target: object) {
    return target;
  }
}

/** What assigning `signal` does: the accessor gives way to the plain value, as on a plain object. */
function assignSignal(target: object, value: unknown): void {
  Object.defineProperty(target, 'signal', {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** The `signal` accessor every lazy object shares (no closure per object). */
let SIGNAL!: PropertyDescriptor;

/** Where a lazy object's signal comes from, kept in a private field invisible to callers. */
class SignalLink extends Stamp {
  readonly #source: SignalSource;

  constructor(target: object, source: SignalSource) {
    super(target);
    this.#source = source;
  }

  static {
    SIGNAL = {
      get(this: SignalLink): AbortSignal {
        return this.#source.signal;
      },
      set(this: object, value: unknown): void {
        assignSignal(this, value);
      },
      enumerable: true,
      configurable: true,
    };
  }
}

/**
 * Gives `target` (a fresh plain object) an own enumerable `signal` that reads `source.signal`
 * when first read, so a spread, `Object.assign` or a plain read sees the signal while a run that
 * nothing can abort creates its signal only if someone reads it (see `linkRunSignal`). Assigning
 * `signal` replaces the accessor with the value, as on a plain object. Cheaper than an object
 * literal with accessors on V8 (one shared descriptor, no closure per object), and far cheaper
 * than an `AbortController` and its signal (~3 µs on Node 20). When the signal exists already,
 * `signal` is a plain data property. Internal.
 */
export function withLazySignal<T extends object>(
  target: T,
  source: SignalSource,
): T & { signal: AbortSignal } {
  if (source.deferred !== true) {
    // The signal exists already (a caller's, a deadline's, or one read earlier): a plain value.
    (target as { signal?: AbortSignal }).signal = source.signal;
    return target as T & { signal: AbortSignal };
  }
  new SignalLink(target, source);
  Object.defineProperty(target, 'signal', SIGNAL);
  return target as T & { signal: AbortSignal };
}
