import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { JsonValue } from '../core/kit/json';
import { WorkflowError, WorkflowRecorder } from '../workflows/index';
import type {
  RecordedOutcome,
  WorkflowDefinition,
  WorkflowObserver,
  WorkflowStore,
} from '../workflows/index';
import type { JobRetention, StalledJobs } from './bullmq-engine';
import { BullConsumer, BullProducer } from './bullmq-engine';
import type { JobDelivery, JobOutcome } from './port';
import { QueueError } from './queue-error';
import type { ErrorListener, RedisConnection } from './redis';
import { closeRedis, connectRedis, QueueKeys } from './redis';
import { addWorkflowJob, decodeWorkflowJob, workflowJobId } from './workflow-job';
import { checkWorkflowWorkerOptions } from './workflow-options';

/** Options of {@link workflowWorker}. */
export interface WorkflowWorkerOptions {
  /** Redis: a `redis://` URL or ioredis options. */
  connection: RedisConnection;
  /** The workflow store every producer and worker shares. */
  store: WorkflowStore;
  /**
   * The workflows this worker executes (by the names stored runs use): every workflow started on
   * this queue (a job for another is failed as `not-found`; use one queue name per set).
   */
  workflows: readonly WorkflowDefinition[];
  /** The queue's name; default `golem-workflows` (as the producer's). */
  name?: string;
  /** Key prefix in Redis; default `golem` (as the producer's). */
  prefix?: string;
  /** Runs executed at once; default 10. */
  concurrency?: number;
  /** How fast a dead worker's jobs are handed over (BullMQ's lock and stalled checks). */
  stalled?: StalledJobs;
  /**
   * How often, ms, this worker queues the runs the store says are due (timers, recorded decisions,
   * expired leases) whose jobs were lost; also once at start. Default 30 000; `0`: never.
   */
  sweepMs?: number;
  /** How long a run's lease lasts without renewal, ms (default the store's `leaseMs`). */
  leaseMs?: number;
  /** How long BullMQ keeps finished jobs. */
  jobs?: JobRetention;
  /** Receives every workflow event of the runs this worker executes. */
  onEvent?: WorkflowObserver;
  /** Background errors: Redis reconnects, failed sweeps. Default: ignored. */
  onError?: ErrorListener;
}

/** Waited past a lease's expiry before trying a leased run again, ms. */
const LEASE_MARGIN_MS = 50;

/**
 * A worker process's part of the pool executing workflow runs: it takes jobs, executes the run
 * each names from its checkpoints (completed steps replay, never re-run), queues a delayed job for
 * a run suspended on a timer, and retries a job later while another live worker holds the run's
 * lease (a run never executes twice at once). A killed worker's job is handed to another worker by
 * BullMQ's stalled-job check; the periodic sweep catches runs whose jobs were lost.
 */
export class WorkflowWorker {
  /** This worker's id (`host/pid/random`), the lease owner of the runs it executes. */
  readonly id = `${hostname()}/${String(process.pid)}/${randomUUID().slice(0, 8)}`;
  private readonly bull: Redis;
  private readonly consumer: BullConsumer;
  private readonly producer: BullProducer;
  private readonly recorder: WorkflowRecorder;
  private readonly onError: ErrorListener;
  private timer: ReturnType<typeof setInterval> | undefined;
  private sweeping: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | undefined;

  /** Use {@link workflowWorker}, which also starts it. */
  constructor(private readonly options: WorkflowWorkerOptions) {
    // Everything is checked before the first connection: a refused configuration opens nothing.
    const { prefix, name } = checkWorkflowWorkerOptions(options);
    this.onError = options.onError ?? (() => undefined);
    this.recorder = new WorkflowRecorder({
      store: options.store,
      workflows: options.workflows,
      owner: this.id,
      ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
      ...(options.onEvent !== undefined && { onEvent: options.onEvent }),
    });
    const keys = new QueueKeys(prefix, name);
    this.bull = connectRedis(options.connection, this.onError, 'golem-workflow-worker');
    this.producer = new BullProducer(this.bull, keys, options.jobs ?? {}, Date.now);
    this.consumer = new BullConsumer(
      this.bull,
      keys,
      [{ lane: 'default', concurrency: options.concurrency ?? 10 }],
      options.stalled ?? {},
      options.jobs ?? {},
      this.id,
      this.onError,
    );
  }

  /** Starts taking jobs, then sweeps once and every `sweepMs`. */
  async start(): Promise<void> {
    await this.consumer.start((delivery) => this.handle(delivery));
    const every = this.options.sweepMs ?? 30_000;
    if (every === 0) return;
    await this.sweep();
    this.timer = setInterval(() => {
      this.sweeping = this.sweep().catch(this.onError);
    }, every);
    this.timer.unref();
  }

  /**
   * Queues a job for every run the store says is due — a due timer, a recorded decision or event,
   * an expired lease — deduplicated by the run's version; resolves with their ids.
   */
  async sweep(): Promise<string[]> {
    const due = await this.recorder.dueRuns();
    const queue = this.producer.queue('default');
    await Promise.all(
      due.map((run) =>
        addWorkflowJob(queue, this.options.jobs ?? {}, 'sweep', run.runId, {
          detail: run.version,
        }),
      ),
    );
    return due.map((run) => run.runId);
  }

  /** Stops sweeping and taking jobs; waits for the runs in progress to finish. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.timer !== undefined) clearInterval(this.timer);
      await this.sweeping.catch(() => undefined);
      await this.consumer.close(false);
      await this.producer.close();
      await closeRedis(this.bull);
    })();
    return this.closing;
  }

  private async handle(delivery: JobDelivery): Promise<JobOutcome> {
    if (delivery.undecodable !== undefined)
      return fail(
        new QueueError(`workflow job ${delivery.id}: ${delivery.undecodable}`, {
          reason: 'invalid-job',
        }),
      );
    let runId: string;
    try {
      runId = decodeWorkflowJob(delivery.data).runId;
    } catch (error) {
      return fail(error as QueueError);
    }
    let outcome: RecordedOutcome;
    try {
      outcome = await this.recorder.executeRecorded(runId);
    } catch (error) {
      // Another process took the run over, or it was cancelled: nothing left for this job.
      if (WorkflowError.isKind(error, 'lease-lost') || WorkflowError.isKind(error, 'cancelled'))
        return done(runId, error.kind);
      // The run failed (its evidence is in the store) or its data did not validate: no retry.
      if (WorkflowError.is(error)) return fail(error);
      // The store or Redis failed: BullMQ retries the job.
      return {
        type: 'fail',
        error: error instanceof Error ? error : new Error(String(error)),
        retry: true,
      };
    }
    const now = this.options.store.now();
    if (outcome.status === 'leased')
      return {
        type: 'later',
        at: Date.now() + Math.max(0, outcome.until - now) + LEASE_MARGIN_MS,
        handover: false,
      };
    if (outcome.status === 'suspended') {
      const timers = outcome.waiting.flatMap((w) => (w.wakeAt === undefined ? [] : [w.wakeAt]));
      if (timers.length > 0) {
        const wakeAt = Math.min(...timers);
        const delayMs = wakeAt - now;
        // This job is the timer's own, delivered early (clocks differ): wait again.
        if (delivery.id === workflowJobId('timer', runId, wakeAt) && delayMs > 0)
          return { type: 'later', at: Date.now() + delayMs, handover: false };
        await addWorkflowJob(
          this.producer.queue('default'),
          this.options.jobs ?? {},
          'timer',
          runId,
          {
            detail: wakeAt,
            delayMs,
          },
        );
      }
    }
    return done(runId, outcome.status);
  }
}

function done(runId: string, status: string): JobOutcome {
  const value: JsonValue = { runId, status };
  return { type: 'done', value };
}

function fail(error: Error): JobOutcome {
  return { type: 'fail', error, retry: false };
}

/** Starts a workflow worker (see {@link WorkflowWorker}); resolves once it takes jobs. */
export async function workflowWorker(options: WorkflowWorkerOptions): Promise<WorkflowWorker> {
  const worker = new WorkflowWorker(options);
  await worker.start();
  return worker;
}
