import type { Usage } from '../contract/usage';
import { USAGE_DETAILS } from '../contract/usage';
import type { CheckpointSource, RunCheckpoints } from '../engine/checkpoint';
import type { PendingToolCalls } from '../engine/deferred-types';
import type { Message, ToolCall } from '../contract/message';
import type { RunStore, WriteOptions } from './port';
import type { RunStatus, StoredRun } from './records';
import { messagesJson, outputJson } from './records';
import { compactionsColumn } from './compaction-column';
import { finishRun, writeRun } from './store-ops';

/** A write that need not wait for the disk flush (see `WriteOptions.flush`). */
const RELAXED: WriteOptions = { flush: false };

/** How a run segment ends in the store. Internal. */
export interface Finish {
  status: Exclude<RunStatus, 'running'>;
  pending?: PendingToolCalls;
  error?: { stage: string; message: string };
  /** The run's own messages, appended to its conversation when it completes. */
  tail?: readonly Message[];
  /** A completed run's decoded output (stored as JSON). */
  output?: unknown;
}

/**
 * Persists one run segment's checkpoints: every write carries the whole consistent evidence (the
 * committed messages plus the results completed in the current batch), the calls in flight, the
 * calls still waiting for a decision, the counters and a renewed lease, and is conditional on the
 * version last written — so a process that lost its lease stops at its next write. Writes are
 * serialised; after a failed write every later one fails with the same error. Internal.
 *
 * Calls waiting for a decision: a paused run taken by `resume` keeps its pending calls in every
 * write until the resolutions are committed, so a process that dies before that leaves each call
 * without a recorded result still waiting — a continuation pauses on it again instead of running
 * it. (The denials and external results among the decisions are written with the first approved
 * call's write-ahead record, before it runs.)
 */
export class Recorder implements RunCheckpoints {
  private row: StoredRun;
  private results: Message[] = [];
  private readonly inFlight = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private last: CheckpointSource | undefined;
  /** The stored `pending` calls that wait for a decision (JSON), kept until a commit. */
  private waiting: string | null;

  /** Records the run stored as `row`, whose calls `inFlight` (decoded) had started. */
  constructor(
    private readonly store: RunStore,
    row: StoredRun,
    inFlight: readonly string[] = [],
  ) {
    this.row = row;
    this.waiting = row.pending;
    for (const id of inFlight) this.inFlight.add(id);
    // Renew the lease while a long model call or tool runs; never keeps the process alive.
    this.heartbeat = setInterval(
      () => {
        if (this.last !== undefined) this.write(this.last).catch(() => undefined);
      },
      Math.max(1, Math.floor(store.leaseMs / 3)),
    );
    // Node's, Bun's and Deno's timers have `unref`; a Cloudflare Worker's are plain numbers.
    (this.heartbeat as { unref?: () => unknown }).unref?.();
  }

  /** The id of the run being recorded. */
  get runId(): string {
    return this.row.id;
  }

  /** The run row as last written. */
  get current(): StoredRun {
    return this.row;
  }

  starting(source: CheckpointSource, calls: readonly ToolCall[]): Promise<void> {
    for (const call of calls) this.inFlight.add(call.id);
    return this.write(source);
  }

  result(call: ToolCall, message: Message): void {
    this.results.push(message);
    this.inFlight.delete(call.id);
  }

  /**
   * After a final (or output) turn nothing is pending: only decoding runs before the run's end,
   * a flushed write, so this one need not wait for the disk flush. After a result of a parallel
   * group it must: the result is then never lost.
   */
  save(source: CheckpointSource): Promise<void> {
    const settled = this.results.length === 0 && this.inFlight.size === 0;
    return this.write(source, settled ? RELAXED : undefined);
  }

  /**
   * The batch's results are in `source.messages`: nothing is in flight. `waiting` are the calls
   * the run is about to pause on (stored as waiting, so a death before the pause is recorded
   * leaves them waiting); none by default — resolutions were committed.
   */
  commit(source: CheckpointSource, waiting?: PendingToolCalls): Promise<void> {
    this.results = [];
    this.inFlight.clear();
    this.waiting = waiting === undefined ? null : JSON.stringify(waiting);
    return this.write(source);
  }

  /** The last segment write: status, pending calls or error, the lease released. */
  finish(source: CheckpointSource, finish: Finish): Promise<void> {
    clearInterval(this.heartbeat);
    if (finish.status !== 'failed') {
      this.results = [];
      this.inFlight.clear();
    }
    const row = this.snapshot(source, finish.status);
    // A failed run keeps the calls still waiting: continuing it must not run them undecided.
    if (finish.pending !== undefined) row.pending = JSON.stringify(finish.pending);
    else if (finish.status !== 'failed') row.pending = null;
    row.errorStage = finish.error?.stage ?? null;
    row.errorMessage = finish.error?.message ?? null;
    row.output = outputJson(finish.output);
    row.leaseOwner = null;
    row.leaseExpiresAt = null;
    return this.enqueue(row, (next, expected) =>
      finishRun(this.store, next, expected, finish.tail ?? []),
    );
  }

  /** Records a failure that left no state to snapshot: the last checkpoint stays, marked failed. */
  failAsIs(error: { stage: string; message: string }): Promise<void> {
    clearInterval(this.heartbeat);
    const row: StoredRun = {
      ...this.row,
      status: 'failed',
      errorStage: error.stage,
      errorMessage: error.message,
      leaseOwner: null,
      leaseExpiresAt: null,
    };
    return this.enqueue(row, (next, expected) => finishRun(this.store, next, expected, []));
  }

  /**
   * Gives the run back untouched (`status` as it was, lease released), e.g. after `resume` was
   * called with invalid results; best effort.
   */
  release(status: RunStatus): Promise<void> {
    clearInterval(this.heartbeat);
    const row: StoredRun = { ...this.row, status, leaseOwner: null, leaseExpiresAt: null };
    return this.enqueue(row, (next, expected) => writeRun(this.store, next, expected)).catch(
      () => undefined,
    );
  }

  /** Stops recording after a failure outside the run's stages (a store error); frees the lease if it can. */
  abandon(): Promise<void> {
    clearInterval(this.heartbeat);
    const row: StoredRun = { ...this.row, leaseOwner: null, leaseExpiresAt: null };
    // The queue may have failed; try the release on a fresh one.
    this.queue = Promise.resolve();
    return this.enqueue(row, (next, expected) => writeRun(this.store, next, expected)).catch(
      () => undefined,
    );
  }

  private snapshot(source: CheckpointSource, status: RunStatus): StoredRun {
    const messages =
      this.results.length === 0 ? source.messages : [...source.messages, ...this.results];
    return {
      ...this.row,
      status,
      messages: messagesJson(messages),
      usage: usageJson(source.usage),
      requests: source.requests,
      toolCalls: source.toolCalls,
      turns: source.completedTurns,
      pending: this.waiting,
      inFlight: this.inFlight.size === 0 ? null : JSON.stringify([...this.inFlight]),
      errorStage: null,
      errorMessage: null,
      output: null,
      compactions: source.compactions === undefined ? null : compactionsColumn(source.compactions),
    };
  }

  private write(source: CheckpointSource, options?: WriteOptions): Promise<void> {
    this.last = source;
    return this.enqueue(this.snapshot(source, 'running'), (next, expected) =>
      writeRun(this.store, next, expected, options),
    );
  }

  /** Queues a write of `row` (version and times filled in when it runs). */
  private enqueue(
    row: StoredRun,
    write: (next: StoredRun, expected: number) => Promise<void>,
  ): Promise<void> {
    const run = async (): Promise<void> => {
      const now = this.store.now();
      const expected = this.row.version;
      const next: StoredRun = {
        ...row,
        updatedAt: now,
        leaseExpiresAt: row.leaseOwner === null ? null : now + this.store.leaseMs,
        version: expected + 1,
      };
      await write(next, expected);
      this.row = next;
    };
    const queued = this.queue.then(run);
    this.queue = queued;
    return queued;
  }
}

/** Stored usage: the two counts, then the detail counters the run has (additive keys). */
function usageJson(usage: Usage): string {
  const stored: Usage = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
  for (const key of USAGE_DETAILS) if (usage[key] !== undefined) stored[key] = usage[key];
  return JSON.stringify(stored);
}
