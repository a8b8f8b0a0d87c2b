import type { RunFeedEvent } from './feed-events';
import type { RunFeedPort } from './port';
import type { ErrorListener } from './redis';

interface Pending {
  buffer: RunFeedEvent[];
  flushing: Promise<void> | undefined;
}

/**
 * Publishes a worker's feed events in order without slowing its runs: `push` buffers an event and
 * returns at once (deltas, run events), `send` also waits until everything buffered before it is
 * written (endings). One append per run is in flight at a time and carries every event buffered
 * meanwhile, so a burst of deltas costs a few round trips, not one each. The feed is advisory —
 * the run store is the record — so a failed append is reported to `onError` and never fails the
 * run; past `maxBuffered` events waiting for one run (Redis slower than the model), further deltas
 * are dropped (counted in {@link droppedDeltas}). Internal.
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
    let pending = this.runs.get(runId);
    if (pending === undefined) {
      pending = { buffer: [], flushing: undefined };
      this.runs.set(runId, pending);
    }
    if (event.type === 'delta' && pending.buffer.length >= this.maxBuffered) {
      this.dropped++;
      return;
    }
    pending.buffer.push(event);
    pending.flushing ??= this.flush(runId, pending);
  }

  async send(runId: string, event: RunFeedEvent): Promise<void> {
    this.push(runId, event);
    await this.runs.get(runId)?.flushing;
  }

  /**
   * Appends a segment's first event after everything queued for the run, and resolves with the
   * run's cancellation reason (one round trip). A feed that cannot be reached is reported and
   * reads as "not cancelled": the run goes on, checkpointed in the store.
   */
  async begin(runId: string, event: RunFeedEvent): Promise<string | undefined> {
    await this.runs.get(runId)?.flushing;
    try {
      return await this.feed.append(runId, [event]);
    } catch (error) {
      this.onError(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    }
  }

  private async flush(runId: string, pending: Pending): Promise<void> {
    await Promise.resolve(); // let the events of this tick join the batch
    while (pending.buffer.length > 0) {
      const batch = pending.buffer;
      pending.buffer = [];
      try {
        await this.feed.append(runId, batch);
      } catch (error) {
        this.onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
    pending.flushing = undefined;
    if (this.runs.get(runId) === pending) this.runs.delete(runId);
  }
}
