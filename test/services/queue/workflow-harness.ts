/**
 * In-process harness of the queued-workflow suites: a unique Redis prefix and a fresh SQLite file,
 * a producer, workers whose workflow events can be awaited (never slept for), and a cleanup that
 * closes everything and deletes every key under the prefix.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { workflowQueue, workflowWorker } from 'golem/queue';
import type { WorkflowQueue, WorkflowWorker, WorkflowWorkerOptions } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import type { WorkflowEvent, WorkflowEventKind } from 'golem/workflows';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../redis';
import { WORKFLOWS } from './workflow-defs';

/** Workflow events as they arrive, awaitable. */
export class EventLog {
  readonly events: WorkflowEvent[] = [];
  private readonly waiters = new Set<() => void>();

  readonly push = (event: WorkflowEvent): void => {
    this.events.push(event);
    for (const wake of [...this.waiters]) wake();
  };

  /** Resolves with the `n`th event (from 1) of `kind` for `runId`, received or to come. */
  async next(kind: WorkflowEventKind, runId: string, n = 1): Promise<WorkflowEvent> {
    for (;;) {
      const found = this.events.filter((e) => e.kind === kind && e.runId === runId)[n - 1];
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.waiters.delete(wake);
          resolve();
        };
        this.waiters.add(wake);
      });
    }
  }
}

export interface WorkflowHarness {
  readonly prefix: string;
  readonly dbPath: string;
  readonly store: ReturnType<typeof sqliteStore>;
  readonly queue: WorkflowQueue;
  readonly log: EventLog;
  /** A worker on the suites' workflows, its events in `log`. */
  worker(options?: Partial<WorkflowWorkerOptions>): Promise<WorkflowWorker>;
  /** The BullMQ queue the workflow jobs are in (for checks). */
  jobs(): Queue;
  /** Resolves once job `jobId` finished: its return value (rejects with its failure). */
  finished(jobId: string): Promise<unknown>;
  close(): Promise<void>;
}

/** A harness; `clock`: the store's clock (timers and leases), default `Date.now`. */
export async function workflowHarness(
  options: { clock?: () => number; leaseMs?: number } = {},
): Promise<WorkflowHarness> {
  const prefix = uniquePrefix();
  const dir = mkdtempSync(join(tmpdir(), 'golem-wf-queue-'));
  const dbPath = join(dir, 'runs.db');
  const store = sqliteStore({
    path: dbPath,
    leaseMs: options.leaseMs ?? 5_000,
    ...(options.clock !== undefined && { clock: options.clock }),
  });
  await store.migrate();
  const queue = workflowQueue({ connection: REDIS_URL, prefix, store, workflows: WORKFLOWS });
  const log = new EventLog();
  const workers: WorkflowWorker[] = [];
  let raw: { queue: Queue; connection: Redis } | undefined;
  let events: QueueEvents | undefined;
  const jobs = (): Queue => {
    if (raw === undefined) {
      const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
      connection.on('error', () => undefined);
      raw = { connection, queue: new Queue('golem-workflows', { connection, prefix }) };
    }
    return raw.queue;
  };
  return {
    prefix,
    dbPath,
    store,
    queue,
    log,
    async worker(overrides = {}) {
      const worker = await workflowWorker({
        connection: REDIS_URL,
        prefix,
        store,
        workflows: WORKFLOWS,
        onEvent: log.push,
        ...overrides,
      });
      workers.push(worker);
      return worker;
    },
    jobs,
    async finished(jobId) {
      if (events === undefined) {
        events = new QueueEvents('golem-workflows', {
          connection: { url: REDIS_URL, maxRetriesPerRequest: null },
          prefix,
        });
        await events.waitUntilReady();
      }
      const job = await Job.fromId(jobs(), jobId);
      if (job === undefined) throw new Error(`no job ${jobId}`);
      return (await job.waitUntilFinished(events)) as unknown;
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await queue.close();
      await events?.close();
      if (raw !== undefined) {
        await raw.queue.close();
        raw.connection.disconnect();
      }
      await store.close();
      const redis = testRedis();
      await deletePrefix(redis, prefix);
      redis.disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
