import { DelayedError, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Job, JobJson, KeepJobs } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobConsumerPort, JobHandler, JobProducerPort, JobState, SubmittedJob } from './port';
import type { ErrorListener, QueueKeys } from './redis';

/** How long BullMQ keeps finished jobs (the run store keeps the runs themselves). */
export interface JobRetention {
  /** Completed jobs: default `{ age: 86_400, count: 10_000 }` (seconds, jobs). */
  completed?: KeepJobs;
  /** Failed jobs: default `{ age: 604_800 }` (a week), so failures stay visible. */
  failed?: KeepJobs;
}

const PENDING: ReadonlySet<string> = new Set([
  'waiting',
  'delayed',
  'prioritized',
  'waiting-children',
]);

/** The producer side of the port over BullMQ queues, one per lane. Internal. */
export class BullProducer implements JobProducerPort {
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: QueueKeys,
    private readonly retention: JobRetention,
    private readonly now: () => number,
  ) {}

  /** The BullMQ queue of `lane` (created on first use). */
  queue(lane: string): Queue {
    let queue = this.queues.get(lane);
    if (queue === undefined) {
      queue = new Queue(this.keys.queueOf(lane), {
        connection: this.redis,
        prefix: this.keys.prefix,
      });
      this.queues.set(lane, queue);
    }
    return queue;
  }

  async submit(job: SubmittedJob): Promise<{ added: boolean; existing: unknown }> {
    const queue = this.queue(job.lane);
    const delay = job.notBefore === undefined ? 0 : Math.max(0, job.notBefore - this.now());
    await queue.add('run', job.data, {
      jobId: job.id,
      delay,
      attempts: job.attempts,
      backoff: { type: 'exponential', delay: job.backoffMs },
      ...(job.priority !== undefined && { priority: job.priority }),
      removeOnComplete: this.retention.completed ?? { age: 86_400, count: 10_000 },
      removeOnFail: this.retention.failed ?? { age: 604_800 },
    });
    if (!job.verify) return { added: true, existing: job.data };
    // Two producers may race on one id: only the job whose data is ours was added by us.
    const after = await queue.getJob(job.id);
    const mine = after === undefined || JSON.stringify(after.data) === JSON.stringify(job.data);
    return { added: mine, existing: after?.data };
  }

  async find(lane: string, id: string): Promise<{ data: unknown } | undefined> {
    const job = await this.queue(lane).getJob(id);
    return job === undefined ? undefined : { data: job.data };
  }

  async withdraw(lane: string, id: string): Promise<boolean> {
    const queue = this.queue(lane);
    const state = await queue.getJobState(id);
    if (!PENDING.has(state)) return false;
    return (await queue.remove(id)) === 1;
  }

  async state(lane: string, id: string): Promise<JobState | undefined> {
    const state = await this.queue(lane).getJobState(id);
    if (state === 'unknown') return undefined;
    if (state === 'waiting' || state === 'prioritized' || state === 'waiting-children')
      return 'waiting';
    return state;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}

/** Why a job's stored payload could not be decoded, per job (kept off the job's own fields). */
const undecodable = new WeakMap<Job, string>();

/**
 * A BullMQ worker that hands golem a job whose stored data is not JSON instead of failing inside
 * BullMQ's fetch (which left the job active, retried every few seconds, and never reached golem's
 * decoder): such a job gets `null` data and is marked undecodable, so golem fails it as
 * `invalid-job`.
 */
class TolerantWorker extends Worker {
  protected override createJob(data: JobJson, jobId: string): Job {
    try {
      return super.createJob(data, jobId);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      const job = super.createJob({ ...data, data: 'null' }, jobId);
      const size = typeof data.data === 'string' ? Buffer.byteLength(data.data) : 0;
      undecodable.set(job, `its stored data is not JSON (${size} bytes)`);
      return job;
    }
  }
}

/** Worker settings per lane, as BullMQ takes them. Internal. */
export interface BullLane {
  readonly lane: string;
  readonly concurrency: number;
  readonly limiter?: { max: number; duration: number } | undefined;
}

/** Crash detection: how soon a dead worker's job is handed to another. */
export interface StalledJobs {
  /** A job's lock lasts this long without renewal, ms (default 30 000). */
  lockDuration?: number;
  /** How often workers look for jobs whose lock expired, ms (default 30 000). */
  interval?: number;
  /** Redeliveries after stalls before BullMQ fails the job (default 5; the run stays resumable). */
  maxCount?: number;
}

/** The consumer side of the port: one BullMQ `Worker` per lane. Internal. */
export class BullConsumer implements JobConsumerPort {
  private readonly workers: Worker[] = [];

  constructor(
    private readonly redis: Redis,
    private readonly keys: QueueKeys,
    private readonly lanes: readonly BullLane[],
    private readonly stalled: StalledJobs,
    private readonly retention: JobRetention,
    private readonly name: string,
    private readonly onError: ErrorListener,
  ) {}

  async start(handler: JobHandler): Promise<void> {
    for (const lane of this.lanes) {
      const processor = async (job: Job, token?: string): Promise<unknown> => {
        const broken = undecodable.get(job);
        const outcome = await handler({
          lane: lane.lane,
          id: job.id ?? '',
          data: job.data,
          ...(broken !== undefined && { undecodable: broken }),
          attempt: job.attemptsMade + 1,
          attempts: job.opts.attempts ?? 1,
        });
        if (outcome.type === 'done') return outcome.value;
        if (outcome.type === 'fail') {
          if (outcome.retry) throw outcome.error;
          throw new UnrecoverableError(outcome.error.message);
        }
        if (outcome.handover)
          await job.updateData({ ...(job.data as Record<string, unknown>), handover: true });
        await job.moveToDelayed(outcome.at, token);
        throw new DelayedError();
      };
      const worker = new TolerantWorker(this.keys.queueOf(lane.lane), processor, {
        connection: this.redis,
        prefix: this.keys.prefix,
        name: this.name,
        concurrency: lane.concurrency,
        ...(lane.limiter !== undefined && { limiter: lane.limiter }),
        lockDuration: this.stalled.lockDuration ?? 30_000,
        stalledInterval: this.stalled.interval ?? 30_000,
        maxStalledCount: this.stalled.maxCount ?? 5,
        removeOnComplete: this.retention.completed ?? { age: 86_400, count: 10_000 },
        removeOnFail: this.retention.failed ?? { age: 604_800 },
      });
      worker.on('error', this.onError);
      this.workers.push(worker);
    }
    await Promise.all(this.workers.map((w) => w.waitUntilReady()));
  }

  async close(force: boolean): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close(force)));
  }
}
