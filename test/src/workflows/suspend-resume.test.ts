/**
 * A step suspends with `ctx.suspend` until `runner.resume` gives it data (validated by the step's
 * schema; invalid data records nothing; a second resume loses), and `wf.waitForEvent` suspends
 * until `runner.signal` delivers its event.
 */
import { defineWorkflow, WorkflowError } from 'golem/workflows';
import { clockedStore, objectSchema, runnerOn } from './support';

interface Decision {
  approved: boolean;
}
const DecisionSchema = objectSchema<Decision>({ approved: 'boolean' });

function approvalFlow(calls: { before: number; after: number }) {
  return defineWorkflow({
    name: 'approval',
    async run(input: { amount: number }, wf) {
      await wf.step('before', () => {
        calls.before++;
        return input.amount;
      });
      const decision = await wf.step('approve', (ctx) =>
        ctx.suspend({
          reason: 'manager approval',
          schema: DecisionSchema,
          payload: { amount: input.amount },
        }),
      );
      if (!decision.approved) return 'rejected';
      return wf.step('after', () => {
        calls.after++;
        return 'paid';
      });
    },
  });
}

test('a suspended run resumes with validated data and completes', async () => {
  const { store } = clockedStore();
  const calls = { before: 0, after: 0 };
  const wf = approvalFlow(calls);
  const { runner, events } = runnerOn(store, [wf]);
  const first = await runner.start(wf, { amount: 5 }, { runId: 'a' });
  expect(first).toEqual({
    runId: 'a',
    status: 'suspended',
    waiting: [
      { step: 'approve', kind: 'decision', reason: 'manager approval', payload: { amount: 5 } },
    ],
  });
  const stored = await runner.get('a');
  expect(stored.status).toBe('suspended');
  expect(stored.lease).toBeUndefined();
  const done = await runner.resume('a', { approved: true });
  expect(done).toEqual({ runId: 'a', status: 'completed', output: 'paid' });
  expect(calls).toEqual({ before: 1, after: 1 });
  const info = await runner.get('a');
  expect(info.steps.find((s) => s.key === 'approve')).toMatchObject({
    status: 'completed',
    output: { approved: true },
    resumeData: { approved: true },
  });
  expect(events.map((e) => e.kind)).toContain('workflow_resumed');
});

test('invalid resume data is refused with invalid-input and records nothing', async () => {
  const { store } = clockedStore();
  const wf = approvalFlow({ before: 0, after: 0 });
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, { amount: 5 }, { runId: 'a' });
  const before = await runner.get('a');
  const error: unknown = await runner.resume('a', { approved: 'yes' }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'invalid-input')).toBe(true);
  expect((error as Error).message).toMatch(/approved: expected boolean/);
  const after = await runner.get('a');
  expect(after.status).toBe('suspended');
  expect(after.steps).toEqual(before.steps);
  expect(after.waiting).toEqual(before.waiting);
  expect(after.lease).toBeUndefined();
  // Still resumable with valid data.
  await expect(runner.resume('a', { approved: false })).resolves.toMatchObject({
    output: 'rejected',
  });
});

test('two concurrent resumes of one suspension: one wins, the other gets conflict', async () => {
  const { store } = clockedStore();
  const calls = { before: 0, after: 0 };
  const wf = approvalFlow(calls);
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, { amount: 5 }, { runId: 'a' });
  const outcomes = await Promise.allSettled([
    runner.resume('a', { approved: true }),
    runner.resume('a', { approved: false }),
  ]);
  expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
  const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
  expect(WorkflowError.isKind(lost.reason, 'conflict')).toBe(true);
  expect(calls.after).toBe(1);
});

test('a resume after the suspension was resumed is a conflict', async () => {
  const { store } = clockedStore();
  const wf = approvalFlow({ before: 0, after: 0 });
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, { amount: 5 }, { runId: 'a' });
  await runner.resume('a', { approved: true });
  const error: unknown = await runner.resume('a', { approved: true }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'conflict')).toBe(true);
});

test('resuming a run that never suspended is not-suspended', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({ name: 'plain', run: async (_: null, wf) => wf.step('x', () => 1) });
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, null, { runId: 'p' });
  const error: unknown = await runner.resume('p', {}).catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'not-suspended')).toBe(true);
});

test('waitForEvent suspends until signal delivers the event, validated', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'pay',
    async run(_: null, wf) {
      const paid = await wf.waitForEvent(
        'payment',
        objectSchema<{ amount: number }>({ amount: 'number' }),
      );
      return wf.step('receipt', () => `received ${String(paid.amount)}`);
    },
  });
  const { runner } = runnerOn(store, [wf]);
  const first = await runner.start(wf, null, { runId: 'e' });
  expect(first).toMatchObject({
    status: 'suspended',
    waiting: [{ step: 'payment', kind: 'event', event: 'payment' }],
  });
  const wrong: unknown = await runner.signal('e', 'refund', { amount: 1 }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(wrong, 'not-suspended')).toBe(true);
  const invalid: unknown = await runner
    .signal('e', 'payment', { amount: 'x' })
    .catch((e: unknown) => e);
  expect(WorkflowError.isKind(invalid, 'invalid-input')).toBe(true);
  expect((await runner.get('e')).status).toBe('suspended');
  await expect(runner.signal('e', 'payment', { amount: 12 })).resolves.toEqual({
    runId: 'e',
    status: 'completed',
    output: 'received 12',
  });
  expect((await runner.get('e')).steps[0]).toMatchObject({
    key: 'payment',
    kind: 'event',
    output: { amount: 12 },
  });
});

test('parallel suspensions: resuming one keeps the run suspended on the other', async () => {
  const { store } = clockedStore();
  let bodies = 0;
  const wf = defineWorkflow({
    name: 'two',
    async run(_: null, wf) {
      const ask = (name: string) =>
        wf.step(name, (ctx) => {
          bodies++;
          return ctx.suspend<string>({ reason: name });
        });
      const [a, b] = await Promise.all([ask('a'), ask('b')]);
      return `${a}${b}`;
    },
  });
  const { runner } = runnerOn(store, [wf]);
  const first = await runner.start(wf, null, { runId: 't' });
  expect(first.status === 'suspended' && first.waiting.map((w) => w.step)).toEqual(['a', 'b']);
  const second = await runner.resume('t', 'x', { step: 'a' });
  expect(second.status === 'suspended' && second.waiting.map((w) => w.step)).toEqual(['b']);
  expect(bodies).toBe(3); // a, b, then a again with its data; b was not re-run while waiting
  await expect(runner.resume('t', 'y', { step: 'b' })).resolves.toMatchObject({ output: 'xy' });
});
