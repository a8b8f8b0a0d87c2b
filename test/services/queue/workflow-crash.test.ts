/**
 * Workflows on the queue across processes, on PostgreSQL and Redis: a worker process SIGKILLed in
 * the middle of a parallel step hands its job (BullMQ's stalled-job check) to another worker
 * process, which continues the run from its checkpoints. Every completed step ran exactly once;
 * the step in flight ran its effect once (the killed body never reached it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflowQueue } from 'golem/queue';
import type { WorkflowQueue } from 'golem/queue';
import { postgresStore } from 'golem/stores/postgres';
import { dropSchema, schemaName, testPool } from '../pg';
import { POSTGRES_URL } from '../postgres-url';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../redis';
import { FAST_STALLED } from './harness';
import { effectCounts, gather, WorkerProcess } from './processes';
import type { ChildConfig } from './worker-child';
import type { WorkflowChildConfig } from './workflow-child';
import { fanout } from './workflow-defs';

jest.setTimeout(60_000);

const CHILD = join(__dirname, 'workflow-child.ts');
const prefix = uniquePrefix();
const schema = schemaName();
const dir = mkdtempSync(join(tmpdir(), 'golem-wf-crash-'));
const admin = testPool();
const store = postgresStore({
  connectionString: POSTGRES_URL,
  schema,
  leaseMs: 1_000,
  poolSize: 2,
});
const processes: WorkerProcess[] = [];
let queue: WorkflowQueue | undefined;

/** A workflow worker process (the harness's WorkerProcess runs any child script). */
function spawnWorker(config: WorkflowChildConfig): WorkerProcess {
  const child = new WorkerProcess(config as unknown as ChildConfig, CHILD);
  processes.push(child);
  return child;
}

afterAll(async () => {
  await Promise.all(processes.map((p) => p.close()));
  await queue?.close();
  await store.close();
  await dropSchema(admin, schema);
  await admin.end();
  const redis = testRedis();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

test('a worker killed mid-step: another worker process completes the run, each step’s effect once', async () => {
  await store.migrate();
  queue = workflowQueue({ connection: REDIS_URL, prefix, store, workflows: [fanout] });
  const effects = join(dir, 'effects.log');
  const base: WorkflowChildConfig = {
    role: 'worker',
    redisUrl: REDIS_URL,
    prefix,
    store: { kind: 'postgres', url: POSTGRES_URL, schema },
    leaseMs: 1_000,
    stalled: FAST_STALLED,
    effects,
  };
  // The victim runs alone first; its step `b` announces itself and never returns.
  const victim = spawnWorker({ ...base, hangAt: 'b' });
  await victim.next((m) => typeof m.ready === 'string');
  const { runId } = await queue.start('fanout', { base: 10 });
  await victim.next((m) => m.at === 'b');
  for (const step of ['prepare', 'a', 'c'])
    await victim.next((m) => m.completed === step && m.runId === runId);

  // No sweeps on the survivors: only BullMQ's stalled-job check can hand the job over.
  const survivors = [spawnWorker({ ...base, sweepMs: 0 }), spawnWorker({ ...base, sweepMs: 0 })];
  await Promise.all(survivors.map((s) => s.next((m) => typeof m.ready === 'string')));
  await victim.kill();

  expect(await gather(survivors, 'done', 1)).toEqual([runId]);
  const info = await queue.get(runId);
  expect(info.status).toBe('completed');
  expect(info.output).toBe(11 + 12 + 13);
  expect(info.steps.map((s) => [s.key, s.status, s.attempt])).toEqual([
    ['prepare', 'completed', 1],
    ['a', 'completed', 1],
    ['b', 'completed', 2],
    ['c', 'completed', 1],
    ['finish', 'completed', 1],
  ]);
  const counts = effectCounts(effects);
  expect(Object.fromEntries(counts)).toEqual({
    [`${runId} prepare`]: 1,
    [`${runId} a`]: 1,
    [`${runId} b`]: 1,
    [`${runId} c`]: 1,
    [`${runId} finish`]: 1,
  });
});
