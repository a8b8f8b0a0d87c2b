import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RunStore } from '../core/durable/port';
import type { DeferredResults } from '../core/engine/deferred-types';
import type { JsonValue } from '../core/kit/json';
import { BullProducer } from './bullmq-engine';
import type { AgentRef, EnqueueOptions } from './enqueue-input';
import {
  agentName,
  checkDecisions,
  checkStart,
  deadlineOf,
  depsJson,
  jobOptions,
} from './enqueue-input';
import type { FeedEntry } from './feed-events';
import type { FeedReadOptions } from './feed-reader';
import { readFeed } from './feed-reader';
import type { RunJob } from './job';
import { JOB_VERSION } from './job';
import { QueueError } from './queue-error';
import { checkQueueOptions } from './queue-options';
import { closeRedis, connectRedis, QueueKeys } from './redis';
import { RedisControl } from './redis-control';
import { RedisFeed } from './redis-feed';
import type { OwnerScope } from './run-access';
import { checkedOwner, unknownRun, visibleTo } from './run-access';
import type { CancelOptions, CancelResult, RunOutcome, RunStatusReport } from './run-status';
import {
  cancelRun,
  runOutcome,
  runStatus,
  segmentPending,
  storedEnding,
  storedRecord,
} from './run-status';
import type { EnqueuedRun, RunQueueOptions, SegmentOptions, SubmitContext } from './submit';
import { submitJob, submitSegment } from './submit';
import { SharedSubscriber } from './subscriber';

/**
 * The producer side of distributed runs: enqueue runs, stream their progress, submit decisions
 * for paused runs, cancel, recover. Every method returns as soon as Redis (and, for reads, the run
 * store) answered — runs execute in workers (`runWorker`), any number, anywhere.
 */
export class RunQueue {
  private readonly redis: Redis;
  private readonly bull: Redis;
  private readonly subscriber: SharedSubscriber;
  private readonly options: RunQueueOptions;
  private readonly parts: SubmitContext;
  private closed = false;

  /** Use {@link runQueue}. */
  constructor(options: RunQueueOptions) {
    // Everything is checked before the first connection: a refused configuration opens nothing.
    const { prefix, name, limits } = checkQueueOptions(options);
    this.options = options;
    const onError = options.onError ?? (() => undefined);
    const keys = new QueueKeys(prefix, name);
    const now = options.clock ?? Date.now;
    this.redis = connectRedis(options.connection, onError, 'golem-queue', true);
    this.bull = connectRedis(options.connection, onError, 'golem-queue-bull');
    this.subscriber = new SharedSubscriber(() =>
      connectRedis(options.connection, onError, 'golem-queue-sub'),
    );
    this.parts = {
      producer: new BullProducer(this.bull, keys, options.jobs ?? {}, now),
      feed: new RedisFeed(this.redis, keys, this.subscriber, options.feed),
      control: new RedisControl(
        this.redis,
        keys,
        this.subscriber,
        options.infoTtlMs ?? 2_592_000_000,
      ),
      options,
      limits,
      now,
    };
  }

  /** The run store results are read from. */
  get store(): RunStore {
    return this.options.store;
  }

  /**
   * Queues a run of `agent` (its registry name, an `Agent`, or an agent class) on `prompt` and
   * returns its id at once. Everything is checked before anything is written: the prompt and
   * `deps` sizes, `deps` being plain JSON, ids and options (`QueueError`).
   */
  async enqueue(
    agent: AgentRef,
    prompt: string,
    options: EnqueueOptions = {},
  ): Promise<EnqueuedRun> {
    this.open();
    const name = agentName(agent);
    checkStart(prompt, options, this.parts.limits);
    const deps = depsJson(options.deps, this.parts.limits);
    const defaults = this.options.defaults ?? {};
    const now = this.parts.now();
    const deadline =
      deadlineOf(options.deadline, now) ??
      (defaults.deadlineIn === undefined ? undefined : now + defaults.deadlineIn);
    const owner = checkedOwner(options.owner);
    const runId = options.runId ?? randomUUID();
    if (options.runId !== undefined && (await this.store.getRun(runId)) !== undefined)
      throw new QueueError(`a stored run already has the id "${runId}"; run ids are unique`, {
        reason: 'conflict',
        runId,
      });
    const job: RunJob = {
      v: JOB_VERSION,
      kind: 'start',
      runId,
      agent: name,
      prompt,
      ...(options.conversation !== undefined && { conversation: options.conversation }),
      ...(owner !== undefined && { owner }),
      ...(deps !== undefined && { deps: JSON.parse(deps) as JsonValue }),
      options: jobOptions({ timeout: defaults.timeout, stream: defaults.stream, ...options }),
      ...(deadline !== undefined && { deadline }),
      enqueuedAt: now,
    };
    const lane = options.lane ?? this.options.route?.(name) ?? 'default';
    return submitJob(this.parts, job, lane, deps, options, owner);
  }

  /**
   * Submits the decisions for a paused run (`{ approvals: { callId: { approved } }, external: {
   * callId: text } }`), checked against its pending calls, and queues the resume: any worker picks
   * it up. Submitting the same decisions again is a no-op; different ones for the same pause are
   * a `conflict`. `deps` default to the start's (kept in Redis with the run's info). With
   * `options.owner`, a run of another owner is `not-found`, exactly as an unknown id.
   */
  async decide(
    runId: string,
    results: DeferredResults,
    options: SegmentOptions = {},
  ): Promise<EnqueuedRun> {
    this.open();
    const record = await storedRecord(this.store, runId, checkedOwner(options.owner));
    if (record.status !== 'paused' || record.pending === undefined)
      throw new QueueError(
        `run "${runId}" is ${record.status}, not paused: only a paused run takes decisions`,
        { reason: 'invalid-state', runId },
      );
    const decisions = checkDecisions(runId, record.pending, results);
    return submitSegment(this.parts, 'resume', record, options, {
      results: decisions,
      pausedVersion: record.version,
    });
  }

  /**
   * Queues the continuation of an interrupted or failed run from its last checkpoint (an operator's
   * "retry": completed tools never run again). `options.owner` limits it to that owner's runs.
   */
  async recover(runId: string, options: SegmentOptions = {}): Promise<EnqueuedRun> {
    this.open();
    const record = await storedRecord(this.store, runId, checkedOwner(options.owner));
    if (record.status === 'completed' || record.status === 'paused')
      throw new QueueError(
        `run "${runId}" is ${record.status}: ${record.status === 'paused' ? 'submit decisions with decide()' : 'nothing is left to do'}`,
        { reason: 'invalid-state', runId },
      );
    return submitSegment(this.parts, 'continue', record, options, {});
  }

  /**
   * Cancels a run: a queued one is withdrawn, a running one is aborted by its worker (the store
   * keeps its evidence), a paused one ends. Resolves with what happened. `reason` is a text or
   * `{ reason?, owner? }`: with `owner`, a run of another owner is `not-found`, as an unknown id.
   */
  cancel(runId: string, reason: string | CancelOptions = {}): Promise<CancelResult> {
    this.open();
    const options = typeof reason === 'string' ? { reason } : reason;
    const owner = checkedOwner(options.owner);
    return cancelRun(
      {
        store: this.store,
        control: this.parts.control,
        producer: this.parts.producer,
        feed: this.parts.feed,
        now: this.parts.now,
      },
      runId,
      options.reason ?? 'cancelled by request',
      owner,
    );
  }

  /**
   * Where the run is: queued, running, paused, completed, failed or cancelled, with its record.
   * With `options.owner`, a run of another owner is `not-found`, exactly as an unknown id.
   */
  status(runId: string, options: OwnerScope = {}): Promise<RunStatusReport> {
    this.open();
    const owner = checkedOwner(options.owner);
    return runStatus(this.store, this.parts.control, this.parts.producer, runId, owner);
  }

  /**
   * The run's feed: the entries kept so far (after `options.after`), then live ones, until the run
   * settles (see {@link FeedReadOptions}). Works from any process, for runs on any worker. With
   * `options.owner`, a run of another owner is `not-found`, exactly as an unknown id.
   */
  events(runId: string, options: FeedReadOptions & OwnerScope = {}): AsyncIterable<FeedEntry> {
    this.open();
    const owner = checkedOwner(options.owner);
    const entries = readFeed(this.parts.feed, runId, options, async () => {
      try {
        return await storedEnding(
          this.store,
          this.parts.control,
          this.parts.producer,
          runId,
          options.after,
          owner,
        );
      } catch (error) {
        if (options.waitForStart === true && QueueError.isReason(error, 'not-found'))
          return undefined;
        throw error;
      }
    });
    return owner === undefined ? entries : this.ownedEntries(runId, owner, entries);
  }

  /**
   * `entries` once the run is known to belong to `owner` (checked before the first entry is read
   * and, for a run not known yet, again before the first one is given out); `not-found` otherwise.
   */
  private async *ownedEntries(
    runId: string,
    owner: string,
    entries: AsyncIterable<FeedEntry>,
  ): AsyncGenerator<FeedEntry, void, undefined> {
    let seen = await this.visibility(runId, owner);
    if (seen === 'hidden') throw unknownRun(runId);
    for await (const entry of entries) {
      if (seen === 'unknown') {
        seen = await this.visibility(runId, owner);
        if (seen !== 'visible') throw unknownRun(runId);
      }
      yield entry;
    }
  }

  /** Whether `owner` may see the run: `unknown` while neither the store nor the queue knows it. */
  private async visibility(
    runId: string,
    owner: string,
  ): Promise<'visible' | 'hidden' | 'unknown'> {
    const [row, info] = await Promise.all([
      this.store.getRun(runId),
      this.parts.control.runInfo(runId),
    ]);
    if (row === undefined && info === undefined) return 'unknown';
    return visibleTo(owner, row, info) ? 'visible' : 'hidden';
  }

  /**
   * Waits until the run settles (completed, paused, failed, cancelled) and returns the outcome from
   * the store — of its latest segment: right after `decide` or `recover` it waits for the resumed
   * run, never answers with the pause just decided. With `options.owner`, a run of another owner
   * is `not-found`, as an unknown id.
   */
  async result(
    runId: string,
    options: { signal?: AbortSignal; until?: 'settled' | 'finished' } & OwnerScope = {},
  ): Promise<RunOutcome> {
    let after: string | undefined;
    for await (const entry of this.events(runId, options)) after = entry.cursor;
    for (;;) {
      options.signal?.throwIfAborted();
      const report = await this.status(runId, options);
      if (!segmentPending(report)) return runOutcome(report);
      // The ending read was an earlier segment's: read on to the latest segment's ending.
      for await (const entry of this.feedAfter(runId, after, options)) after = entry.cursor;
    }
  }

  /** The feed's entries after `after`, to the next ending; never the store's (it is behind). */
  private feedAfter(
    runId: string,
    after: string | undefined,
    options: { signal?: AbortSignal; until?: 'settled' | 'finished' },
  ): AsyncIterable<FeedEntry> {
    const read: FeedReadOptions = { after, until: options.until, signal: options.signal };
    return readFeed(this.parts.feed, runId, read, () => Promise.resolve(undefined));
  }

  /** Closes the Redis connections (queued runs stay queued). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.parts.producer.close();
    const sub = this.subscriber.connected;
    this.subscriber.clear();
    if (sub !== undefined) await closeRedis(sub);
    await closeRedis(this.redis);
    await closeRedis(this.bull);
  }

  private open(): void {
    if (this.closed) throw new QueueError('the queue is closed', { reason: 'closed' });
  }
}

/** A producer for distributed runs on BullMQ (see {@link RunQueue}). */
export function runQueue(options: RunQueueOptions): RunQueue {
  return new RunQueue(options);
}
