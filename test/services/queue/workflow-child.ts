/**
 * A process of the queued-workflow suites, configured by JSON in GOLEM_QUEUE_CHILD.
 * - role `worker`: a `workflowWorker` over the suites' workflows; it tells its parent over IPC
 *   `ready` once taking jobs, `{ completed: step, runId }` after each step's checkpoint,
 *   `{ suspended: runId }` / `{ done: runId }` when a run suspends / completes, and with `hangAt`
 *   `{ at: step }` when that step's body starts (it then never returns). `{ close: true }` closes it.
 * - role `resume`: a `workflowQueue` that resumes `runId` with `data` (as `owner`), reports
 *   `{ resumed: step }` (or `{ refused: kind }`) and exits.
 */
import type { WorkflowStore } from 'golem/workflows';
import { WorkflowError } from 'golem/workflows';
import { workflowQueue, workflowWorker } from 'golem/queue';
import { postgresStore } from 'golem/stores/postgres';
import { sqliteStore } from 'golem/stores/sqlite';
import { hooks, WORKFLOWS } from './workflow-defs';

/** The child's instructions. */
export interface WorkflowChildConfig {
  role: 'worker' | 'resume';
  redisUrl: string;
  prefix: string;
  store: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema: string };
  leaseMs: number;
  stalled?: { lockDuration: number; interval: number; maxCount: number };
  effects?: string;
  hangAt?: string;
  /** The worker's sweep period (0: no sweep, so only BullMQ hands jobs over). */
  sweepMs?: number;
  runId?: string;
  data?: unknown;
  owner?: string;
}

const config = JSON.parse(process.env.GOLEM_QUEUE_CHILD ?? '{}') as WorkflowChildConfig;

function send(message: Record<string, unknown>): Promise<void> {
  return new Promise((resolve) => {
    process.send?.(message, () => {
      resolve();
    });
  });
}

const store =
  config.store.kind === 'sqlite'
    ? sqliteStore({ path: config.store.path, leaseMs: config.leaseMs })
    : postgresStore({
        connectionString: config.store.url,
        schema: config.store.schema,
        leaseMs: config.leaseMs,
        poolSize: 2,
      });
const workflowStore: WorkflowStore = store;

async function worker(): Promise<void> {
  if (config.effects !== undefined) hooks.effects = config.effects;
  if (config.hangAt !== undefined) hooks.hangAt = config.hangAt;
  hooks.onHang = (step) => void send({ at: step });
  const running = await workflowWorker({
    connection: config.redisUrl,
    prefix: config.prefix,
    store: workflowStore,
    workflows: WORKFLOWS,
    concurrency: 4,
    ...(config.stalled !== undefined && { stalled: config.stalled }),
    ...(config.sweepMs !== undefined && { sweepMs: config.sweepMs }),
    onEvent: (event) => {
      if (event.kind === 'step_completed') void send({ completed: event.step, runId: event.runId });
      if (event.kind === 'workflow_suspended') void send({ suspended: event.runId });
      if (event.kind === 'workflow_completed') void send({ done: event.runId });
    },
  });
  process.on('message', (message: { close?: boolean }) => {
    if (message.close === true)
      void running
        .close()
        .then(() => store.close())
        .then(() => process.exit(0));
  });
  await send({ ready: running.id });
}

async function resume(): Promise<void> {
  const queue = workflowQueue({ connection: config.redisUrl, prefix: config.prefix, store });
  try {
    const { step } = await queue.resume(
      config.runId ?? '',
      config.data,
      config.owner === undefined ? {} : { owner: config.owner },
    );
    await send({ resumed: step });
  } catch (error) {
    if (!WorkflowError.is(error)) throw error;
    await send({ refused: error.kind });
  } finally {
    await queue.close();
    await store.close();
  }
  process.exit(0);
}

(config.role === 'worker' ? worker() : resume()).catch(async (error: unknown) => {
  await send({ error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
