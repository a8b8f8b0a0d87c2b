import type { Delta } from '../contract/delta';
import { describeError } from '../kit/error-base';
import { isErrorValue } from '../kit/safe-inspect';
import { StreamAbandonedError } from './delta-stream';
import { RunError } from './errors';
import type { RunEvent } from './events';
import type { Result } from './result';
import type { RunStreamEvent } from './stream-event-types';
import { StreamEventBuilder } from './stream-events';
import { Reader, done } from './run-stream-reader';

/** How a run ended, as the feed learns it. Internal. */
export type RunStreamOutcome<Output> =
  | { readonly ok: true; readonly result: Result<Output> }
  | { readonly ok: false; readonly error: unknown };

/** The ways to read a run stream; a stream has one reader. */
type View = 'deltas' | 'events' | 'text' | 'nobody';

const VIEW_NAMES: Record<View, string> = {
  deltas: 'iterating the stream (deltas)',
  events: 'stream.events',
  text: 'stream.textStream',
  nobody: 'nobody (it was given up: the run is read through onDelta and result)',
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

/**
 * The typed events for a listener: a fragment that is only answer text goes to its `text`,
 * without a `text-delta` event object.
 */
class ListenerTranslator<Output> extends EventsTranslator<Output> {
  constructor(private readonly listener: RunEventListener<Output>) {
    super();
  }

  override delta(delta: Delta, out: Sink<RunStreamEvent<Output>>): void {
    const content = delta.content;
    if (
      delta.thinking === undefined &&
      delta.toolCalls === undefined &&
      typeof content === 'string'
    ) {
      if (content !== '') this.listener.text(content);
    } else super.delta(delta, out);
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

/** The raw deltas, as they came. */
const DELTAS: Translator<Delta> = {
  delta: (delta, out) => {
    out.push(delta);
  },
  event: () => undefined,
  end: () => undefined,
};

/** Keeps nothing: the stream given up (see `RunStreamFeed.discard`). */
const NOTHING_KEPT: Translator<never> = {
  delta: () => undefined,
  event: () => undefined,
  end: () => undefined,
};
const NO_SINK: Sink<never> = { push: () => undefined };

/**
 * Takes a run stream's typed events as the run makes them, in the run's own call, then its end —
 * the events view without a promise per event, for a consumer that maps them on at once
 * (golem/ui). Internal.
 */
export interface RunEventListener<Output> {
  /** One event. Must not throw: it runs inside the run's delta handler and observer. */
  push(event: RunStreamEvent<Output>): void;
  /**
   * One fragment of answer text (not empty): what `push` of a `text-delta` event of the current
   * turn would say, without the event. Must not throw.
   */
  text(text: string): void;
  /**
   * After the last event (`finish` or `error`), or when the run stopped without one: `failure`
   * is a run failure that is no `RunError` — the one the events view's iteration rejects with.
   */
  end(failure: { readonly error: unknown } | undefined): void;
}

/** The view a feed's items are translated for, as they come, once its reader has claimed it. */
interface Consumer {
  readonly translator: Translator<unknown>;
  readonly sink: Sink<unknown>;
  /** The pull reader, for the iterated views; none for a listener. */
  readonly reader: Reader<unknown> | undefined;
  readonly listener: RunEventListener<unknown> | undefined;
}

/**
 * The buffer between a streaming run (producer) and its one reader: the raw deltas, the typed
 * events, or the text (iterated), or a listener that takes the typed events as they are made.
 * The producer never waits for the reader, so awaiting only `result` cannot deadlock. Until the
 * reader comes, the deltas and run events are kept as they came; from then on each is translated
 * for that reader's view as it comes (a deltas reader pays nothing for typed events). A reader
 * that stops (break, return, throw) calls `onAbandon` (which aborts the run) and makes the next
 * `push` throw `StreamAbandonedError`. Internal.
 */
export class RunStreamFeed<Output> implements AsyncIterable<Delta> {
  /** The typed events view. */
  readonly events: AsyncIterable<RunStreamEvent<Output>>;
  /** The text view. */
  readonly textStream: AsyncIterable<string>;
  /** What came before the reader did. */
  private buffer: (Delta | Observed)[] = [];
  private consumer: Consumer | undefined;
  /** The deltas view's reader: deltas go to it as they are. */
  private raw: Reader<Delta> | undefined;
  private view: View | undefined;
  private outcome: RunStreamOutcome<Output> | undefined;
  private closed = false;
  private abandoned = false;

  constructor(private readonly onAbandon: () => void) {
    this.events = {
      [Symbol.asyncIterator]: () => this.pulled('events', new EventsTranslator<Output>()),
    };
    this.textStream = { [Symbol.asyncIterator]: () => this.pulled('text', textTranslator()) };
  }

  /** Adds a delta; throws `StreamAbandonedError` once the reader has stopped. */
  push(delta: Delta): void {
    if (this.abandoned) throw new StreamAbandonedError();
    if (this.closed) return;
    const raw = this.raw;
    if (raw !== undefined) {
      raw.push(delta);
      return;
    }
    const consumer = this.consumer;
    if (consumer === undefined) this.buffer.push(delta);
    else consumer.translator.delta(delta, consumer.sink);
  }

  /** Adds a run event. */
  observe(event: RunEvent): void {
    if (this.closed || this.abandoned || this.raw !== undefined) return;
    const consumer = this.consumer;
    if (consumer === undefined) this.buffer.push(new Observed(event));
    else consumer.translator.event(event, consumer.sink);
  }

  /** The run ended: the reader gets what it has not read, then the end. */
  settle(outcome: RunStreamOutcome<Output>): void {
    if (this.closed) return;
    this.closed = true;
    this.outcome = outcome;
    const consumer = this.consumer;
    if (consumer === undefined || this.abandoned) return;
    if (consumer.listener !== undefined) this.endListener(consumer.listener);
    // A reader with a value on its way reads the end after it, as a reader that did not wait.
    else if (consumer.reader?.waiting === true) this.endReader(consumer.reader);
  }

  [Symbol.asyncIterator](): AsyncIterator<Delta> {
    const iterator = this.pulled('deltas', DELTAS);
    this.raw = this.consumer?.reader as Reader<Delta>;
    return iterator;
  }

  /**
   * Claims the stream for `listener` (the events view: a second reader throws `TypeError`): what
   * the run made so far goes to it now, the rest as it comes. Returns the stop, which abandons
   * the run as a reader's `return` does.
   */
  listen(listener: RunEventListener<Output>): () => void {
    const translator = new ListenerTranslator<Output>(listener);
    this.attach('events', { translator, sink: listener, reader: undefined, listener });
    if (this.closed && !this.abandoned) this.endListener(listener);
    return () => {
      this.abandon();
    };
  }

  /**
   * Gives the stream up: its caller reads the run through `onDelta` and `result` only, so nothing
   * is kept for a reader (a stream nobody iterates otherwise keeps every delta until the run
   * ends). A reader after this throws `TypeError`.
   */
  discard(): void {
    this.attach('nobody', {
      translator: NOTHING_KEPT,
      sink: NO_SINK,
      reader: undefined,
      listener: undefined,
    });
  }

  private pulled<T>(view: View, translator: Translator<T>): AsyncIterator<T> {
    const reader = new Reader<T>();
    this.attach(view, {
      translator,
      sink: reader,
      reader: reader as Reader<unknown>,
      listener: undefined,
    });
    const next = (): Promise<IteratorResult<T>> => {
      const pending = reader.take();
      if (pending !== undefined) return Promise.resolve(pending);
      if (reader.ended || this.abandoned) return Promise.resolve(done());
      if (!this.closed)
        return new Promise((resolve, reject) => {
          reader.resolve = resolve;
          reader.reject = reject;
        });
      reader.ended = true;
      try {
        translator.end(this.outcome as RunStreamOutcome<Output>, reader);
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the run's own failure, as `result` rejects with it
        return Promise.reject(error);
      }
      return Promise.resolve(reader.take() ?? done());
    };
    return { next, return: () => this.stop(), throw: (error: unknown) => this.fail(error) };
  }

  /** Claims `view` for `consumer` and hands it what came before. */
  private attach(view: View, consumer: Consumer): void {
    const current = this.view;
    if (current !== undefined)
      throw new TypeError(
        `this run stream is already read by ${VIEW_NAMES[current]}: a run stream has one reader — ` +
          'iterate the stream (deltas), stream.events or stream.textStream, once ' +
          '(stream.partialOutput is a separate feed)',
      );
    this.view = view;
    this.consumer = consumer;
    const { translator, sink } = consumer;
    const before = this.buffer;
    this.buffer = [];
    for (const item of before)
      if (item instanceof Observed) translator.event(item.event, sink);
      else translator.delta(item, sink);
  }

  /** Ends a waiting reader: its last values, or done, or the failure `end` throws. */
  private endReader(reader: Reader<unknown>): void {
    reader.ended = true;
    try {
      this.consumer?.translator.end(this.outcome as RunStreamOutcome<Output>, reader);
    } catch (error) {
      const reject = reader.reject;
      reader.resolve = reader.reject = undefined;
      reject?.(error);
      return;
    }
    reader.finish(done());
  }

  /** Tells the listener the last events and the end. */
  private endListener(listener: RunEventListener<unknown>): void {
    try {
      this.consumer?.translator.end(this.outcome as RunStreamOutcome<Output>, listener);
    } catch (error) {
      listener.end({ error });
      return;
    }
    listener.end(undefined);
  }

  private stop(): Promise<IteratorResult<never>> {
    this.abandon();
    return Promise.resolve(done());
  }

  private fail(error: unknown): Promise<never> {
    this.abandon();
    return Promise.reject(isErrorValue(error) ? error : new Error(describeError(error)));
  }

  private abandon(): void {
    this.buffer = [];
    if (!this.closed && !this.abandoned) {
      this.abandoned = true;
      this.onAbandon();
    }
    this.consumer?.reader?.drop();
  }
}
