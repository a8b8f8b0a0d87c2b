/**
 * 1,000 runs across 4 worker processes on a shared PostgreSQL store: every run completes exactly
 * once — no run lost, none executed twice (each tool effect appears once, each job started once)
 * — with the result its prompt asks for, and every worker takes part.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listRuns } from 'golem';
import { runQueue } from 'golem/queue';
import type { RunQueue } from 'golem/queue';
import { postgresStore } from 'golem/stores/postgres';
import { dropSchema, schemaName, testPool } from '../pg';
import { POSTGRES_URL } from '../postgres-url';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../redis';
import { effectCounts, startWorkers, type WorkerProcess } from './processes';
import { rawQueue } from './raw';

jest.setTimeout(120_000);

const RUNS = 1_000;
const admin = testPool();
const prefix = uniquePrefix();
const schema = schemaName();
const dir = mkdtempSync(join(tmpdir(), 'golem-many-'));
const effects = join(dir, 'effects.log');
const store = postgresStore({ connectionString: POSTGRES_URL, schema, synchronousCommit: false });
let queue: RunQueue;
let workers: WorkerProcess[] = [];

afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  await queue.close();
  await store.close();
  await dropSchema(admin, schema);
  await admin.end();
  const redis = testRedis();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

test('1,000 runs across 4 worker processes each complete exactly once with their result', async () => {
  await store.migrate();
  queue = runQueue({ connection: REDIS_URL, prefix, store });
  workers = await startWorkers(4, {
    redisUrl: REDIS_URL,
    prefix,
    store: { kind: 'postgres', url: POSTGRES_URL, schema },
    effects,
    concurrency: 10,
    steps: 1,
    leaseMs: 30_000,
    stalled: { lockDuration: 30_000, interval: 30_000, maxCount: 5 },
  });
  const ids: string[] = [];
  const started = Date.now();
  for (let i = 0; i < RUNS; i += 100)
    for (const { runId } of await Promise.all(
      Array.from({ length: Math.min(100, RUNS - i) }, (_, j) =>
        queue.enqueue('calc', String(i + j), { deps: { tag: `n${i + j}` }, stream: false }),
      ),
    ))
      ids.push(runId);
  const enqueued = Date.now();
  const outputs: unknown[] = [];
  for (let i = 0; i < RUNS; i += 250)
    outputs.push(
      ...(await Promise.all(ids.slice(i, i + 250).map((id) => queue.result(id)))).map((o) =>
        o.status === 'completed' ? o.output : o.status,
      ),
    );
  // Not asserted (timing is the bench's job), printed for the log.
  console.log(
    `${RUNS} runs: enqueued in ${enqueued - started} ms, all completed after ${Date.now() - started} ms`,
  );
  expect(outputs).toEqual(ids.map((_, i) => `${i} * 2 = ${i * 2}`));

  const stored = await listRuns(store, { limit: 5_000 });
  expect(stored).toHaveLength(RUNS);
  expect(new Set(stored.map((r) => r.status))).toEqual(new Set(['completed']));

  const counts = effectCounts(effects);
  expect(counts.size).toBe(RUNS);
  expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);

  const raw = rawQueue(prefix);
  try {
    expect(
      await raw.queue.getJobCounts('completed', 'failed', 'active', 'waiting', 'delayed'),
    ).toEqual({
      completed: RUNS,
      failed: 0,
      active: 0,
      waiting: 0,
      delayed: 0,
    });
    const jobs = await raw.queue.getCompleted(0, RUNS);
    expect(jobs.filter((j) => j.attemptsStarted !== 1).map((j) => j.id)).toEqual([]);
    expect(new Set(jobs.map((j) => j.processedBy)).size).toBe(4);
  } finally {
    await raw.close();
  }
});
