import type { Delta } from '../model/delta';
import { GolemError, describeError, hasKind } from '../model/error-base';
import { isErrorValue } from '../model/safe-inspect';

/** The consumer of a streaming run stopped iterating; the run ends at the `model` stage. */
export class StreamAbandonedError extends GolemError {
  constructor(message = 'the stream consumer stopped reading') {
    super('StreamAbandonedError', message);
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is StreamAbandonedError {
    return hasKind(value, 'StreamAbandonedError');
  }
}

/**
 * A buffered queue of deltas bridging the run (producer) and a `for await` consumer. The producer
 * never waits for the consumer, so awaiting only `result` cannot deadlock; a consumer that stops
 * (break, return, throw) makes the next `push` throw, which ends the run. Internal.
 */
export class DeltaQueue implements AsyncIterable<Delta> {
  private readonly buffer: Delta[] = [];
  private waiting: ((value: IteratorResult<Delta>) => void) | undefined;
  private closed = false;
  private abandoned = false;
  private iterated = false;

  /** Adds a delta; throws `StreamAbandonedError` once the consumer has stopped. */
  push(delta: Delta): void {
    if (this.abandoned) throw new StreamAbandonedError();
    if (this.closed) return;
    const waiting = this.waiting;
    if (waiting !== undefined) {
      this.waiting = undefined;
      waiting({ value: delta, done: false });
    } else {
      this.buffer.push(delta);
    }
  }

  /** Ends iteration after the buffered deltas. */
  close(): void {
    this.closed = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<Delta> {
    if (this.iterated) throw new TypeError('a run stream can be iterated once');
    this.iterated = true;
    return {
      next: () => {
        const next = this.buffer.shift();
        if (next !== undefined) return Promise.resolve({ value: next, done: false });
        if (this.closed || this.abandoned) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        this.abandon();
        return Promise.resolve({ value: undefined, done: true });
      },
      throw: (error: unknown) => {
        this.abandon();
        return Promise.reject(isErrorValue(error) ? error : new Error(describeError(error)));
      },
    };
  }

  private abandon(): void {
    if (!this.closed) this.abandoned = true;
    this.buffer.length = 0;
  }
}
