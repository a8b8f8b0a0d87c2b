/**
 * The reader side of a run stream's pull views (the deltas, `events`, `textStream`): what the run
 * made and the reader has not taken, and the read that waits. Internal.
 */

/** A fresh end-of-iteration result (never shared: a caller may keep or change it). */
export function done(): IteratorResult<never> {
  return { value: undefined, done: true };
}

/** A settled promise: what a deferred hand-over is chained on (a reaction, no promise of its own). */
const SETTLED = Promise.resolve();

/**
 * How many values in a row a waiting reader is handed at once before the next one is handed over
 * one microtask later (see {@link Reader}).
 */
const DEFER_EVERY = 64;

/**
 * The reader of a pull view: values made while it is busy queue — the first in a slot of its own
 * (a reader one value behind the run, the usual case, never touches the array), the rest in an
 * array. A value made while it waits is handed to it at once, except the first and then one in
 * {@link DEFER_EVERY}: that one is handed over a microtask later, after the producer's own next
 * step. A producer that makes a value per microtask (an instant model awaiting its callback) has
 * then made the next one by the time the reader asks, and from then on the reader stays one value
 * behind and takes each ready (a resolved promise) instead of waiting on a pending promise — with
 * its two resolving functions — per value. A slower producer (a provider's stream: each fragment
 * finds the reader waiting) pays that microtask once in {@link DEFER_EVERY} values. Internal.
 */
export class Reader<T> {
  private slot: T | undefined;
  private held = false;
  private queue: T[] = [];
  private head = 0;
  /** A value came while the reader waited: {@link wake} hands it over. */
  private waking = false;
  /** Values a waiting reader is still handed at once before one is handed over later. */
  private direct = 0;
  ended = false;
  resolve: ((value: IteratorResult<T>) => void) | undefined;
  reject: ((error: unknown) => void) | undefined;

  /** Answers the waiting read with the first value not read (made once per reader). */
  private readonly wake = (): void => {
    this.waking = false;
    const resolve = this.resolve;
    if (resolve === undefined) return; // dropped meanwhile
    const step = this.take();
    if (step === undefined) return;
    this.resolve = this.reject = undefined;
    resolve(step);
  };

  /** A read waits and no value is on its way to it (the end may answer it). */
  get waiting(): boolean {
    return this.resolve !== undefined && !this.waking;
  }

  push(value: T): void {
    const resolve = this.resolve;
    if (resolve !== undefined && !this.waking) {
      if (this.direct > 0) {
        // A waiting reader has taken everything: this value is next.
        this.direct -= 1;
        this.resolve = this.reject = undefined;
        resolve({ value, done: false });
        return;
      }
      this.direct = DEFER_EVERY;
      this.waking = true;
      void SETTLED.then(this.wake);
    }
    if (!this.held && this.head === this.queue.length) {
      this.slot = value;
      this.held = true;
    } else this.queue.push(value);
  }

  /** The next value made and not read, if any. */
  take(): IteratorResult<T> | undefined {
    if (this.held) {
      const value = this.slot as T;
      this.slot = undefined;
      this.held = false;
      return { value, done: false };
    }
    const queue = this.queue;
    if (this.head >= queue.length) return undefined;
    const value = queue[this.head++] as T;
    // Drained: emptied in place, so read values are not kept alive (no array per refill).
    if (this.head === queue.length) {
      queue.length = 0;
      this.head = 0;
    }
    return { value, done: false };
  }

  /**
   * Ends a waiting read with `result` — unless a value is on its way to it: the read gets that,
   * and the reads after it what follows (the end, once the values are read).
   */
  finish(result: IteratorResult<T>): void {
    if (this.waking) return;
    const resolve = this.resolve;
    this.resolve = this.reject = undefined;
    resolve?.(result);
  }

  /** The reader stopped: what it did not read is dropped, and a waiting read ends. */
  drop(): void {
    this.ended = true;
    this.slot = undefined;
    this.held = false;
    this.queue = [];
    this.head = 0;
    this.waking = false;
    this.finish(done());
  }
}
