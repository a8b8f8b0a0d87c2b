/**
 * Durability: a run whose process died (simulated by a runner that never finishes a step) is
 * continued by another runner once its lease expires; completed steps replay from checkpoints
 * (their bodies are not called again), the interrupted step re-runs. Code that changed
 * incompatibly is detected (`diverged`); every door checks the owner.
 */
import { defineWorkflow, WorkflowError } from 'golem/workflows';
import type { WorkflowDefinition } from 'golem/workflows';
import { clockedStore, gate, LEASE_MS, objectSchema, runnerOn } from './support';

function counted(
  hang: { promise: Promise<void> } | undefined,
  calls: Record<string, number>,
): WorkflowDefinition<null, string> {
  const count = (key: string): void => {
    calls[key] = (calls[key] ?? 0) + 1;
  };
  return defineWorkflow({
    name: 'durable',
    async run(_: null, wf) {
      const a = await wf.step('a', () => {
        count('a');
        return 'A';
      });
      const b = await wf.step('b', async () => {
        count('b');
        if (hang !== undefined && calls.b === 1) await hang.promise; // the first process dies here
        return 'B';
      });
      const c = await wf.step('c', () => {
        count('c');
        return 'C';
      });
      return a + b + c;
    },
  });
}

test('another runner continues a crashed run after its lease expired: completed steps are not re-run', async () => {
  const { store, clock } = clockedStore();
  const calls: Record<string, number> = {};
  const hang = gate();
  const first = runnerOn(store, [counted(hang, calls)], { owner: 'process-1' }).runner;
  const crashed = first.start('durable', null, { runId: 'd' }).catch((e: unknown) => e);
  while (calls.b !== 1) await new Promise((resolve) => setImmediate(resolve));

  const second = runnerOn(store, [counted(undefined, calls)], { owner: 'process-2' }).runner;
  const early: unknown = await second.continue('d').catch((e: unknown) => e);
  expect(WorkflowError.isKind(early, 'leased')).toBe(true);
  expect(await second.recover()).toEqual([]); // lease still held

  clock.advance(LEASE_MS + 1);
  expect(await second.recover()).toEqual(['d']);
  const info = await second.get('d');
  expect(info).toMatchObject({ status: 'completed', output: 'ABC' });
  expect(calls).toEqual({ a: 1, b: 2, c: 1 });
  expect(info.steps.find((s) => s.key === 'b')?.attempt).toBe(2);

  // The first process wakes up: its next write loses, its work is dropped.
  hang.open();
  const error: unknown = await crashed;
  expect(WorkflowError.isKind(error, 'lease-lost')).toBe(true);
  expect((await second.get('d')).output).toBe('ABC');
  expect(calls.c).toBe(1);
});

test('replaying with code whose step differs at a key fails the run as diverged, keeping the evidence', async () => {
  const { store, clock } = clockedStore();
  const calls: Record<string, number> = {};
  const hang = gate();
  const first = runnerOn(store, [counted(hang, calls)]).runner;
  void first.start('durable', null, { runId: 'd' }).catch(() => undefined);
  while (calls.b !== 1) await new Promise((resolve) => setImmediate(resolve));
  const changed = defineWorkflow({
    name: 'durable',
    async run(_: null, wf) {
      await wf.step('renamed', () => 'X'); // a new key: runs
      return wf.sleep('a', 10); // key "a" was a step, now a sleep
    },
  });
  clock.advance(LEASE_MS + 1);
  const second = runnerOn(store, [changed]).runner;
  const error: unknown = await second.continue('d').catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'diverged')).toBe(true);
  expect(error).toMatchObject({ step: 'a' });
  const info = await second.get('d');
  expect(info.status).toBe('failed');
  expect(info.steps.find((s) => s.key === 'a')).toMatchObject({
    kind: 'step',
    status: 'completed',
    output: 'A',
  });
  hang.open();
});

test('a declared workflow calling an undeclared step diverges', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'declared',
    steps: [{ name: 'one' }],
    async run(_: null, wf) {
      await wf.step('one', () => 1);
      return wf.step('two', () => 2);
    },
  });
  const { runner } = runnerOn(store, [wf]);
  const error: unknown = await runner.start(wf, null).catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'diverged')).toBe(true);
  expect((error as Error).message).toMatch(/"two"/);
});

test("every door checks the owner: another owner's run is reported as missing", async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'owned',
    async run(_: null, wf) {
      return wf.step('ask', (ctx) => ctx.suspend<string>());
    },
  });
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, null, { runId: 'o', owner: 'alice' });
  const doors: (() => Promise<unknown>)[] = [
    () => runner.get('o', { owner: 'bob' }),
    () => runner.resume('o', 'x', { owner: 'bob' }),
    () => runner.signal('o', 'e', 1, { owner: 'bob' }),
    () => runner.cancel('o', { owner: 'bob' }),
    () => runner.continue('o', { owner: 'bob' }),
    () => runner.fork('o', { from: 'ask', owner: 'bob' }),
  ];
  for (const door of doors) {
    const error: unknown = await door().catch((e: unknown) => e);
    expect(WorkflowError.isKind(error, 'not-found')).toBe(true);
    expect((error as Error).message).not.toMatch(/alice/);
  }
  expect((await runner.list({ owner: 'bob' })).length).toBe(0);
  await expect(runner.get('o', { owner: 'alice' })).resolves.toMatchObject({ owner: 'alice' });
  await expect(runner.resume('o', 'yes', { owner: 'alice' })).resolves.toMatchObject({
    output: 'yes',
  });
});

test('cancel stops a running execution at its next step boundary', async () => {
  const { store } = clockedStore();
  const hang = gate();
  const started = gate();
  let after = 0;
  const wf = defineWorkflow({
    name: 'cancellable',
    async run(_: null, wf) {
      await wf.step('slow', async (ctx) => {
        started.open();
        await hang.promise;
        return ctx.signal.aborted;
      });
      return wf.step('after', () => ++after);
    },
  });
  const { runner } = runnerOn(store, [wf]);
  const running = runner.start(wf, null, { runId: 'c' });
  await started.promise;
  await runner.cancel('c');
  hang.open();
  const error: unknown = await running.catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'cancelled')).toBe(true);
  expect(after).toBe(0);
  expect((await runner.get('c')).status).toBe('cancelled');
});

test('a replayed checkpoint is validated again by the step output schema', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'checked',
    async run(_: null, wf) {
      const price = await wf.step('price', () => ({ amount: 5 }), {
        output: objectSchema<{ amount: number }>({ amount: 'number' }),
      });
      await wf.step('ask', (ctx) => ctx.suspend());
      return price.amount;
    },
  });
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, null, { runId: 'v' });
  const row = await store.getWorkflowRun('v');
  if (row === undefined) throw new Error('missing row');
  const tampered = row.steps.replace('{"amount":5}', '{"amount":"5"}');
  expect(tampered).not.toBe(row.steps);
  await store.replaceWorkflowRun(
    { ...row, steps: tampered, version: row.version + 1 },
    row.version,
  );
  const error: unknown = await runner.resume('v', true).catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'invalid-input')).toBe(true);
  expect(error).toMatchObject({ step: 'price' });
  expect((await runner.get('v')).status).toBe('failed');
});
