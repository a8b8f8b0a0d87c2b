/**
 * A call in flight when its worker was SIGKILLed, on a tool that is not idempotent, pauses the run
 * (recovered by another worker process) with the call pending as interrupted. The producer settles
 * it with what actually happened — its result as external text — as `agent.resume` does
 * in-process: the tool never runs again, and the call is settled at most once (a different
 * decision for the same pause is a conflict, any decision after the resume is invalid-state).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTERRUPTED_CALL_REASON, loadRun } from 'golem';
import { QueueError, runQueue } from 'golem/queue';
import type { RunQueue } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../redis';
import { FAST_STALLED } from './harness';
import { effectCounts, startWorkers, WorkerProcess } from './processes';
import type { ChildConfig } from './worker-child';

jest.setTimeout(60_000);

const prefix = uniquePrefix();
const dir = mkdtempSync(join(tmpdir(), 'golem-interrupted-'));
const dbPath = join(dir, 'runs.db');
const store = sqliteStore({ path: dbPath, leaseMs: 1_000 });
const processes: WorkerProcess[] = [];
let queue: RunQueue | undefined;

afterAll(async () => {
  await Promise.all(processes.map((p) => p.close()));
  await queue?.close();
  await store.close();
  const redis = testRedis();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<QueueError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!QueueError.is(error)) throw new Error(`expected a QueueError, got ${String(error)}`);
  return error;
}

test('an interrupted call is settled once from the producer with its external result', async () => {
  await store.migrate();
  queue = runQueue({ connection: REDIS_URL, prefix, store });
  const base: ChildConfig = {
    redisUrl: REDIS_URL,
    prefix,
    store: { kind: 'sqlite', path: dbPath },
    effects: join(dir, 'effects.log'),
    concurrency: 1,
    leaseMs: 1_000,
    stalled: FAST_STALLED,
  };
  const victim = new WorkerProcess({ ...base, hangAt: 2 });
  processes.push(victim);
  await victim.next((m) => typeof m.ready === 'string');
  const { runId } = await queue.enqueue('calc', '5', { deps: { tag: 'n5' } });
  await victim.next((m) => m.at === 'n5'); // step 2 is in flight
  const [survivor] = await startWorkers(1, base);
  processes.push(survivor!);
  await victim.kill();

  // The survivor recovers the run and pauses it on the interrupted call.
  expect(await queue.result(runId)).toMatchObject({
    status: 'paused',
    pending: {
      approvals: [{ callId: 's2', toolName: 'step', reason: INTERRUPTED_CALL_REASON }],
      external: [],
    },
  });
  // No worker takes the resume until every decision below was tried.
  await survivor!.close();

  const settled = { external: { s2: 'step 2 done (checked in the ledger)' } };
  const first = await queue.decide(runId, settled);
  expect(await queue.decide(runId, settled)).toEqual(first); // the same decision again: a no-op
  const rerun = await refusal(queue.decide(runId, { approvals: { s2: { approved: true } } }));
  expect([rerun.reason, rerun.message]).toEqual([
    'conflict',
    `run "${runId}" already has different decisions queued for this pause`,
  ]);

  processes.push(...(await startWorkers(1, base)));
  expect(await queue.result(runId, { until: 'finished' })).toMatchObject({
    status: 'completed',
    output: '5 * 8 = 40',
  });
  const stored = await loadRun(store, runId);
  expect(stored.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
    'step 1 done',
    'step 2 done (checked in the ledger)',
    'step 3 done',
  ]);
  // The interrupted step never ran again: only steps 1 and 3 took effect, once each.
  expect([...effectCounts(base.effects).entries()]).toEqual([
    ['n5 1', 1],
    ['n5 3', 1],
  ]);
  const late = await refusal(queue.decide(runId, { approvals: { s2: { approved: true } } }));
  expect([late.reason, late.message]).toEqual([
    'invalid-state',
    `run "${runId}" is completed, not paused: only a paused run takes decisions`,
  ]);
});
