/**
 * Time travel: `runner.fork(runId, { from })` starts a new run whose completed prefix (steps that
 * started before `from`) is replayed, never re-executed; `from` and later run again with the
 * current code; `outputs` replace prefix checkpoints; the original stays untouched.
 */
import { defineWorkflow, WorkflowError } from 'golem/workflows';
import { clockedStore, runnerOn } from './support';

function pipeline(calls: string[]) {
  return defineWorkflow({
    name: 'pipeline',
    async run(input: { x: number }, wf) {
      const a = await wf.step('load', () => {
        calls.push('load');
        return input.x;
      });
      const b = await wf.step('decide', () => {
        calls.push('decide');
        return a > 0 ? 'up' : 'down';
      });
      return wf.step('act', () => {
        calls.push('act');
        return `${b}:${String(a)}`;
      });
    },
  });
}

test('a fork replays the prefix and re-runs from the step; the original is untouched', async () => {
  const { store } = clockedStore();
  const calls: string[] = [];
  const { runner } = runnerOn(store, [pipeline(calls)], { idGenerator: () => 'forked' });
  await runner.start('pipeline', { x: 2 }, { runId: 'orig' });
  const original = await runner.get('orig');
  calls.length = 0;

  const result = await runner.fork('orig', { from: 'decide' });
  expect(result).toEqual({ runId: 'forked', status: 'completed', output: 'up:2' });
  expect(calls).toEqual(['decide', 'act']);
  const fork = await runner.get('forked');
  expect(fork.forkedFrom).toEqual({ runId: 'orig', step: 'decide' });
  expect(fork.steps.map((s) => s.key)).toEqual(['load', 'decide', 'act']);
  expect(await runner.get('orig')).toEqual(original);
});

test('fork outputs override prefix checkpoints; input replaces the input', async () => {
  const { store } = clockedStore();
  const calls: string[] = [];
  const { runner } = runnerOn(store, [pipeline(calls)]);
  await runner.start('pipeline', { x: 2 }, { runId: 'orig' });
  calls.length = 0;
  const overridden = await runner.fork('orig', {
    from: 'decide',
    outputs: { load: -5 },
    runId: 'f1',
  });
  expect(overridden).toMatchObject({ output: 'down:-5' });
  expect(calls).toEqual(['decide', 'act']);
  const reinput = await runner.fork('orig', { from: 'load', input: { x: 7 }, runId: 'f2' });
  expect(reinput).toMatchObject({ output: 'up:7' });
});

test('a fork takes the current definition: changed later steps take effect', async () => {
  const { store } = clockedStore();
  const calls: string[] = [];
  await runnerOn(store, [pipeline(calls)]).runner.start('pipeline', { x: 1 }, { runId: 'orig' });
  const v2 = defineWorkflow({
    name: 'pipeline',
    async run(input: { x: number }, wf) {
      const a = await wf.step('load', () => {
        calls.push('load v2');
        return input.x * 100;
      });
      const b = await wf.step('decide', () => 'v2');
      return wf.step('act', () => `${b}:${String(a)}`);
    },
  });
  calls.length = 0;
  const { runner } = runnerOn(store, [v2]);
  await expect(runner.fork('orig', { from: 'decide', runId: 'f' })).resolves.toMatchObject({
    output: 'v2:1',
  });
  expect(calls).toEqual([]); // load replayed from the original's checkpoint
});

test('forking from a step that did not complete is not-found; outputs outside the prefix are refused', async () => {
  const { store } = clockedStore();
  const { runner } = runnerOn(store, [pipeline([])]);
  await runner.start('pipeline', { x: 1 }, { runId: 'orig' });
  const missing: unknown = await runner.fork('orig', { from: 'nope' }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(missing, 'not-found')).toBe(true);
  const outside: unknown = await runner
    .fork('orig', { from: 'decide', outputs: { act: 1 } })
    .catch((e: unknown) => e);
  expect(WorkflowError.isKind(outside, 'invalid-input')).toBe(true);
});

test('a run that failed at a step is forked from that step: the prefix replays, the step runs again', async () => {
  const { store } = clockedStore();
  const calls: string[] = [];
  let broken = true;
  const flaky = defineWorkflow({
    name: 'flaky',
    async run(_input: null, wf) {
      const a = await wf.step('load', () => {
        calls.push('load');
        return 2;
      });
      return wf.step('act', () => {
        calls.push('act');
        if (broken) throw new Error('the service is down');
        return a * 10;
      });
    },
  });
  const { runner } = runnerOn(store, [flaky]);
  const failed: unknown = await runner.start(flaky, null, { runId: 'f' }).catch((e: unknown) => e);
  expect(WorkflowError.isKind(failed, 'step-failed')).toBe(true);
  broken = false;
  const forked = await runner.fork('f', { from: 'act', runId: 'f2' });
  expect(forked).toMatchObject({ status: 'completed', output: 20 });
  expect(calls).toEqual(['load', 'act', 'act']);
  expect((await runner.get('f')).status).toBe('failed');
});
