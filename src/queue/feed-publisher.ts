import type { RunFeedEvent } from './feed-events';
import type { RunFeedPort } from './port';
import type { ErrorListener } from './redis';

/** What one run emitted during one turn of the event loop, sent as one append. */
interface Batch {
  readonly runId: string;
  readonly pending: Pending;
  readonly events: RunFeedEvent[];
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
  /** Events sent and not yet written. */
  inFlight: number;
}

/** Options of {@link FeedPublisher}. */
export interface FeedPublisherOptions {
  /** Events in flight for one run past which further deltas are dropped; default 10 000. */
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
 * Publishes a worker's feed events in order without slowing its runs: `push` adds an event to the
 * run's batch and returns at once (deltas, run events); `begin` also resolves with the run's
 * cancellation reason once written; `end` sends the batch with the segment's ending at once, so
 * it is in the feed before the job's outcome.
 *
 * A batch collects everything a run emits during one turn of the event loop (until the next I/O
 * callback), so a run that emits its events and its ending in one turn — an instant model, a store
 * that answers from memory — writes them in one append. The batches of every run are sent together
 * when the turn ends (one round trip when the feed has `appendMany`), without waiting for a run's
 * previous batch: the feed port applies appends in the order they are made (one Redis
 * connection). With `orderedWithJobs` an ending costs no wait: it travels just ahead of the job's
 * completion. The feed is advisory — the run store is the record — so a failed append is reported
 * to `onError` and never fails the run; past `maxBuffered` events in flight for one run (Redis
 * slower than the model), further deltas are dropped (counted in {@link droppedDeltas}). Internal.
 */
export class FeedPublisher {
  private readonly runs = new Map<string, Pending>();
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
    this.batchOf(runId, event);
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
    const waiting = pending.inFlight + (pending.next?.events.length ?? 0);
    if (event.type === 'delta' && waiting >= this.maxBuffered) {
      this.dropped++;
      return undefined;
    }
    if (pending.next !== undefined) {
      pending.next.events.push(event);
      return pending.next;
    }
    let settle: Batch['settle'] = () => undefined;
    const written = new Promise<string | undefined>((resolve) => (settle = resolve));
    const batch: Batch = { runId, pending, events: [event], written, settle, sent: false };
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
      batch.pending.inFlight += batch.events.length;
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
      pending.inFlight -= batch.events.length;
      if (pending.last === sent && idle(pending) && this.runs.get(runId) === pending)
        this.runs.delete(runId);
    }
  }
}
