/**
 * A queued workflow started in one process, executed in a worker process and resumed from a third
 * process (a producer that only records the decision and queues the run), on a shared SQLite file
 * and Redis. A producer speaking for another owner is refused as if the run did not exist.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflowQueue } from 'golem/queue';
import type { WorkflowQueue } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../redis';
import { WorkerProcess } from './processes';
import type { ChildConfig } from './worker-child';
import type { WorkflowChildConfig } from './workflow-child';
import { approval } from './workflow-defs';

jest.setTimeout(60_000);

const CHILD = join(__dirname, 'workflow-child.ts');
const prefix = uniquePrefix();
const dir = mkdtempSync(join(tmpdir(), 'golem-wf-resume-'));
const dbPath = join(dir, 'runs.db');
const store = sqliteStore({ path: dbPath, leaseMs: 2_000 });
const processes: WorkerProcess[] = [];
let queue: WorkflowQueue | undefined;

function spawn(config: WorkflowChildConfig): WorkerProcess {
  const child = new WorkerProcess(config as unknown as ChildConfig, CHILD);
  processes.push(child);
  return child;
}

afterAll(async () => {
  await Promise.all(processes.map((p) => p.close()));
  await queue?.close();
  await store.close();
  const redis = testRedis();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

test('a run started here is resumed by a producer in another process and completed by a worker process', async () => {
  await store.migrate();
  queue = workflowQueue({ connection: REDIS_URL, prefix, store, workflows: [approval] });
  const base = {
    redisUrl: REDIS_URL,
    prefix,
    store: { kind: 'sqlite' as const, path: dbPath },
    leaseMs: 2_000,
  };
  const worker = spawn({ ...base, role: 'worker' });
  await worker.next((m) => typeof m.ready === 'string');
  const { runId } = await queue.start(approval, { amount: 42 }, { owner: 'alice' });
  await worker.next((m) => m.suspended === runId);

  // Another owner's producer: refused, nothing recorded.
  const intruder = spawn({
    ...base,
    role: 'resume',
    runId,
    data: { approved: true },
    owner: 'bob',
  });
  expect(await intruder.next((m) => 'refused' in m || 'resumed' in m)).toEqual({
    refused: 'not-found',
  });
  const untouched = await queue.get(runId);
  expect(untouched.status).toBe('suspended');
  expect(untouched.steps.find((s) => s.key === 'approve')?.resumeData).toBeUndefined();

  const resumer = spawn({
    ...base,
    role: 'resume',
    runId,
    data: { approved: true },
    owner: 'alice',
  });
  expect(await resumer.next((m) => 'refused' in m || 'resumed' in m)).toEqual({
    resumed: 'approve',
  });
  await resumer.exit();
  // The worker runs the decision, then waits for the payment event.
  await worker.next((m) => m.suspended === runId);
  expect((await queue.get(runId)).waiting).toEqual([
    { step: 'payment', kind: 'event', event: 'payment' },
  ]);

  await queue.signal(runId, 'payment', { cents: 4_200 }, { owner: 'alice' });
  await worker.next((m) => m.done === runId);
  const info = await queue.get(runId, { owner: 'alice' });
  expect(info.status).toBe('completed');
  expect(info.output).toEqual({ status: 'paid', cents: 4_200 });
  expect(info.steps.find((s) => s.key === 'approve')).toMatchObject({
    status: 'completed',
    output: { approved: true },
  });
});
