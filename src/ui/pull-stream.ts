import type { AsyncIterableStream } from './iterable-stream';

/** How a source ended: `undefined` when its values ran out, else the failure it rejected with. */
export type Failure = { readonly error: unknown } | undefined;

/**
 * A value source read one way at a time: through a `ReadableStream`'s queue (`fill`, from the
 * stream's `pull`), or directly (`next`: the stream's own async iteration and the library's
 * pipes) — one promise per value, no read request and no queue. Internal.
 */
export interface Puller<T> {
  /**
   * Told once, by the source, when its values ran out (the last one handed out) or it failed —
   * not when it is cancelled; set by whoever reads it.
   */
  ended: ((failure: Failure) => void) | undefined;
  /** A value ready now, without waiting; `undefined` when there is none yet. */
  take(): T | undefined;
  /**
   * The next value (`done` at the end, and on every call after); rejects with the source's
   * failure. A call made while another is pending is answered after it.
   */
  next(): Promise<IteratorResult<T, undefined>>;
  /**
   * Called with nothing ready to take: hands `enqueue` the next value (and every one ready with
   * it), or tells `ended` that there are no more; rejects with the source's failure.
   */
  fill(enqueue: (value: T) => void): Promise<void> | undefined;
  /** Stops the source (its reader went away); a pending `next` or `fill` resolves at its end. */
  cancel(reason: unknown): Promise<void>;
}

/** A stream locked for a reader of the library's own, which reads its source directly. */
export interface Claim<T> {
  readonly source: Puller<T>;
  /** Closes (or errors) the claimed stream and releases it: what the source's `ended` does. */
  end(failure: Failure): void;
  /** Cancels the claimed stream (which stops the source) and releases it. */
  cancel(reason: unknown): Promise<void>;
}

/** A fresh end-of-iteration result (never shared: a caller may keep or change it). */
function done(): IteratorResult<never, undefined> {
  return { value: undefined, done: true };
}

/** Holds a stream's lock while its source is read directly. */
interface Holder {
  /** The source ended: the stream was closed or errored, the lock is to be released. */
  release(): void;
}

/** The `ReadableStream` side of a {@link pullStream}: its queue is filled only when read. */
class Underlying<T> implements UnderlyingDefaultSource<T> {
  controller!: ReadableStreamDefaultController<T>;
  /** The queue was read (`pull` ran): direct reading would skip what it holds. */
  pulled = false;
  /** The stream was closed, errored or cancelled. */
  settled = false;
  /** Who reads the source directly, holding the stream's lock. */
  holder: Holder | undefined;

  constructor(readonly source: Puller<T>) {
    source.ended = this.end;
  }

  start(controller: ReadableStreamDefaultController<T>): void {
    this.controller = controller;
  }

  /** Enqueues every value ready now, else waits for the next one (then those ready with it). */
  pull(): Promise<void> | undefined {
    this.pulled = true;
    if (this.settled) return undefined;
    const source = this.source;
    let value = source.take();
    if (value === undefined) return source.fill(this.enqueue);
    do this.controller.enqueue(value);
    while ((value = source.take()) !== undefined);
    return undefined;
  }

  cancel(reason: unknown): Promise<void> {
    this.settled = true;
    this.holder = undefined;
    return this.source.cancel(reason);
  }

  readonly enqueue = (value: T): void => {
    if (!this.settled) this.controller.enqueue(value);
  };

  /** The source ended: the stream closes (or errors), and a direct reader releases it. */
  readonly end = (failure: Failure): void => {
    if (!this.settled) {
      this.settled = true;
      if (failure === undefined) this.controller.close();
      else this.controller.error(failure.error);
    }
    const holder = this.holder;
    this.holder = undefined;
    holder?.release();
  };
}

/**
 * The async iteration of a {@link pullStream}: it locks the stream as a `ReadableStream`'s own
 * iteration does (a second reader or iteration throws `TypeError`), then reads the source
 * directly. The end closes the stream and a failure errors it, and both release it; `return` (a
 * `break`) cancels the stream, which stops the source, unless `preventCancel`. A stream whose
 * queue was already read, or that ended, is iterated through its reader instead (what the queue
 * holds comes first). Unlike the native iterator, `return` does not wait for a pending `next`:
 * the cancel is at once, and the pending `next` resolves `done` (`for await` never has one).
 */
class DirectIterator<T> implements AsyncIterableIterator<T>, Holder {
  private readonly reader: ReadableStreamDefaultReader<T>;
  private readonly direct: boolean;
  private finished = false;

  constructor(
    stream: ReadableStream<T>,
    private readonly underlying: Underlying<T>,
    private readonly preventCancel: boolean,
  ) {
    // Throws TypeError when the stream is locked, as its own iteration would.
    this.reader = stream.getReader();
    this.direct = !underlying.pulled && !underlying.settled;
    if (this.direct) underlying.holder = this;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.finished) return Promise.resolve(done());
    if (this.direct) return this.underlying.source.next();
    return this.reader.read().then(this.readStep, this.readFailed);
  }

  return(value?: unknown): Promise<IteratorResult<T, undefined>> {
    const result = { value: value as undefined, done: true as const };
    if (this.finished) return Promise.resolve(result);
    this.finished = true;
    if (this.underlying.holder === this) this.underlying.holder = undefined;
    if (this.preventCancel) {
      this.reader.releaseLock();
      return Promise.resolve(result);
    }
    const cancelled = this.reader.cancel(value);
    this.reader.releaseLock();
    return cancelled.then(() => result);
  }

  release(): void {
    this.finished = true;
    this.reader.releaseLock();
  }

  private readonly readStep = (step: ReadableStreamReadResult<T>): IteratorResult<T, undefined> => {
    if (!step.done) return { value: step.value, done: false };
    this.release();
    return done();
  };

  private readonly readFailed = (error: unknown): never => {
    this.release();
    throw error;
  };
}

/**
 * Where a pull stream made here keeps what its iteration and the claims need: a property of the
 * stream under a symbol of this module's own (not enumerable). Not a module-level `WeakMap`: such
 * a map lives in the old generation, and its entries' values kept each stream's source — its
 * mapper, its ring of chunks — through the young-generation collections after the stream was
 * done with (golem/ui read to the end, 2,000-delta runs: −22.9 µs per run, cheaper in 6 of 6
 * alternating processes; bench/RESULTS.md, issue 35).
 */
const UNDERLYING: unique symbol = Symbol('golem.pullStream');

/** A stream, maybe one made here. */
type MaybePull<T> = ReadableStream<T> & { readonly [UNDERLYING]?: Underlying<T> };

/** The underlying source of a stream made here; `undefined` for any other stream. */
function underlyingOf<T>(stream: ReadableStream<T>): Underlying<T> | undefined {
  return (stream as MaybePull<T>)[UNDERLYING];
}

/** The stream's own async iteration (`for await … of`, `values()`), reading its source directly. */
function values<T>(
  this: ReadableStream<T>,
  options?: { preventCancel?: boolean },
): AsyncIterableIterator<T> {
  return new DirectIterator(
    this,
    underlyingOf(this) as Underlying<T>,
    options?.preventCancel === true,
  );
}

function iterate<T>(this: ReadableStream<T>): AsyncIterableIterator<T> {
  return new DirectIterator(this, underlyingOf(this) as Underlying<T>, false);
}

/** Shadows the prototype's methods, as they are defined there (not enumerable). */
const ITERATION: PropertyDescriptorMap = {
  values: { value: values, writable: true, configurable: true },
  [Symbol.asyncIterator]: { value: iterate, writable: true, configurable: true },
};

/**
 * A web `ReadableStream` over a {@link Puller} (a plain one: its prototype is
 * `ReadableStream.prototype`) whose own async iteration, `for await` and `values()`, reads the
 * source directly instead of through the stream's queue, with the native iteration's locking and
 * ending. `getReader`, `pipeTo`, `pipeThrough`, `tee` and `new Response(stream)` read through the
 * queue, which is filled only when read (high-water mark 0), with every value ready at that
 * moment. Internal.
 */
export function pullStream<T>(source: Puller<T>): AsyncIterableStream<T> {
  const underlying = new Underlying(source);
  const stream = new ReadableStream<T>(underlying, { highWaterMark: 0 });
  Object.defineProperty(stream, UNDERLYING, { value: underlying });
  return Object.defineProperties(stream, ITERATION) as AsyncIterableStream<T>;
}

/** The source of a stream made by {@link pullStream}; `undefined` for any other stream. */
export function sourceOf(stream: ReadableStream<unknown>): Puller<unknown> | undefined {
  return underlyingOf(stream)?.source;
}

/**
 * Locks a stream made by {@link pullStream} for a reader of the library's own, which reads its
 * source directly; `undefined` for another stream, or one whose queue was already read or that
 * ended (read it as a stream). Throws TypeError when the stream is locked.
 */
export function claimStream<T>(stream: ReadableStream<T>): Claim<T> | undefined {
  const underlying = underlyingOf(stream);
  if (underlying === undefined || underlying.pulled || underlying.settled) return undefined;
  const reader = stream.getReader();
  const holder: Holder = {
    release: () => {
      reader.releaseLock();
    },
  };
  underlying.holder = holder;
  return {
    source: underlying.source,
    end: underlying.end,
    cancel: (reason) => {
      if (underlying.holder !== holder) return Promise.resolve();
      underlying.holder = undefined;
      const cancelled = reader.cancel(reason);
      reader.releaseLock();
      return cancelled;
    },
  };
}
