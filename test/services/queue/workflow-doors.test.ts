/**
 * The producer's doors into queued workflow runs: owner checks (another owner's run is reported as
 * missing, nothing recorded), decisions checked before they are recorded (JSON, waiting, given
 * once), a decision the step's schema refuses dropped on the worker, and a closed producer.
 */
import { QueueError, workflowQueue, workflowWorker } from 'golem/queue';
import { WorkflowError } from 'golem/workflows';
import type { WorkflowStore } from 'golem/workflows';
import { REDIS_URL } from '../redis';
import type { WorkflowHarness } from './workflow-harness';
import { workflowHarness } from './workflow-harness';

jest.setTimeout(30_000);

let h: WorkflowHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function kindOf(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (WorkflowError.is(error)) return error.kind;
  if (QueueError.is(error)) return error.reason;
  throw new Error(`expected a WorkflowError or QueueError, got ${String(error)}`);
}

/** A harness with one worker and an `approval` run of `alice`, suspended for its decision. */
async function suspendedRun(): Promise<{ h: WorkflowHarness; runId: string }> {
  const harness = await workflowHarness();
  h = harness;
  await harness.worker({ sweepMs: 0 });
  const { runId } = await harness.queue.start('approval', { amount: 7 }, { owner: 'alice' });
  await harness.log.next('workflow_suspended', runId);
  return { h: harness, runId };
}

test('every door refuses another owner as if the run did not exist, recording nothing', async () => {
  const { h, runId } = await suspendedRun();
  const before = await h.queue.get(runId);
  const bob = { owner: 'bob' };
  expect(await kindOf(h.queue.get(runId, bob))).toBe('not-found');
  expect(await kindOf(h.queue.resume(runId, { approved: true }, bob))).toBe('not-found');
  expect(await kindOf(h.queue.signal(runId, 'payment', { cents: 1 }, bob))).toBe('not-found');
  expect(await kindOf(h.queue.cancel(runId, bob))).toBe('not-found');
  expect(await h.queue.list({ owner: 'bob' })).toEqual([]);
  expect(await kindOf(h.queue.get('no-such-run', { owner: 'alice' }))).toBe('not-found');
  expect(await h.queue.get(runId, { owner: 'alice' })).toEqual(before);

  await h.queue.resume(runId, { approved: true }, { owner: 'alice' });
  await h.log.next('workflow_suspended', runId, 2);
  await h.queue.cancel(runId, { owner: 'alice' });
  expect((await h.queue.get(runId)).status).toBe('cancelled');
});

test('a decision is checked before it is recorded: JSON, a waiting step, given once', async () => {
  const { h, runId } = await suspendedRun();
  const version = (await h.queue.get(runId)).version;
  expect(await kindOf(h.queue.resume(runId, { approved: 1n }))).toBe('invalid-input');
  expect(await kindOf(h.queue.signal(runId, 'payment', { cents: 1 }))).toBe('not-suspended');
  expect(await kindOf(h.queue.resume(runId, true, { step: 'nope' }))).toBe('not-found');
  expect((await h.queue.get(runId)).version).toBe(version);
  expect(await kindOf(h.queue.start('approval', { amount: 1 }, { owner: '' }))).toBe(
    'invalid-input',
  );

  const first = h.queue.resume(runId, { approved: true });
  const second = h.queue.resume(runId, { approved: false });
  const outcomes = await Promise.allSettled([first, second]);
  expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
  const lost = outcomes.find((o) => o.status === 'rejected');
  expect(WorkflowError.isKind(lost?.reason, 'conflict')).toBe(true);
});

test('a decision the step’s schema refuses is dropped by the worker: the run waits as before', async () => {
  const { h, runId } = await suspendedRun();
  const { jobId } = await h.queue.resume(runId, { approved: 'yes' });
  await expect(h.finished(jobId)).rejects.toThrow(/does not validate/);
  const info = await h.queue.get(runId);
  expect(info.status).toBe('suspended');
  expect(info.waiting).toMatchObject([{ step: 'approve', kind: 'decision' }]);
  expect(info.steps.find((s) => s.key === 'approve')?.resumeData).toBeUndefined();

  const again = await h.queue.resume(runId, { approved: false });
  expect(await h.finished(again.jobId)).toEqual({ runId, status: 'completed' });
  expect((await h.queue.get(runId)).output).toEqual({ status: 'rejected' });
});

test('a closed producer refuses every door', async () => {
  h = await workflowHarness();
  await h.queue.close();
  expect(await kindOf(h.queue.start('napper', { ms: 0 }))).toBe('closed');
  expect(await kindOf(h.queue.get('any'))).toBe('closed');
});

test('a refused configuration throws invalid-options before anything connects', async () => {
  h = await workflowHarness();
  const { store } = h;
  expect(
    await kindOf(Promise.resolve().then(() => workflowQueue({ connection: 'http://x', store }))),
  ).toBe('invalid-options');
  expect(
    await kindOf(
      workflowWorker({ connection: REDIS_URL, store: {} as WorkflowStore, workflows: [] }),
    ),
  ).toBe('invalid-options');
  expect(await kindOf(workflowWorker({ connection: REDIS_URL, store, workflows: [] }))).toBe(
    'invalid-options',
  );
});
