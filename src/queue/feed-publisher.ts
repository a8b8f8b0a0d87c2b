import type { RunFeedEvent } from './feed-events';
import type { RunFeedPort } from './port';
import type { ErrorListener } from './redis';

interface Batch {
  readonly events: RunFeedEvent[];
  /** Settles once the batch is written: the run's cancellation reason, if any. */
  readonly written: Promise<string | undefined>;
}

interface Pending {
  /** The batch collecting this tick's events, not sent yet. */
  next: Batch | undefined;
  /** The last batch sent. */
  last: Promise<string | undefined> | undefined;
  /** Events sent and not yet written. */
  inFlight: number;
}

/** Whether nothing is collected for the run (read through a call: `next` changes meanwhile). */
function idle(pending: Pending): boolean {
  return pending.next === undefined;
}

/**
 * Publishes a worker's feed events in order without slowing its runs: `push` adds an event to the
 * run's batch for this tick and returns at once (deltas, run events); `send` also waits until that
 * batch is written (endings). Batches are sent as soon as the tick ends, without waiting for the
 * one before — the feed port applies appends in the order they are made (one Redis connection) —
 * so an ending costs one round trip even while run events are in flight. The feed is advisory —
 * the run store is the record — so a failed append is reported to `onError` and never fails the
 * run; past `maxBuffered` events in flight for one run (Redis slower than the model), further
 * deltas are dropped (counted in {@link droppedDeltas}). Internal.
 */
export class FeedPublisher {
  private readonly runs = new Map<string, Pending>();
  private dropped = 0;

  constructor(
    private readonly feed: RunFeedPort,
    private readonly onError: ErrorListener,
    private readonly maxBuffered = 10_000,
  ) {}

  /** How many deltas were dropped because the feed fell behind. */
  get droppedDeltas(): number {
    return this.dropped;
  }

  push(runId: string, event: RunFeedEvent): void {
    this.batchOf(runId, event);
  }

  async send(runId: string, event: RunFeedEvent): Promise<void> {
    await this.batchOf(runId, event)?.written;
  }

  /**
   * Appends a segment's first event after everything queued for the run, and resolves with the
   * run's cancellation reason (one round trip). A feed that cannot be reached is reported and
   * reads as "not cancelled": the run goes on, checkpointed in the store.
   */
  async begin(runId: string, event: RunFeedEvent): Promise<string | undefined> {
    return this.batchOf(runId, event)?.written;
  }

  /** Adds `event` to the run's batch of this tick (sent when the tick ends); undefined if dropped. */
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
    const events = [event];
    const p = pending;
    const written = Promise.resolve().then(() => this.write(runId, p, events));
    pending.next = { events, written };
    return pending.next;
  }

  private async write(
    runId: string,
    pending: Pending,
    events: RunFeedEvent[],
  ): Promise<string | undefined> {
    pending.next = undefined;
    pending.inFlight += events.length;
    const sent = this.feed.append(runId, events).catch((error: unknown) => {
      this.onError(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    });
    pending.last = sent;
    try {
      return await sent;
    } finally {
      pending.inFlight -= events.length;
      if (pending.last === sent && idle(pending) && this.runs.get(runId) === pending)
        this.runs.delete(runId);
    }
  }
}
