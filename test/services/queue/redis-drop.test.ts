/**
 * The connection between the worker processes and Redis dropped mid-run (a TCP proxy on loopback
 * we cut and restore): the runs go on — they need only the run store — and complete while Redis is
 * unreachable; the workers reconnect by themselves, the jobs settle, subscribers get the endings,
 * and the pool takes new work. Nothing is lost and no tool runs twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runQueue } from 'golem/queue';
import type { RunQueue } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { TcpProxy } from '../tcp-proxy';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../redis';
import { effectCounts, gather, startWorkers, type WorkerProcess } from './processes';

jest.setTimeout(60_000);

const prefix = uniquePrefix();
const dir = mkdtempSync(join(tmpdir(), 'golem-redis-drop-'));
const dbPath = join(dir, 'runs.db');
const effects = join(dir, 'effects.log');
const store = sqliteStore({ path: dbPath, leaseMs: 2_000 });
const redisUrl = new URL(REDIS_URL);
const proxy = new TcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
let workers: WorkerProcess[] = [];
let queue: RunQueue;

afterAll(async () => {
  await proxy.restore().catch(() => undefined);
  await Promise.all(workers.map((w) => w.kill()));
  await queue.close();
  await store.close();
  await proxy.cut();
  const redis = testRedis();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

test('runs continue while the workers lose Redis, and settle once they reconnect', async () => {
  await store.migrate();
  await proxy.start();
  queue = runQueue({ connection: REDIS_URL, prefix, store });
  workers = await startWorkers(2, {
    redisUrl: `redis://127.0.0.1:${proxy.port}`,
    prefix,
    store: { kind: 'sqlite', path: dbPath },
    effects,
    concurrency: 3,
    leaseMs: 2_000,
    stalled: { lockDuration: 2_000, interval: 500, maxCount: 10 },
    gate: true,
    reportCompleted: true,
  });
  const runs = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      queue.enqueue('calc', String(i), { deps: { tag: `n${i}` } }),
    ),
  );
  // Every run is inside its first step on some worker.
  expect(await gather(workers, 'at', runs.length)).toHaveLength(runs.length);

  await proxy.cut();
  for (const w of workers) w.send({ go: true });
  // Each run completes in the store while Redis is unreachable.
  const completed = new Set(await gather(workers, 'completed', runs.length));
  expect([...completed].sort()).toEqual(runs.map((r) => r.runId).sort());

  await proxy.restore();
  const outcomes = await Promise.all(runs.map((r) => queue.result(r.runId)));
  expect(outcomes.map((o) => (o.status === 'completed' ? o.output : o.status))).toEqual(
    runs.map((_, i) => `${i} * 8 = ${i * 8}`),
  );
  const counts = effectCounts(effects);
  expect(counts.size).toBe(runs.length * 3);
  expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);

  // The pool reconnected and takes new work.
  const later = await queue.enqueue('calc', '100', { deps: { tag: 'later' } });
  expect(await gather(workers, 'at', 1)).toEqual(['later']);
  for (const w of workers) w.send({ go: true });
  expect(await queue.result(later.runId)).toMatchObject({
    status: 'completed',
    output: '100 * 8 = 800',
  });
});
