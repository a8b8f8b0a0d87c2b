import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RunStore } from '../durable/port';
import type { DeferredResults } from '../engine/deferred-types';
import type { JsonValue } from '../model/json';
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
import type { CancelResult, RunOutcome, RunStatusReport } from './run-status';
import { cancelRun, runOutcome, runStatus, storedEnding, storedRecord } from './run-status';
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
      ...(deps !== undefined && { deps: JSON.parse(deps) as JsonValue }),
      options: jobOptions({ timeout: defaults.timeout, stream: defaults.stream, ...options }),
      ...(deadline !== undefined && { deadline }),
      enqueuedAt: now,
    };
    const lane = options.lane ?? this.options.route?.(name) ?? 'default';
    return submitJob(this.parts, job, lane, deps, options);
  }

  /**
   * Submits the decisions for a paused run (`{ approvals: { callId: { approved } }, external: {
   * callId: text } }`), checked against its pending calls, and queues the resume: any worker picks
   * it up. Submitting the same decisions again is a no-op; different ones for the same pause are
   * a `conflict`. `deps` default to the start's (kept in Redis with the run's info).
   */
  async decide(
    runId: string,
    results: DeferredResults,
    options: SegmentOptions = {},
  ): Promise<EnqueuedRun> {
    this.open();
    const record = await storedRecord(this.store, runId);
    if (record.status !== 'paused' || record.pending === undefined)
      throw new QueueError(
        `run "${runId}" is ${record.status}, not paused: only a paused run takes decisions`,
        { reason: 'invalid-state', runId },
      );
    const decisions = checkDecisions(runId, record.pending, results);
    return submitSegment(this.parts, 'resume', runId, record.version, record.agent, options, {
      results: decisions,
      pausedVersion: record.version,
    });
  }

  /**
   * Queues the continuation of an interrupted or failed run from its last checkpoint (an operator's
   * "retry": completed tools never run again).
   */
  async recover(runId: string, options: SegmentOptions = {}): Promise<EnqueuedRun> {
    this.open();
    const record = await storedRecord(this.store, runId);
    if (record.status === 'completed' || record.status === 'paused')
      throw new QueueError(
        `run "${runId}" is ${record.status}: ${record.status === 'paused' ? 'submit decisions with decide()' : 'nothing is left to do'}`,
        { reason: 'invalid-state', runId },
      );
    return submitSegment(this.parts, 'continue', runId, record.version, record.agent, options, {});
  }

  /**
   * Cancels a run: a queued one is withdrawn, a running one is aborted by its worker (the store
   * keeps its evidence), a paused one ends. Resolves with what happened.
   */
  cancel(runId: string, reason = 'cancelled by request'): Promise<CancelResult> {
    this.open();
    return cancelRun(
      {
        store: this.store,
        control: this.parts.control,
        producer: this.parts.producer,
        feed: this.parts.feed,
        now: this.parts.now,
      },
      runId,
      reason,
    );
  }

  /** Where the run is: queued, running, paused, completed, failed or cancelled, with its record. */
  status(runId: string): Promise<RunStatusReport> {
    this.open();
    return runStatus(this.store, this.parts.control, this.parts.producer, runId);
  }

  /**
   * The run's feed: the entries kept so far (after `options.after`), then live ones, until the run
   * settles (see {@link FeedReadOptions}). Works from any process, for runs on any worker.
   */
  events(runId: string, options: FeedReadOptions = {}): AsyncIterable<FeedEntry> {
    this.open();
    return readFeed(this.parts.feed, runId, options, async () => {
      try {
        return await storedEnding(
          this.store,
          this.parts.control,
          this.parts.producer,
          runId,
          options.after,
        );
      } catch (error) {
        if (options.waitForStart === true && QueueError.isReason(error, 'not-found'))
          return undefined;
        throw error;
      }
    });
  }

  /** Waits until the run settles (completed, paused, failed, cancelled) and returns the outcome from the store. */
  async result(
    runId: string,
    options: { signal?: AbortSignal; until?: 'settled' | 'finished' } = {},
  ): Promise<RunOutcome> {
    for await (const _entry of this.events(runId, options)) {
      // Drained: the run settles with its last entry.
    }
    options.signal?.throwIfAborted();
    return runOutcome(await this.status(runId));
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
