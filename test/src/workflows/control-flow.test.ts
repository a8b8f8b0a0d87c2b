/**
 * Control flow is plain TypeScript over steps: sequences, branches, parallel fan-out/fan-in,
 * bounded loops (maxSteps), and retries with backoff; every step output is checkpointed.
 */
import { defineWorkflow, WorkflowError } from 'golem/workflows';
import { clockedStore, flush, gate, runnerOn } from './support';

test('a sequence runs its steps in order and checkpoints each output', async () => {
  const { store } = clockedStore();
  const order: string[] = [];
  const wf = defineWorkflow({
    name: 'seq',
    async run(input: { n: number }, wf) {
      const a = await wf.step('double', () => {
        order.push('double');
        return input.n * 2;
      });
      const b = await wf.step('inc', () => {
        order.push('inc');
        return a + 1;
      });
      return { b };
    },
  });
  const { runner } = runnerOn(store, [wf]);
  const result = await runner.start(wf, { n: 3 }, { runId: 'r1' });
  expect(result).toEqual({ runId: 'r1', status: 'completed', output: { b: 7 } });
  expect(order).toEqual(['double', 'inc']);
  const info = await runner.get('r1');
  expect(info.status).toBe('completed');
  expect(info.steps.map((s) => [s.key, s.status, s.output])).toEqual([
    ['double', 'completed', 6],
    ['inc', 'completed', 7],
  ]);
  expect(info.lease).toBeUndefined();
});

test('a branch runs only the steps its condition picks', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'branch',
    async run(input: { big: boolean }, wf) {
      const size = await wf.step('measure', () => (input.big ? 100 : 1));
      if (size > 10) return wf.step('large', () => 'L');
      return wf.step('small', () => 'S');
    },
  });
  const { runner } = runnerOn(store, [wf]);
  await expect(runner.start(wf, { big: true }, { runId: 'big' })).resolves.toMatchObject({
    output: 'L',
  });
  await expect(runner.start(wf, { big: false }, { runId: 'small' })).resolves.toMatchObject({
    output: 'S',
  });
  expect((await runner.get('big')).steps.map((s) => s.key)).toEqual(['measure', 'large']);
  expect((await runner.get('small')).steps.map((s) => s.key)).toEqual(['measure', 'small']);
});

test('parallel steps run concurrently and fan in', async () => {
  const { store } = clockedStore();
  const aStarted = gate();
  const bStarted = gate();
  const wf = defineWorkflow({
    name: 'fan',
    async run(_: null, wf) {
      const [a, b] = await Promise.all([
        wf.step('a', async () => {
          aStarted.open();
          await bStarted.promise; // finishes only once b has started: both run at once
          return 'A';
        }),
        wf.step('b', async () => {
          bStarted.open();
          await aStarted.promise;
          return 'B';
        }),
      ]);
      return wf.step('join', () => `${a}${b}`);
    },
  });
  const { runner } = runnerOn(store, [wf]);
  await expect(runner.start(wf, null, { runId: 'p' })).resolves.toMatchObject({ output: 'AB' });
  const steps = (await runner.get('p')).steps;
  const group = (key: string): number | undefined => steps.find((s) => s.key === key)?.group;
  expect(group('a')).toBe(group('b'));
  expect(group('join')).not.toBe(group('a'));
});

test('a loop repeats a step name with keys name, name#2, …', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'loop',
    async run(_: null, wf) {
      let total = 0;
      for (let i = 0; i < 3; i++) total += await wf.step('add', () => i + 1);
      return total;
    },
  });
  const { runner } = runnerOn(store, [wf]);
  await expect(runner.start(wf, null, { runId: 'l' })).resolves.toMatchObject({ output: 6 });
  expect((await runner.get('l')).steps.map((s) => s.key)).toEqual(['add', 'add#2', 'add#3']);
});

test('a loop past maxSteps fails the run with step-limit', async () => {
  const { store } = clockedStore();
  let calls = 0;
  const wf = defineWorkflow({
    name: 'forever',
    maxSteps: 5,
    async run(_: null, wf) {
      for (;;) await wf.step('tick', () => ++calls);
    },
  });
  const { runner } = runnerOn(store, [wf]);
  const error: unknown = await runner.start(wf, null, { runId: 'f' }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'step-limit')).toBe(true);
  expect(calls).toBe(5);
  const info = await runner.get('f');
  expect(info.status).toBe('failed');
  expect(info.error?.message).toMatch(/maxSteps \(5\)/);
});

test('a step failing transiently is retried with its backoff, then checkpointed', async () => {
  const { store } = clockedStore();
  let attempts = 0;
  const wf = defineWorkflow({
    name: 'retry',
    async run(_: null, wf) {
      return wf.step(
        'flaky',
        (ctx) => {
          attempts++;
          if (ctx.attempt < 3) throw new Error(`boom ${String(ctx.attempt)}`);
          return 'ok';
        },
        { retries: 2, backoff: (n) => n * 100 },
      );
    },
  });
  const { runner, waits, events } = runnerOn(store, [wf]);
  await expect(runner.start(wf, null, { runId: 'r' })).resolves.toMatchObject({ output: 'ok' });
  expect(attempts).toBe(3);
  expect(waits).toEqual([100, 200]);
  expect(
    events.filter((e) => e.kind === 'step_failed').map((e) => 'retrying' in e && e.retrying),
  ).toEqual([true, true]);
  expect((await runner.get('r')).steps[0]).toMatchObject({ status: 'completed', attempt: 3 });
});

test('a step out of retries fails the run: start rejects with step-failed naming the step', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'broken',
    async run(_: null, wf) {
      await wf.step('ok', () => 1);
      return wf.step(
        'bad',
        () => {
          throw new Error('disk full');
        },
        { retries: 1 },
      );
    },
  });
  const { runner, waits } = runnerOn(store, [wf]);
  const error: unknown = await runner.start(wf, null, { runId: 'b' }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'step-failed')).toBe(true);
  expect(error).toMatchObject({ runId: 'b', step: 'bad' });
  expect(((error as WorkflowError).cause as Error).message).toBe('disk full');
  expect(waits).toHaveLength(1);
  const info = await runner.get('b');
  expect(info.status).toBe('failed');
  expect(info.steps.map((s) => s.status)).toEqual(['completed', 'failed']);
  await flush();
});

test('a step output that is not JSON fails the step with not-json', async () => {
  const { store } = clockedStore();
  const wf = defineWorkflow({
    name: 'nonjson',
    async run(_: null, wf) {
      return wf.step('date', () => new Map([[1, 2]]));
    },
  });
  const { runner } = runnerOn(store, [wf]);
  const error: unknown = await runner.start(wf, null).catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'not-json')).toBe(true);
  expect((error as Error).message).toMatch(/step date's output .*Map instance/);
});
