import type { Delta } from '../contract/delta';
import { describeError } from '../kit/error-base';
import { isErrorValue } from '../kit/safe-inspect';
import { StreamAbandonedError } from './delta-stream';
import { RunError } from './errors';
import type { RunEvent } from './events';
import type { Result } from './result';
import type { RunStreamEvent } from './stream-event-types';
import { StreamEventBuilder } from './stream-events';

/** How a run ended, as the feed learns it. Internal. */
export type RunStreamOutcome<Output> =
  | { readonly ok: true; readonly result: Result<Output> }
  | { readonly ok: false; readonly error: unknown };

/** The ways to read a run stream; a stream has one reader. */
type View = 'deltas' | 'events' | 'text';

const VIEW_NAMES: Record<View, string> = {
  deltas: 'iterating the stream (deltas)',
  events: 'stream.events',
  text: 'stream.textStream',
};

/** A run event kept in the feed between deltas (deltas are stored as they are). */
class Observed {
  constructor(readonly event: RunEvent) {}
}

/** Takes a view's values as they are made. */
interface Sink<T> {
  push(value: T): unknown;
}

/** Turns the feed's items into one view's values; `end` may throw to reject the reader. */
interface Translator<T> {
  delta(delta: Delta, out: Sink<T>): void;
  event(event: RunEvent, out: Sink<T>): void;
  end(outcome: RunStreamOutcome<unknown>, out: Sink<T>): void;
}

/** The typed events: everything, then `finish` or `error` (a failure that is no RunError rejects). */
class EventsTranslator<Output>
  extends StreamEventBuilder<Output>
  implements Translator<RunStreamEvent<Output>>
{
  end(outcome: RunStreamOutcome<unknown>, out: Sink<RunStreamEvent<Output>>): void {
    if (outcome.ok) this.finish(outcome.result as Result<Output>, out);
    else if (RunError.is(outcome.error)) this.fail(outcome.error, out);
    else throw outcome.error;
  }
}

/** The answer's text; a turn's text is set apart from an earlier turn's by a blank line. */
function textTranslator(): Translator<string> {
  let sawText = false;
  let newTurn = false;
  return {
    delta: (delta, out) => {
      const text = delta.content;
      if (typeof text !== 'string' || text === '') return;
      if (newTurn) out.push('\n\n');
      newTurn = false;
      sawText = true;
      out.push(text);
    },
    event: (event) => {
      if (event.kind === 'model_start' && sawText) newTurn = true;
    },
    end: () => undefined,
  };
}

/**
 * The reader of a translated view: while it waits, the first value made is handed to it at once;
 * values made while it is busy queue. Internal.
 */
class Reader<T> implements Sink<T> {
  private queue: T[] = [];
  private head = 0;
  ended = false;
  resolve: ((value: IteratorResult<T>) => void) | undefined;
  reject: ((error: unknown) => void) | undefined;

  constructor(readonly translator: Translator<T>) {}

  push(value: T): void {
    const resolve = this.resolve;
    if (resolve === undefined) {
      this.queue.push(value);
      return;
    }
    // A waiting reader has drained its queue: this value is next.
    this.resolve = this.reject = undefined;
    resolve({ value, done: false });
  }

  /** The next queued value, if any. */
  take(): IteratorResult<T> | undefined {
    const queue = this.queue;
    if (this.head >= queue.length) return undefined;
    const value = queue[this.head++] as T;
    // Drained: emptied in place, so read values are not kept alive until the next 256 (a reader
    // in step with the run drains it on every read; no array is allocated per refill).
    if (this.head === queue.length) {
      queue.length = 0;
      this.head = 0;
    }
    return { value, done: false };
  }

  /** Ends a waiting read with `result`. */
  finish(result: IteratorResult<T>): void {
    const resolve = this.resolve;
    this.resolve = this.reject = undefined;
    resolve?.(result);
  }
}

/**
 * The buffer between a streaming run (producer) and its one reader: the raw deltas, the typed
 * events, or the text. The producer never waits for the reader, so awaiting only `result` cannot
 * deadlock. Deltas are kept as they came; run events are kept only while a reader may still need
 * them, and typed events are built only for the events reader, as it reads, so a deltas reader
 * pays nothing for them. A reader that stops (break, return, throw) calls `onAbandon` (which
 * aborts the run) and makes the next `push` throw `StreamAbandonedError`. Internal.
 */
export class RunStreamFeed<Output> implements AsyncIterable<Delta> {
  /** The typed events view. */
  readonly events: AsyncIterable<RunStreamEvent<Output>>;
  /** The text view. */
  readonly textStream: AsyncIterable<string>;
  private readonly buffer: (Delta | Observed)[] = [];
  private deltaWaiter: ((value: IteratorResult<Delta>) => void) | undefined;
  private reader: Reader<unknown> | undefined;
  private view: View | undefined;
  private outcome: RunStreamOutcome<Output> | undefined;
  private closed = false;
  private abandoned = false;

  constructor(private readonly onAbandon: () => void) {
    this.events = {
      [Symbol.asyncIterator]: () => this.translated('events', new EventsTranslator<Output>()),
    };
    this.textStream = { [Symbol.asyncIterator]: () => this.translated('text', textTranslator()) };
  }

  /** Adds a delta; throws `StreamAbandonedError` once the reader has stopped. */
  push(delta: Delta): void {
    if (this.abandoned) throw new StreamAbandonedError();
    if (this.closed) return;
    const waiter = this.deltaWaiter;
    if (waiter !== undefined) {
      this.deltaWaiter = undefined;
      waiter({ value: delta, done: false });
      return;
    }
    const reader = this.reader;
    // A waiting reader has drained the buffer: translate now and hand it the first value.
    if (reader?.resolve !== undefined) {
      reader.translator.delta(delta, reader);
      return;
    }
    this.buffer.push(delta);
  }

  /** Adds a run event, unless the reader cannot need it. */
  observe(event: RunEvent): void {
    if (this.closed || this.abandoned) return;
    const view = this.view;
    if (view === 'deltas' || (view === 'text' && event.kind !== 'model_start')) return;
    const reader = this.reader;
    if (reader?.resolve !== undefined) {
      reader.translator.event(event, reader);
      return;
    }
    this.buffer.push(new Observed(event));
  }

  /** The run ended: the reader gets what is buffered, then the end. */
  settle(outcome: RunStreamOutcome<Output>): void {
    if (this.closed) return;
    this.closed = true;
    this.outcome = outcome;
    const waiter = this.deltaWaiter;
    this.deltaWaiter = undefined;
    waiter?.({ value: undefined, done: true });
    const reader = this.reader;
    if (reader?.resolve !== undefined) this.endReader(reader);
  }

  [Symbol.asyncIterator](): AsyncIterator<Delta> {
    this.claim('deltas');
    return {
      next: () => {
        while (this.buffer.length > 0) {
          const item = this.buffer.shift();
          if (!(item instanceof Observed))
            return Promise.resolve({ value: item as Delta, done: false });
        }
        if (this.closed || this.abandoned) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.deltaWaiter = resolve));
      },
      return: () => this.stop(),
      throw: (error: unknown) => this.fail(error),
    };
  }

  private translated<T>(view: View, translator: Translator<T>): AsyncIterator<T> {
    this.claim(view);
    const reader = new Reader<T>(translator);
    this.reader = reader as Reader<unknown>;
    const next = (): Promise<IteratorResult<T>> => {
      for (;;) {
        const pending = reader.take();
        if (pending !== undefined) return Promise.resolve(pending);
        if (reader.ended || this.abandoned)
          return Promise.resolve({ value: undefined, done: true });
        const item = this.buffer.shift();
        if (item instanceof Observed) translator.event(item.event, reader);
        else if (item !== undefined) translator.delta(item, reader);
        else if (this.closed) {
          reader.ended = true;
          try {
            translator.end(this.outcome as RunStreamOutcome<Output>, reader);
          } catch (error) {
            // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the run's own failure, as `result` rejects with it
            return Promise.reject(error);
          }
        } else
          return new Promise((resolve, reject) => {
            reader.resolve = resolve;
            reader.reject = reject;
          });
      }
    };
    return { next, return: () => this.stop(), throw: (error: unknown) => this.fail(error) };
  }

  /** Ends a waiting reader: its last values, or done, or the failure `end` throws. */
  private endReader(reader: Reader<unknown>): void {
    reader.ended = true;
    try {
      reader.translator.end(this.outcome as RunStreamOutcome<Output>, reader);
    } catch (error) {
      const reject = reader.reject;
      reader.resolve = reader.reject = undefined;
      reject?.(error);
      return;
    }
    reader.finish({ value: undefined, done: true });
  }

  private claim(view: View): void {
    const current = this.view;
    if (current !== undefined)
      throw new TypeError(
        `this run stream is already read by ${VIEW_NAMES[current]}: a run stream has one reader — ` +
          'iterate the stream (deltas), stream.events or stream.textStream, once ' +
          '(stream.partialOutput is a separate feed)',
      );
    this.view = view;
  }

  private stop(): Promise<IteratorResult<never>> {
    this.abandon();
    return Promise.resolve({ value: undefined, done: true });
  }

  private fail(error: unknown): Promise<never> {
    this.abandon();
    return Promise.reject(isErrorValue(error) ? error : new Error(describeError(error)));
  }

  private abandon(): void {
    this.buffer.length = 0;
    if (!this.closed && !this.abandoned) {
      this.abandoned = true;
      this.onAbandon();
    }
    const waiter = this.deltaWaiter;
    this.deltaWaiter = undefined;
    waiter?.({ value: undefined, done: true });
    this.reader?.finish({ value: undefined, done: true });
  }
}
