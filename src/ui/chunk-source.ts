import type { RunEventListener } from '../core/engine/run-stream-feed';
import { RunStreamFeed } from '../core/engine/run-stream-feed';
import type { RunStreamEvent } from '../core/engine/stream-event-types';
import type { UIMessageChunk } from './chunk-types';
import type { Continuation } from './chunk-mapper';
import { ChunkMapper } from './chunk-mapper';
import { ChunkBuffer } from './chunk-buffer';
import type { Failure, Puller } from './pull-stream';
import type { UIEventSource, UIMessageStreamOptions } from './stream-options';
import { resolveStreamOptions } from './stream-options';

type Step = IteratorResult<UIMessageChunk, undefined>;
type EventStep<Output> = IteratorResult<RunStreamEvent<Output>>;

/**
 * How many chunks the source maps ahead of its reader before it stops reading events (they wait
 * in the run's feed meanwhile); it reads on once the reader has taken half of them.
 */
const AHEAD = 32;

/** What readers of the library's own use of a chunk source. Internal. */
export interface ChunkReader extends Puller<UIMessageChunk> {
  /**
   * The next chunks, as `collect` makes them of the first one (it may take more); `atEnd()` once
   * there are no more; rejects with a mapping failure. A call made while another waits is
   * answered after it.
   */
  read<V>(collect: (chunk: UIMessageChunk) => V, atEnd: () => V): Promise<V>;
}

const stepOf = (chunk: UIMessageChunk): Step => ({ value: chunk, done: false });
const doneStep = (): Step => ({ value: undefined, done: true });
const nothing = (): void => undefined;

/** Listens to a run stream only to stop it (a source cancelled before its first read). */
const IGNORED: RunEventListener<never> = { push: nothing, text: nothing, end: nothing };

/**
 * The UI message chunks of a run. A golem run stream is listened to from the first read: each
 * typed event is mapped as the run makes it, in the run's own call, and a waiting reader is
 * answered at once (one promise per chunk read, none per event). Any other source of events is
 * iterated: one read of its events is kept pending, each event mapped as it arrives and the
 * waiting reader answered with that same read's promise; chunks nobody waits for yet wait in a
 * buffer, at most about {@link AHEAD} of them. Either way a reader that keeps up gets each chunk
 * one microtask after its event, in step with the run — nothing piles up for it (which would
 * keep it alive into the old generation). Cancelling stops the run. Internal.
 */
export class ChunkSource<Output> implements ChunkReader, RunEventListener<Output> {
  ended: ((failure: Failure) => void) | undefined;
  private readonly mapper: ChunkMapper<Output>;
  private events: AsyncIterator<RunStreamEvent<Output>> | undefined;
  private readonly buffer = new ChunkBuffer();
  /** `finish` or `error` was mapped. */
  private finished = false;
  /** No more events will be read: they ended, failed, or the reader went away. */
  private closed = false;
  /** Mapping failed (an option's callback threw): the reader gets it after the buffered chunks. */
  private failure: Failure;
  /** `ended` was told, or is not to be (cancelled). */
  private told = false;
  private started = false;
  /** A read of the events is waiting. */
  private pumping = false;
  /** The reader is {@link AHEAD} behind: the events are not read meanwhile. */
  private paused = false;
  /** The pending read of the events (it resolves to what it answers the waiting reader). */
  private inflight: Promise<unknown> | undefined;
  /** The read a reader waits on, and what the reader makes of the chunks, and of the end. */
  private waited: Promise<unknown> | undefined;
  private collect: ((chunk: UIMessageChunk) => unknown) | undefined;
  private atEnd: (() => unknown) | undefined;
  /** Where `fill` hands the chunks. */
  private enqueue: (chunk: UIMessageChunk) => void = nothing;

  /** The run, until its events are iterated or listened to. */
  private run: UIEventSource<Output> | undefined;
  /** The run stream is listened to (its events are pushed, not read). */
  private listening = false;
  /** Stops the listened run stream (as returning its event iteration would). */
  private stopRun: (() => void) | undefined;
  /** The waiting read of a listened run: what settles it. */
  private resolveWait: ((value: unknown) => void) | undefined;
  private rejectWait: ((error: unknown) => void) | undefined;
  /** The executor of a listened run's waiting read (one for the source, not one per read). */
  private readonly waitFor = (
    resolve: (value: unknown) => void,
    reject: (error: unknown) => void,
  ): void => {
    this.resolveWait = resolve;
    this.rejectWait = reject;
  };

  constructor(
    run: UIEventSource<Output>,
    options: UIMessageStreamOptions<Output> | undefined,
    continuation: Continuation | undefined,
  ) {
    this.run = run;
    this.mapper = new ChunkMapper<Output>(resolveStreamOptions(options), continuation);
    this.mapper.start(this.buffer);
  }

  take(): UIMessageChunk | undefined {
    const chunk = this.buffer.shift();
    if (this.paused && this.buffer.size <= AHEAD / 2) {
      this.paused = false;
      this.pump();
    }
    return chunk;
  }

  next(): Promise<Step> {
    // The usual case, a reader behind the run: the next chunk is ready.
    if (this.started && this.waited === undefined) {
      const chunk = this.take();
      if (chunk !== undefined) return Promise.resolve({ value: chunk, done: false });
    }
    return this.read(stepOf, doneStep);
  }

  fill(enqueue: (chunk: UIMessageChunk) => void): Promise<void> {
    this.enqueue = enqueue;
    return this.read(this.enqueueReady, nothing);
  }

  read<V>(collect: (chunk: UIMessageChunk) => V, atEnd: () => V): Promise<V> {
    const waited = this.waited;
    if (waited !== undefined) {
      const after = (): Promise<V> => this.read(collect, atEnd);
      return waited.then(after, after);
    }
    if (!this.started) this.begin();
    const chunk = this.take();
    if (chunk !== undefined) {
      try {
        return Promise.resolve(collect(chunk));
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the collector's own error
        return Promise.reject(error);
      }
    }
    if (this.closed) return this.settle(atEnd);
    this.collect = collect;
    this.atEnd = atEnd;
    if (this.listening) {
      // The next event the run makes answers it (`wake`).
      const waited = new Promise<unknown>(this.waitFor) as Promise<V>;
      this.waited = waited;
      return waited;
    }
    // Nothing ready, so an event is being read (a paused source has chunks): the reader waits on
    // that read itself, which answers it — no promise of its own.
    this.waited = this.inflight;
    return this.inflight as Promise<V>;
  }

  cancel(_reason?: unknown): Promise<void> {
    // A waiting reader is answered `atEnd` when the pending read of the events ends (the run
    // stream's does at once, as its iteration is returned).
    this.closed = true;
    this.told = true;
    this.paused = false;
    this.buffer.clear();
    try {
      // Stopping the run stream stops the run (its evidence is kept on its error).
      const run = this.run;
      if (this.listening || run instanceof RunStreamFeed) {
        const stop = this.stopRun ?? (run as RunStreamFeed<Output> | undefined)?.listen(IGNORED);
        this.drop();
        stop?.();
        // A waiting read ends.
        this.wake();
        return Promise.resolve();
      }
      const events = this.events ?? run?.events[Symbol.asyncIterator]();
      this.drop();
      return events?.return === undefined ? Promise.resolve() : events.return().then(nothing);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the source's own error
      return Promise.reject(error);
    }
  }

  /**
   * The first read: the run stream is listened to, or any other source's event iteration starts
   * (either claims the run stream's one reader).
   */
  private begin(): void {
    this.started = true;
    const run = this.run as UIEventSource<Output>;
    try {
      if (run instanceof RunStreamFeed) {
        this.listening = true;
        this.run = undefined;
        // What the run made so far is mapped now (and the end, if it ended).
        const stop = (run as RunStreamFeed<Output>).listen(this);
        if (!this.closed) this.stopRun = stop;
        return;
      }
      this.events = run.events[Symbol.asyncIterator]();
      this.run = undefined;
    } catch (error) {
      // The run stream is read already: the stream fails with its error.
      this.closed = true;
      this.failure = { error };
      this.drop();
      return;
    }
    this.pump();
  }

  /**
   * The events are over: the run is let go of. (A source kept by something long-lived — V8 moves
   * it to the old generation while the run streams — would otherwise keep the run's last objects
   * alive through every young-generation collection until the next full one.)
   */
  private drop(): void {
    this.events = undefined;
    this.run = undefined;
    this.stopRun = undefined;
  }

  // The listened run's events, mapped as they come (the source is the run stream's listener:
  // methods, not an object literal of closures — V8 may allocate a literal made once per stream
  // straight in the old generation, where it held the source and every chunk it pointed to
  // through the next young collection; bench/RESULTS.md, issue 35). Nothing here throws into
  // the run: a mapping failure ends the stream (the run goes on unread, as when an iterated
  // source's mapping fails).

  /** One event of the listened run (the run stream's listener). Internal. */
  push(event: RunStreamEvent<Output>): void {
    if (this.closed) return;
    const buffer = this.buffer;
    const before = buffer.size;
    try {
      if (this.mapper.map(event, buffer)) this.finished = true;
    } catch (error) {
      // None of the failed event's chunks go out: the stream fails after the chunks before it.
      buffer.truncate(before);
      this.closed = true;
      this.failure = { error };
      this.drop();
    }
    if (this.resolveWait !== undefined) this.wake();
  }

  /** One fragment of answer text of the listened run (the run stream's listener). Internal. */
  text(text: string): void {
    if (this.closed) return;
    // Mapping text calls no option: it cannot fail.
    this.mapper.textDelta(text, this.buffer);
    if (this.resolveWait !== undefined) this.wake();
  }

  /** The listened run's end (the run stream's listener). Internal. */
  end(failure: { readonly error: unknown } | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.drop();
    const buffer = this.buffer;
    const before = buffer.size;
    try {
      if (failure !== undefined) this.mapper.rejected(failure.error, buffer);
      else if (!this.finished) this.mapper.interrupted(buffer);
    } catch (error) {
      buffer.truncate(before);
      this.failure = { error };
    }
    this.wake();
  }

  /**
   * Answers the waiting read of a listened run: its first chunk collected, or the end (the
   * failure rejects it); with nothing ready and the run going on, it keeps waiting.
   */
  private wake(): void {
    const resolve = this.resolveWait;
    const reject = this.rejectWait;
    if (resolve === undefined || reject === undefined) return;
    const chunk = this.take();
    if (chunk === undefined && !this.closed) return;
    const collect = this.collect as (chunk: UIMessageChunk) => unknown;
    const atEnd = this.atEnd as () => unknown;
    this.waited = this.collect = this.atEnd = this.resolveWait = this.rejectWait = undefined;
    try {
      if (chunk !== undefined) {
        resolve(collect(chunk));
        return;
      }
      const failure = this.failure;
      this.tell(failure);
      if (failure === undefined) resolve(atEnd());
      else reject(failure.error);
    } catch (error) {
      reject(error);
    }
  }

  /** Reads the next event. */
  private pump(): void {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    let next: Promise<EventStep<Output>>;
    try {
      next = Promise.resolve((this.events as AsyncIterator<RunStreamEvent<Output>>).next());
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the source's own error
      next = Promise.reject(error);
    }
    this.inflight = next.then(this.onEvent, this.onRejected);
  }

  /**
   * Maps an event, reads the next one, and answers the waiting reader, if any, with what its
   * read resolves to (for nobody, `undefined`).
   */
  private readonly onEvent = (step: EventStep<Output>): unknown => {
    this.pumping = false;
    if (!this.closed) {
      const buffer = this.buffer;
      const before = buffer.size;
      try {
        if (step.done === true) {
          this.closed = true;
          if (!this.finished) this.mapper.interrupted(buffer);
        } else if (this.mapper.map(step.value, buffer)) this.finished = true;
      } catch (error) {
        // None of the failed event's chunks go out: the stream fails after the chunks before it.
        buffer.truncate(before);
        this.closed = true;
        this.failure = { error };
      }
      if (this.closed) this.drop();
      else if (this.buffer.size >= AHEAD) this.paused = true;
      else this.pump();
    }
    return this.waited === undefined ? undefined : this.answer();
  };

  /** The event iteration failed: the run could not start (a run failure is an `error` event). */
  private readonly onRejected = (error: unknown): unknown => {
    this.pumping = false;
    if (!this.closed) {
      this.closed = true;
      this.drop();
      const before = this.buffer.size;
      try {
        this.mapper.rejected(error, this.buffer);
      } catch (failure) {
        this.buffer.truncate(before);
        this.failure = { error: failure };
      }
    }
    return this.waited === undefined ? undefined : this.answer();
  };

  /**
   * The value of the waiting reader's read: its first chunk collected, or the end (the failure
   * is thrown) — or, when the event made no chunk, the next read of the events.
   */
  private answer(): unknown {
    const chunk = this.take();
    if (chunk === undefined && !this.closed) {
      this.waited = this.inflight;
      return this.inflight;
    }
    const collect = this.collect as (chunk: UIMessageChunk) => unknown;
    const atEnd = this.atEnd as () => unknown;
    this.waited = this.collect = this.atEnd = undefined;
    if (chunk !== undefined) return collect(chunk);
    const failure = this.failure;
    this.tell(failure);
    if (failure !== undefined) throw failure.error;
    return atEnd();
  }

  /** Nothing more to hand out: the end, or the failure. */
  private settle<V>(atEnd: () => V): Promise<V> {
    const failure = this.failure;
    this.tell(failure);
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the mapping's own error
    return failure === undefined ? Promise.resolve(atEnd()) : Promise.reject(failure.error);
  }

  /** Tells `ended`, once. */
  private tell(failure: Failure): void {
    if (this.told) return;
    this.told = true;
    this.ended?.(failure);
  }

  /** `fill`'s collector: every chunk ready goes to the queue; at the end the queue closes. */
  private readonly enqueueReady = (chunk: UIMessageChunk): void => {
    const enqueue = this.enqueue;
    enqueue(chunk);
    for (let next = this.take(); next !== undefined; next = this.take()) enqueue(next);
    if (this.closed && this.failure === undefined) this.tell(undefined);
  };
}
