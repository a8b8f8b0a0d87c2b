/**
 * Timers and leases of queued workflows: a sleeping run wakes on its own delayed job (no sweep, no
 * polling); a run whose timer job was lost is found by a sweep; a run leased by another live
 * process is retried after the lease, never executed while it is held.
 */
import { workflowJobId } from '../../../src/queue/workflow-job';
import type { WorkflowHarness } from './workflow-harness';
import { workflowHarness } from './workflow-harness';

jest.setTimeout(30_000);

let h: WorkflowHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

test('a sleeping run wakes on its delayed job, not before its wake time, without any sweep', async () => {
  h = await workflowHarness();
  await h.worker({ sweepMs: 0 });
  const { runId } = await h.queue.start('napper', { ms: 200 });
  await h.log.next('workflow_suspended', runId);
  const wakeAt = (await h.queue.get(runId)).wakeAt;
  expect(typeof wakeAt).toBe('number');

  await h.log.next('workflow_completed', runId);
  const info = await h.queue.get(runId);
  expect(info.status).toBe('completed');
  expect(info.output).toBe('awake');
  const after = info.steps.find((s) => s.key === 'after');
  expect(after?.startedAt).toBeGreaterThanOrEqual(wakeAt ?? Infinity);
  // The run was woken by the timer's job, the only job that could.
  const timer = workflowJobId('timer', runId, wakeAt);
  expect(await h.finished(timer)).toEqual({ runId, status: 'completed' });
});

test('a due timer whose job was lost is queued by a sweep (store clock moved by hand)', async () => {
  let time = 1_800_000_000_000;
  h = await workflowHarness({ clock: () => time });
  const worker = await h.worker({ sweepMs: 0 });
  const { runId, jobId } = await h.queue.start('napper', { ms: 3_600_000 });
  // The start job ends once the run suspended and its timer's job was queued; lose that job.
  expect(await h.finished(jobId)).toEqual({ runId, status: 'suspended' });
  const wakeAt = (await h.queue.get(runId)).wakeAt;
  expect(await h.jobs().remove(workflowJobId('timer', runId, wakeAt))).toBe(1);

  expect(await worker.sweep()).toEqual([]); // not due yet
  time += 3_600_000;
  expect(await worker.sweep()).toEqual([runId]);
  await h.log.next('workflow_completed', runId);
  expect((await h.queue.get(runId)).status).toBe('completed');
});

test('a run leased by another live process is executed only once its lease expired', async () => {
  h = await workflowHarness({ leaseMs: 300 });
  const { runId } = await h.queue.start('napper', { ms: 0 });
  // Another process holds the run: its lease, renewed nowhere, runs out in 300 ms.
  const row = await h.store.getWorkflowRun(runId);
  if (row === undefined) throw new Error('the run was not stored');
  const until = h.store.now() + 300;
  const held = {
    ...row,
    leaseOwner: 'another-process',
    leaseExpiresAt: until,
    version: row.version + 1,
  };
  expect(await h.store.replaceWorkflowRun(held, row.version)).toBe(true);

  await h.worker({ sweepMs: 0 });
  const started = await h.log.next('workflow_started', runId);
  expect(started.at).toBeGreaterThanOrEqual(until);
  await h.log.next('workflow_completed', runId);
  expect(
    h.log.events.filter((e) => e.kind === 'workflow_started' && e.runId === runId),
  ).toHaveLength(1);
});
