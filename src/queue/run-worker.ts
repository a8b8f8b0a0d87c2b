import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { RunStore } from '../core/durable/port';
import { ActiveRuns } from './active-runs';
import type { BullLane, JobRetention, StalledJobs } from './bullmq-engine';
import { BullConsumer } from './bullmq-engine';
import type { TraceContinuation } from './execute';
import { executeDelivery } from './execute';
import { FeedPublisher } from './feed-publisher';
import type { QueueLimits, ResolvedLimits } from './job';
import { resolveLimits } from './job';
import { QueueError } from './queue-error';
import { checkWorkerOptions } from './queue-options';
import type { ErrorListener, RedisConnection } from './redis';
import { checkName, closeRedis, connectRedis, QueueKeys } from './redis';
import { RedisControl } from './redis-control';
import type { FeedRetention } from './redis-feed';
import { RedisFeed } from './redis-feed';
import type { AgentEntry, AgentRegistry } from './registry';
import { registryMap } from './registry';
import { SharedSubscriber } from './subscriber';
import { WriteCoalescer } from './write-coalescer';

/** A lane a worker consumes: a queue with its own concurrency and rate limit. */
export interface LaneOptions {
  /** Runs of this lane a worker executes at once; default the worker's `concurrency`. */
  concurrency?: number;
  /**
   * At most `max` runs start per `duration` ms across every worker of the pool (BullMQ's limiter,
   * kept in Redis): route a provider's agents to a lane to stay under its requests per minute.
   */
  limiter?: { max: number; duration: number };
}

/** Options of {@link runWorker}. */
export interface RunWorkerOptions {
  /** Redis: a `redis://` URL or ioredis options. */
  connection: RedisConnection;
  /** The run store every run is checkpointed in (shared with the producers). */
  store: RunStore;
  /** The agents this worker runs, by the names jobs use. */
  agents: AgentRegistry;
  /** The queue's name; default `golem` (as the producer's). */
  name?: string;
  /** Key prefix in Redis; default `golem` (as the producer's). */
  prefix?: string;
  /** Runs executed at once per lane; default 10. */
  concurrency?: number;
  /** The lanes consumed, with their limits; default `{ default: {} }`. */
  lanes?: Readonly<Record<string, LaneOptions>>;
  /** Caps every run segment's execution time, ms (a per-queue deadline); default none. */
  timeout?: number;
  /** How fast a dead worker's jobs are handed over (BullMQ's lock and stalled checks). */
  stalled?: StalledJobs;
  jobs?: JobRetention;
  limits?: QueueLimits;
  /** Continues the job's trace context around the run, e.g. `withTraceContext` from `golem/otel`. */
  continueTrace?: TraceContinuation;
  feed?: FeedRetention;
  /** Background errors: Redis reconnects, feed appends that failed. Default: ignored. */
  onError?: ErrorListener;
  /** The clock (ms since the epoch) deadlines are checked with; default `Date.now`. */
  clock?: () => number;
}

function positive(value: number | undefined, name: string, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 1)
    throw new QueueError(`${name} must be a positive integer`, { reason: 'invalid-options' });
  return v;
}

/**
 * A worker process's part of the pool: it takes jobs from its lanes, runs them with the agents of
 * its registry, checkpoints them in the run store and publishes their progress. Any number of
 * workers, on any machines, share the work; a dead one's runs are recovered by the others.
 */
export class RunWorker {
  /** This worker's id (`host/pid/random`), as feed events name it. */
  readonly id = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  private readonly bull: Redis;
  private readonly subscriber: SharedSubscriber;
  private readonly consumer: BullConsumer;
  private readonly active = new ActiveRuns();
  private readonly publisher: FeedPublisher;
  private readonly agents: ReadonlyMap<string, AgentEntry>;
  private readonly limits: ResolvedLimits;
  private readonly feed: RedisFeed;
  private readonly control: RedisControl;
  private unlisten: (() => Promise<void>) | undefined;
  private closing: Promise<void> | undefined;

  /** Use {@link runWorker}, which also starts it. */
  constructor(private readonly options: RunWorkerOptions) {
    // Everything is checked before the first connection: a refused configuration opens nothing.
    checkWorkerOptions(options);
    const onError = options.onError ?? (() => undefined);
    const keys = new QueueKeys(
      checkName(options.prefix ?? 'golem', 'prefix'),
      checkName(options.name ?? 'golem', 'name'),
    );
    const concurrency = positive(options.concurrency, 'concurrency', 10);
    const lanes: BullLane[] = Object.entries(options.lanes ?? { default: {} }).map(([lane, o]) => ({
      lane: checkName(lane, 'lane'),
      concurrency: positive(o.concurrency, `lanes.${lane}.concurrency`, concurrency),
      limiter: o.limiter,
    }));
    if (lanes.length === 0)
      throw new QueueError('lanes must name at least one lane', { reason: 'invalid-options' });
    this.agents = registryMap(options.agents);
    this.limits = resolveLimits(options.limits);
    // One connection for BullMQ's commands and golem's: Redis applies them in the order they are
    // sent, so a run's ending, sent just before its job's outcome, is in the feed before the job
    // settles — without waiting for its reply (`orderedWithJobs`).
    this.bull = connectRedis(options.connection, onError, 'golem-worker');
    this.subscriber = new SharedSubscriber(() =>
      connectRedis(options.connection, onError, 'golem-worker-sub'),
    );
    // A run's appends and BullMQ's commands sent in one turn leave in one socket write.
    const coalescer = new WriteCoalescer(this.bull);
    this.feed = new RedisFeed(this.bull, keys, this.subscriber, options.feed, () => {
      coalescer.hold();
    });
    this.control = new RedisControl(this.bull, keys, this.subscriber, 2_592_000_000);
    this.publisher = new FeedPublisher(this.feed, onError, { orderedWithJobs: true });
    this.consumer = new BullConsumer(
      this.bull,
      keys,
      lanes,
      options.stalled ?? {},
      options.jobs ?? {},
      this.id,
      onError,
    );
  }

  /** Runs executing in this process now. */
  get activeRuns(): number {
    return this.active.size;
  }

  /** Listens for cancellations, then starts taking jobs. */
  async start(): Promise<void> {
    this.unlisten = await this.control.onCancel((runId, reason) => {
      this.active.cancel(runId, reason);
    });
    const executor = {
      store: this.options.store,
      agents: this.agents,
      feed: this.publisher,
      control: this.control,
      active: this.active,
      limits: this.limits,
      workerId: this.id,
      now: this.options.clock ?? Date.now,
      timeout: this.options.timeout,
      continueTrace: this.options.continueTrace,
    };
    await this.consumer.start((delivery) => executeDelivery(executor, delivery));
  }

  /**
   * Stops taking jobs. By default waits for the runs in progress to finish; with `handover` it
   * stops them at once and requeues them (another worker continues each from its checkpoint).
   */
  close(options: { handover?: boolean } = {}): Promise<void> {
    this.closing ??= (async () => {
      if (options.handover === true) this.active.handOverAll();
      await this.consumer.close(false);
      await this.unlisten?.();
      const sub = this.subscriber.connected;
      this.subscriber.clear();
      if (sub !== undefined) await closeRedis(sub);
      await closeRedis(this.bull);
    })();
    return this.closing;
  }
}

/** Starts a worker (see {@link RunWorker}); resolves once it takes jobs. */
export async function runWorker(options: RunWorkerOptions): Promise<RunWorker> {
  const worker = new RunWorker(options);
  await worker.start();
  return worker;
}
