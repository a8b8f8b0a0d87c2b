/**
 * `WorkflowRecorder`, the queue's door: decisions and events are recorded without executing the
 * run (due at once), executed later by whoever takes the run — refused data dropped there, the run
 * waiting as before — and leased runs are reported, not executed.
 */
import { defineWorkflow, WorkflowError, WorkflowRecorder, WorkflowRunner } from 'golem/workflows';
import { clockedStore, LEASE_MS, objectSchema } from './support';

const Payment = objectSchema<{ cents: number }>({ cents: 'number' });
let effects = 0;
const billing = defineWorkflow({
  name: 'billing',
  async run(_input: null, wf) {
    const paid = await wf.waitForEvent('payment', Payment);
    return wf.step('book', () => {
      effects++;
      return paid.cents;
    });
  },
});

function setup() {
  const { store, clock } = clockedStore();
  const runner = new WorkflowRunner({ store, workflows: [billing] });
  const recorder = new WorkflowRecorder({ store, workflows: [billing], owner: 'worker-1' });
  return { store, clock, runner, recorder };
}

beforeEach(() => {
  effects = 0;
});

test('an event is recorded without executing, then executed with its data', async () => {
  const { runner, recorder } = setup();
  await runner.start(billing, null, { runId: 'r' });
  const recorded = await recorder.recordSignal('r', 'payment', { cents: 5 });
  expect(recorded).toMatchObject({ runId: 'r', step: 'payment' });
  expect((await runner.get('r')).status).toBe('suspended');
  expect(effects).toBe(0);
  expect((await recorder.dueRuns()).map((d) => d.runId)).toEqual(['r']);
  expect(await kindOf(recorder.recordSignal('r', 'payment', { cents: 6 }))).toBe('conflict');

  expect(await recorder.executeRecorded('r')).toEqual({
    runId: 'r',
    status: 'completed',
    output: 5,
  });
  expect(effects).toBe(1);
  expect(await recorder.executeRecorded('r')).toEqual({
    runId: 'r',
    status: 'completed',
    output: 5,
  });
  expect(effects).toBe(1);
});

test('refused event data is dropped on execution: the run waits as before', async () => {
  const { runner, recorder } = setup();
  await runner.start(billing, null, { runId: 'r' });
  const before = await runner.get('r');
  await recorder.recordSignal('r', 'payment', { cents: 'five' });
  expect(await kindOf(recorder.executeRecorded('r'))).toBe('invalid-input');
  const after = await runner.get('r');
  expect(after.status).toBe('suspended');
  expect(after.steps).toEqual(before.steps);
  expect(after.wakeAt).toBeUndefined();
  expect(await recorder.dueRuns()).toEqual([]);
});

test('a run leased by another process is reported, not executed; once the lease lapses it runs', async () => {
  const { store, clock, recorder } = setup();
  const other = new WorkflowRunner({ store, workflows: [billing], owner: 'elsewhere' });
  const { runId } = await other.startAsync(billing, null);
  const row = await store.getWorkflowRun(runId);
  if (row === undefined) throw new Error('not stored');
  const held = { ...row, leaseOwner: 'elsewhere', leaseExpiresAt: clock.now() + LEASE_MS };
  expect(await store.replaceWorkflowRun({ ...held, version: row.version + 1 }, row.version)).toBe(
    true,
  );
  expect(await recorder.executeRecorded(runId)).toEqual({
    runId,
    status: 'leased',
    until: clock.now() + LEASE_MS,
  });
  expect(await recorder.dueRuns()).toEqual([]);
  clock.advance(LEASE_MS + 1);
  expect(await recorder.dueRuns()).toEqual([
    { runId, version: row.version + 1, reason: 'lease-expired' },
  ]);
  expect(await recorder.executeRecorded(runId)).toMatchObject({ status: 'suspended' });
});

test('a run of a workflow this process does not know is refused before it is claimed', async () => {
  const { store, runner } = setup();
  await runner.start(billing, null, { runId: 'r' });
  await new WorkflowRecorder({ store, workflows: [billing] }).recordSignal('r', 'payment', {
    cents: 1,
  });
  const stranger = new WorkflowRecorder({ store, workflows: [] });
  const version = (await runner.get('r')).version;
  expect(await kindOf(stranger.executeRecorded('r'))).toBe('not-found');
  expect((await runner.get('r')).version).toBe(version);
});

async function kindOf(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!WorkflowError.is(error)) throw new Error(`expected a WorkflowError, got ${String(error)}`);
  return error.kind;
}
