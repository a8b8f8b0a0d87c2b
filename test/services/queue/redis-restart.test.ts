/**
 * Redis itself restarted mid-run: a private redis-server (AOF persistence, see redis-server.ts) is
 * killed with SIGKILL while two worker processes hold runs inside their first tool step, then
 * started again on the same port. The runs go on while Redis is gone — they need only the run
 * store — and complete there; a run enqueued meanwhile waits for Redis instead of failing; once
 * Redis is back the workers reconnect by themselves, every job settles, the feeds carry the
 * endings, the runs that were still queued are taken, and no tool runs twice. The machine's
 * shared Redis is not touched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runQueue } from 'golem/queue';
import type { RunQueue } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { PrivateRedis } from '../redis-server';
import { effectCounts, gather, startWorkers, type WorkerProcess } from './processes';

jest.setTimeout(90_000);

const dir = mkdtempSync(join(tmpdir(), 'golem-redis-restart-'));
const dbPath = join(dir, 'runs.db');
const effects = join(dir, 'effects.log');
const store = sqliteStore({ path: dbPath, leaseMs: 2_000 });
let server: PrivateRedis | undefined;
let workers: WorkerProcess[] = [];
let queue: RunQueue | undefined;

afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill()));
  await queue?.close();
  await store.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const output = (n: number): string => `${n} * 8 = ${n * 8}`;

test('runs continue while Redis restarts, queued and new work survives, nothing runs twice', async () => {
  server = await PrivateRedis.start();
  await store.migrate();
  queue = runQueue({ connection: server.url, prefix: 'golem', store });
  workers = await startWorkers(2, {
    redisUrl: server.url,
    prefix: 'golem',
    store: { kind: 'sqlite', path: dbPath },
    effects,
    concurrency: 3,
    leaseMs: 2_000,
    stalled: { lockDuration: 2_000, interval: 500, maxCount: 10 },
    gate: true,
    reportCompleted: true,
  });
  // Six runs fill the workers' six slots; two more wait in Redis.
  const running = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      queue!.enqueue('calc', String(i), { deps: { tag: `r${i}` } }),
    ),
  );
  expect(await gather(workers, 'at', 6)).toHaveLength(6);
  const queued = await Promise.all(
    [6, 7].map((i) => queue!.enqueue('calc', String(i), { deps: { tag: `r${i}` } })),
  );

  await server.kill();
  for (const w of workers) w.send({ go: true });
  // Each running run completes in the store while Redis is gone …
  const completed = await gather(workers, 'completed', running.length);
  expect([...completed].sort()).toEqual(running.map((r) => r.runId).sort());
  // … and a run enqueued now waits for Redis rather than failing.
  const late = queue.enqueue('calc', '100', { deps: { tag: 'late' } });

  await server.restart();
  const later = [...queued, await late];
  expect((await gather(workers, 'at', later.length)).sort()).toEqual(['late', 'r6', 'r7']);
  for (const w of workers) w.send({ go: true });

  const all = [...running, ...later];
  const outcomes = await Promise.all(all.map((r) => queue!.result(r.runId)));
  expect(outcomes.map((o) => (o.status === 'completed' ? o.output : o.status))).toEqual([
    ...[0, 1, 2, 3, 4, 5, 6, 7].map(output),
    output(100),
  ]);
  // The endings written while Redis was gone reached the feeds.
  for (const { runId } of running) {
    const types: string[] = [];
    for await (const { event } of queue.events(runId)) types.push(event.type);
    expect(types.at(-1)).toBe('completed');
  }
  const counts = effectCounts(effects);
  expect(counts.size).toBe(all.length * 3);
  expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
});
