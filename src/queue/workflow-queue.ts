import type { Redis } from 'ioredis';
import { WorkflowRecorder, WorkflowRunner } from '../workflows/index';
import type {
  WorkflowDefinition,
  WorkflowRunFilter,
  WorkflowRunInfo,
  WorkflowStore,
} from '../workflows/index';
import type { JobRetention } from './bullmq-engine';
import { BullProducer } from './bullmq-engine';
import { isRunId } from './job';
import { QueueError } from './queue-error';
import type { ErrorListener, RedisConnection } from './redis';
import { closeRedis, connectRedis, QueueKeys } from './redis';
import type { OwnerScope } from './run-access';
import { checkedOwner } from './run-access';
import { addWorkflowJob } from './workflow-job';
import { checkWorkflowQueueOptions } from './workflow-options';

/** Options of {@link workflowQueue}. */
export interface WorkflowQueueOptions {
  /** Redis: a `redis://` URL or ioredis options. */
  connection: RedisConnection;
  /** The workflow store every producer and worker shares (`postgresStore`, `sqliteStore`, …). */
  store: WorkflowStore;
  /** Workflows `start` may name (their input is validated here); a definition can be passed instead. */
  workflows?: readonly WorkflowDefinition[];
  /** The queue's name; default `golem-workflows` (as the workers'). */
  name?: string;
  /** Key prefix in Redis; default `golem` (as the workers'). */
  prefix?: string;
  /** How long BullMQ keeps finished jobs. */
  jobs?: JobRetention;
  /** New run ids (default a random UUID). */
  idGenerator?: () => string;
  /** Background errors (Redis reconnects). Default: ignored. */
  onError?: ErrorListener;
}

/** A run `start` queued: its id and the job that carries it. */
export interface QueuedWorkflowRun {
  runId: string;
  /** The BullMQ job id (deterministic: `wf-start.<runId>`). */
  jobId: string;
}

/** A decision or event `resume` / `signal` recorded: the step given it and the job queued. */
export interface QueuedDelivery extends QueuedWorkflowRun {
  /** The step key the data was recorded for. */
  step: string;
}

/** Options of {@link WorkflowQueue.start}. */
export interface QueueStartOptions extends OwnerScope {
  /** The run's id (default a new one); must be new. */
  runId?: string;
}

/**
 * The producer side of workflows on the queue: starts runs, records decisions and events for
 * suspended ones, and returns at once — workers (`workflowWorker`, any number, anywhere) execute
 * them. Reads and cancellations go to the store. Every door given an `owner` checks it (another
 * owner's run is reported as missing: `WorkflowError` `not-found`).
 */
export class WorkflowQueue {
  private readonly bull: Redis;
  private readonly producer: BullProducer;
  private readonly runner: WorkflowRunner;
  private readonly recorder: WorkflowRecorder;
  private readonly workflows: ReadonlyMap<string, WorkflowDefinition>;
  private closed = false;

  /** Use {@link workflowQueue}. */
  constructor(private readonly options: WorkflowQueueOptions) {
    // Everything is checked before the first connection: a refused configuration opens nothing.
    const { prefix, name } = checkWorkflowQueueOptions(options, 'workflowQueue');
    const workflows = options.workflows ?? [];
    const base = {
      store: options.store,
      workflows,
      ...(options.idGenerator !== undefined && { idGenerator: options.idGenerator }),
    };
    this.runner = new WorkflowRunner(base);
    this.recorder = new WorkflowRecorder(base);
    this.workflows = new Map(workflows.map((w) => [w.name, w]));
    this.bull = connectRedis(
      options.connection,
      options.onError ?? (() => undefined),
      'golem-workflow-queue',
    );
    this.producer = new BullProducer(
      this.bull,
      new QueueKeys(prefix, name),
      options.jobs ?? {},
      Date.now,
    );
  }

  /**
   * Stores a new run of `workflow` (its input validated) and queues it; resolves with its id at
   * once. A name must be one of `workflows`; a definition may be passed directly.
   */
  async start<I>(
    workflow: WorkflowDefinition<I> | string,
    input: I,
    options: QueueStartOptions = {},
  ): Promise<QueuedWorkflowRun> {
    this.open();
    const owner = checkedOwner(options.owner);
    if (options.runId !== undefined && !isRunId(options.runId))
      throw new QueueError('runId must be 1–200 printable ASCII characters without spaces', {
        reason: 'invalid-input',
      });
    const runner =
      typeof workflow === 'string' || this.workflows.get(workflow.name) === workflow
        ? this.runner
        : new WorkflowRunner({
            store: this.options.store,
            workflows: [workflow],
            ...(this.options.idGenerator !== undefined && {
              idGenerator: this.options.idGenerator,
            }),
          });
    const { runId } = await runner.startAsync(workflow, input, {
      ...(options.runId !== undefined && { runId: options.runId }),
      ...(owner !== undefined && { owner }),
    });
    // Should this add fail, the stored run is still found by the workers' sweep.
    const jobId = await addWorkflowJob(this.queue(), this.options.jobs ?? {}, 'start', runId);
    return { runId, jobId };
  }

  /**
   * Records `data` for the run's suspended decision (`ctx.suspend`; `step`: which one) and queues
   * the run. The data must be JSON and the run must wait for it (`not-suspended`, `conflict` when
   * already given); the step's schema validates it on the worker (invalid: dropped, the run stays
   * suspended).
   */
  async resume(
    runId: string,
    data: unknown,
    options: OwnerScope & { step?: string } = {},
  ): Promise<QueuedDelivery> {
    this.open();
    const owner = checkedOwner(options.owner);
    const recorded = await this.recorder.recordResume(runId, data, {
      ...(owner !== undefined && { owner }),
      ...(options.step !== undefined && { step: options.step }),
    });
    const jobId = await addWorkflowJob(this.queue(), this.options.jobs ?? {}, 'resume', runId, {
      detail: recorded.version,
    });
    return { runId, step: recorded.step, jobId };
  }

  /** Records event `event`'s `data` for the run's `waitForEvent(event)` and queues the run. */
  async signal(
    runId: string,
    event: string,
    data: unknown,
    options: OwnerScope = {},
  ): Promise<QueuedDelivery> {
    this.open();
    const owner = checkedOwner(options.owner);
    const recorded = await this.recorder.recordSignal(
      runId,
      event,
      data,
      owner === undefined ? {} : { owner },
    );
    const jobId = await addWorkflowJob(this.queue(), this.options.jobs ?? {}, 'signal', runId, {
      detail: recorded.version,
    });
    return { runId, step: recorded.step, jobId };
  }

  /** The run, decoded (status, steps, waiting, output, error). */
  async get(runId: string, options: OwnerScope = {}): Promise<WorkflowRunInfo> {
    this.open();
    const owner = checkedOwner(options.owner);
    return this.runner.get(runId, owner === undefined ? {} : { owner });
  }

  /** Runs matching `filter`, decoded, newest first. */
  async list(filter: WorkflowRunFilter = {}): Promise<WorkflowRunInfo[]> {
    this.open();
    return this.runner.list(filter);
  }

  /** Cancels a run: stored as cancelled; a worker executing it stops at its next step boundary. */
  async cancel(runId: string, options: OwnerScope = {}): Promise<void> {
    this.open();
    const owner = checkedOwner(options.owner);
    return this.runner.cancel(runId, owner === undefined ? {} : { owner });
  }

  /** Closes the Redis connection (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.producer.close();
    await closeRedis(this.bull);
  }

  private queue(): ReturnType<BullProducer['queue']> {
    return this.producer.queue('default');
  }

  private open(): void {
    if (this.closed)
      throw new QueueError('this workflow queue is closed; create a new one with workflowQueue()', {
        reason: 'closed',
      });
  }
}

/** The producer of workflow runs on BullMQ (see {@link WorkflowQueue}). */
export function workflowQueue(options: WorkflowQueueOptions): WorkflowQueue {
  return new WorkflowQueue(options);
}
