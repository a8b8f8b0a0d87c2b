/**
 * A worker process killed with SIGKILL mid-batch: BullMQ's stalled-job check hands its job to
 * another worker process, which continues the run from its last checkpoint. The step that had
 * completed never runs again; the step in flight when the process died follows the store's policy
 * (not idempotent: the run pauses for a decision, and approving runs it once); every other run of
 * the batch completes on the survivor. Each side effect is counted exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTERRUPTED_CALL_REASON } from 'golem';
import { runQueue } from 'golem/queue';
import type { RunQueue } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../redis';
import { FAST_STALLED } from './harness';
import { effectCounts, startWorkers, WorkerProcess } from './processes';
import type { ChildConfig } from './worker-child';

jest.setTimeout(60_000);

const prefix = uniquePrefix();
const dir = mkdtempSync(join(tmpdir(), 'golem-crash-queue-'));
const dbPath = join(dir, 'runs.db');
const store = sqliteStore({ path: dbPath, leaseMs: 1_000 });
const processes: WorkerProcess[] = [];
let queue: RunQueue;

afterAll(async () => {
  await Promise.all(processes.map((p) => p.close()));
  await queue.close();
  await store.close();
  const redis = testRedis();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

test('a SIGKILLed worker’s run is recovered by another without repeating a completed tool', async () => {
  await store.migrate();
  queue = runQueue({ connection: REDIS_URL, prefix, store });
  const base: ChildConfig = {
    redisUrl: REDIS_URL,
    prefix,
    store: { kind: 'sqlite', path: dbPath },
    effects: join(dir, 'effects.log'),
    concurrency: 3,
    leaseMs: 1_000,
    stalled: FAST_STALLED,
  };
  // The victim takes one run at a time and freezes when a run reaches step 2.
  const victim = new WorkerProcess({ ...base, concurrency: 1, hangAt: 2 });
  processes.push(victim);
  await victim.next((m) => typeof m.ready === 'string');
  const runs = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      queue.enqueue('calc', String(i), { deps: { tag: `n${i}` } }),
    ),
  );
  const at = (await victim.next((m) => typeof m.at === 'string')).at as string;
  processes.push(...(await startWorkers(1, base)));
  await victim.kill();

  const outcomes = await Promise.all(runs.map((r) => queue.result(r.runId)));
  const killed = runs[Number(at.slice(1))]!.runId;
  const paused = outcomes.filter((o) => o.status === 'paused');
  expect(paused.map((o) => o.runId)).toEqual([killed]);
  expect(paused[0]).toMatchObject({
    pending: { approvals: [{ callId: 's2', toolName: 'step', reason: INTERRUPTED_CALL_REASON }] },
  });
  const feed: string[] = [];
  for await (const { event } of queue.events(killed))
    if (event.type !== 'event') feed.push(event.type);
  expect(feed).toEqual(['queued', 'started', 'recovered', 'paused']);

  await queue.decide(killed, { approvals: { s2: { approved: true } } });
  const finished = await queue.result(killed, { until: 'finished' });
  expect(finished).toMatchObject({
    status: 'completed',
    output: `${at.slice(1)} * 8 = ${Number(at.slice(1)) * 8}`,
  });
  for (const [i, outcome] of outcomes.entries())
    if (outcome.runId !== killed)
      expect(outcome).toMatchObject({ status: 'completed', output: `${i} * 8 = ${i * 8}` });

  const counts = effectCounts(base.effects);
  const expected = runs.flatMap((_, i) => [1, 2, 3].map((k) => `n${i} ${k}`)).sort();
  expect([...counts.keys()].sort()).toEqual(expected);
  expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
});
