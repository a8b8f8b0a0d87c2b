import type { Delta } from '../core/contract/delta';
import { DeltaTail } from './delta-merge';
import type { RunFeedEvent } from './feed-events';
import type { RunFeedPort } from './port';
import type { ErrorListener } from './redis';

/** What one run emitted during one turn of the event loop, sent as one append. */
interface Batch {
  readonly runId: string;
  readonly pending: Pending;
  readonly events: RunFeedEvent[];
  /** What the run pushed into it: its events, each merged delta counted as the deltas it holds. */
  units: number;
  /** The last event while later text fragments of the same kind may join it. */
  tail: DeltaTail | undefined;
  /** Settles once the batch is written: the run's cancellation reason, if any. */
  readonly written: Promise<string | undefined>;
  /** Settles `written` with the append's result. */
  readonly settle: (sent: Promise<string | undefined>) => void;
  sent: boolean;
}

/** A run's batches: the one collecting, the last one sent. */
interface Pending {
  /** The batch collecting this turn's events, not sent yet. */
  next: Batch | undefined;
  /** The last batch sent. */
  last: Promise<string | undefined> | undefined;
  /** Events sent and not yet written (merged deltas counted as the deltas they hold). */
  inFlight: number;
}

/** Options of {@link FeedPublisher}. */
export interface FeedPublisherOptions {
  /**
   * Events in flight for one run past which further deltas are dropped; default 10 000. Merged
   * deltas count as the deltas they hold, so merging never changes what is dropped.
   */
  maxBuffered?: number;
  /**
   * Whether the feed's appends and the job engine's own commands go through one ordered channel
   * (the worker's feed uses the Redis connection it gives BullMQ), so an ending sent before the
   * job's outcome is applied before it without waiting for its reply. Default false.
   */
  orderedWithJobs?: boolean;
}

/** Whether nothing is collected for the run (read through a call: `next` changes meanwhile). */
function idle(pending: Pending): boolean {
  return pending.next === undefined;
}

/**
 * Publishes a worker's feed events in order without slowing its runs: `push` (`pushDelta` for a
 * model fragment) adds an event to the run's batch and returns at once (deltas, run events);
 * `begin` also resolves with the run's cancellation reason once written; `end` sends the batch with
 * the segment's ending at once, so it is in the feed before the job's outcome.
 *
 * A batch collects everything a run emits during one turn of the event loop (until the next I/O
 * callback), so a run that emits its events and its ending in one turn — an instant model, a store
 * that answers from memory — writes them in one append. The batches of every run are sent together
 * when the turn ends (one round trip when the feed has `appendMany`), without waiting for a run's
 * previous batch: the feed port applies appends in the order they are made (one Redis
 * connection). With `orderedWithJobs` an ending costs no wait: it travels just ahead of the job's
 * completion. The feed is advisory — the run store is the record — so a failed append is reported
 * to `onError` and never fails the run; past `maxBuffered` events in flight for one run (Redis
 * slower than the model), further deltas are dropped (counted in {@link droppedDeltas}).
 *
 * Consecutive text fragments of one kind in a batch become one `delta` event carrying their
 * concatenated text ({@link DeltaTail}: content text; one reasoning block's text; one tool call's
 * arguments, continued by fragments without an id or name), up to `MERGED_TEXT_MAX` characters:
 * what a model streams during one turn of the event loop costs one feed entry, not one per token.
 * Nothing is merged across another event, a batch, or a fragment of another shape; a subscriber
 * reads the same text in the same order, and no delta waits longer than it did. Internal.
 */
export class FeedPublisher {
  private readonly runs = new Map<string, Pending>();
  /** The run of the last delta looked up, and its entry: a run's deltas come in a row. */
  private lastRun: string | undefined;
  private lastPending: Pending | undefined;
  /** Batches to send when this turn of the event loop ends. */
  private due: Batch[] = [];
  private dropped = 0;
  private readonly maxBuffered: number;
  private readonly ordered: boolean;

  constructor(
    private readonly feed: RunFeedPort,
    private readonly onError: ErrorListener,
    options: FeedPublisherOptions = {},
  ) {
    this.maxBuffered = options.maxBuffered ?? 10_000;
    this.ordered = options.orderedWithJobs ?? false;
  }

  /** How many deltas were dropped because the feed fell behind. */
  get droppedDeltas(): number {
    return this.dropped;
  }

  push(runId: string, event: RunFeedEvent): void {
    if (event.type === 'delta') this.addDelta(runId, event.delta, event);
    else this.batchOf(runId, event);
  }

  /**
   * Pushes a model fragment as a `delta` event, joined to the batch's last delta when it continues
   * the same text (see the class comment).
   */
  pushDelta(runId: string, delta: Delta): void {
    this.addDelta(runId, delta, undefined);
  }

  /** Joins `delta` to the run's batch's last delta if it can, else adds `event` (or a new one). */
  private addDelta(runId: string, delta: Delta, event: RunFeedEvent | undefined): void {
    let pending = runId === this.lastRun ? this.lastPending : undefined;
    if (pending === undefined) {
      pending = this.runs.get(runId);
      this.lastRun = runId;
      this.lastPending = pending;
    }
    const next = pending?.next;
    if (next?.tail !== undefined && this.waiting(next.pending) < this.maxBuffered) {
      if (next.tail.join(delta)) {
        next.units++;
        return;
      }
    }
    const batch = this.batchOf(runId, event ?? { type: 'delta', delta });
    if (batch !== undefined)
      batch.tail = DeltaTail.of(delta, batch.events, batch.events.length - 1);
  }

  /** Events (deltas as pushed) collected or in flight for the run. */
  private waiting(pending: Pending): number {
    return pending.inFlight + (pending.next?.units ?? 0);
  }

  /**
   * Appends a segment's first event after everything queued for the run, and resolves with the
   * run's cancellation reason (read in the same round trip). A feed that cannot be reached is
   * reported and reads as "not cancelled": the run goes on, checkpointed in the store.
   */
  async begin(runId: string, event: RunFeedEvent): Promise<string | undefined> {
    return this.batchOf(runId, event)?.written;
  }

  /**
   * Sends a segment's ending (`completed`, `paused`, `failed`, …) now, with whatever the run
   * emitted this turn, so it is applied before the job's outcome that follows: at once when the
   * feed shares the job engine's connection (`orderedWithJobs`), else once it is written.
   */
  async end(runId: string, event: RunFeedEvent): Promise<void> {
    const batch = this.batchOf(runId, event);
    if (batch === undefined) return;
    this.send([batch]);
    if (!this.ordered) await batch.written;
  }

  /** Adds `event` to the run's batch of this turn (sent when it ends); undefined if dropped. */
  private batchOf(runId: string, event: RunFeedEvent): Batch | undefined {
    let pending = this.runs.get(runId);
    if (pending === undefined) {
      pending = { next: undefined, last: undefined, inFlight: 0 };
      this.runs.set(runId, pending);
    }
    if (event.type === 'delta' && this.waiting(pending) >= this.maxBuffered) {
      this.dropped++;
      return undefined;
    }
    const next = pending.next;
    if (next !== undefined) {
      next.tail?.seal();
      next.tail = undefined;
      next.events.push(event);
      next.units++;
      return next;
    }
    let settle: Batch['settle'] = () => undefined;
    const written = new Promise<string | undefined>((resolve) => (settle = resolve));
    const batch: Batch = {
      runId,
      pending,
      events: [event],
      units: 1,
      tail: undefined,
      written,
      settle,
      sent: false,
    };
    pending.next = batch;
    if (this.due.push(batch) === 1)
      setImmediate(() => {
        this.flushDue();
      });
    return batch;
  }

  /** Sends every batch collected during the turn that just ended. */
  private flushDue(): void {
    const due = this.due;
    this.due = [];
    this.send(due.filter((batch) => !batch.sent));
  }

  /** Sends `batches` now (in one round trip when the feed can), each run's in the order made. */
  private send(batches: readonly Batch[]): void {
    if (batches.length === 0) return;
    for (const batch of batches) {
      batch.sent = true;
      batch.pending.next = undefined;
      batch.tail?.seal();
      batch.tail = undefined;
      batch.pending.inFlight += batch.units;
    }
    let results: Promise<string | undefined>[];
    try {
      results =
        batches.length > 1 && this.feed.appendMany !== undefined
          ? this.feed.appendMany(batches)
          : batches.map((batch) => this.feed.append(batch.runId, batch.events));
    } catch (error) {
      results = batches.map(() => Promise.reject(error as Error));
    }
    batches.forEach((batch, i) => {
      batch.settle(this.written(batch, results[i] ?? Promise.resolve(undefined)));
    });
  }

  /** Reports a failed append (as "not cancelled") and forgets the run once nothing is left. */
  private async written(
    batch: Batch,
    result: Promise<string | undefined>,
  ): Promise<string | undefined> {
    const { pending, runId } = batch;
    const sent = result.catch((error: unknown) => {
      this.onError(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    });
    pending.last = sent;
    try {
      return await sent;
    } finally {
      pending.inFlight -= batch.units;
      if (pending.last === sent && idle(pending) && this.runs.get(runId) === pending) {
        this.runs.delete(runId);
        if (this.lastPending === pending) this.lastRun = this.lastPending = undefined;
      }
    }
  }
}
