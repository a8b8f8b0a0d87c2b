/**
 * Durable timers: `wf.sleepUntil` and `wf.sleep` suspend the run until the store clock reaches
 * their time; `runner.wakeDue` continues due runs only.
 */
import { defineWorkflow } from 'golem/workflows';
import { clockedStore, runnerOn } from './support';

test('sleepUntil suspends until due; wakeDue before the time leaves it suspended, after it continues', async () => {
  const { store, clock } = clockedStore();
  const due = clock.time + 60_000;
  let after = 0;
  const wf = defineWorkflow({
    name: 'cool-off',
    async run(_: null, wf) {
      await wf.sleepUntil('cool-off', due);
      return wf.step('after', () => ++after);
    },
  });
  const { runner } = runnerOn(store, [wf]);
  const first = await runner.start(wf, null, { runId: 's' });
  expect(first).toEqual({
    runId: 's',
    status: 'suspended',
    waiting: [{ step: 'cool-off', kind: 'timer', wakeAt: due }],
  });
  expect((await runner.get('s')).wakeAt).toBe(due);

  clock.advance(59_999);
  expect(await runner.wakeDue()).toEqual([]);
  expect((await runner.get('s')).status).toBe('suspended');
  // Continuing it early keeps it suspended too.
  await expect(runner.continue('s')).resolves.toMatchObject({ status: 'suspended' });
  expect(after).toBe(0);

  clock.advance(1);
  expect(await runner.wakeDue()).toEqual(['s']);
  const info = await runner.get('s');
  expect(info.status).toBe('completed');
  expect(info.output).toBe(1);
  expect(after).toBe(1);
});

test('sleep(ms) is due ms after it was first reached, on the store clock', async () => {
  const { store, clock } = clockedStore();
  const start = clock.time;
  const wf = defineWorkflow({
    name: 'nap',
    async run(_: null, wf) {
      await wf.sleep('nap', 1_000);
      return 'rested';
    },
  });
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, null, { runId: 'n' });
  expect((await runner.get('n')).wakeAt).toBe(start + 1_000);
  clock.advance(500);
  expect(await runner.wakeDue()).toEqual([]);
  expect((await runner.get('n')).wakeAt).toBe(start + 1_000);
  expect(await runner.wakeDue({ now: start + 1_000 })).toEqual(['n']);
  expect((await runner.get('n')).status).toBe('completed');
});

test('wakeDue with an explicit now wakes only timers due by then', async () => {
  const { store, clock } = clockedStore();
  const wf = defineWorkflow({
    name: 'later',
    async run(input: { at: number }, wf) {
      await wf.sleepUntil('wait', input.at);
      return input.at;
    },
  });
  const { runner } = runnerOn(store, [wf]);
  await runner.start(wf, { at: clock.time + 10 }, { runId: 'soon' });
  await runner.start(wf, { at: clock.time + 1_000 }, { runId: 'late' });
  expect(await runner.wakeDue({ now: clock.time + 10 })).toEqual(['soon']);
  expect((await runner.get('late')).status).toBe('suspended');
});
