/**
 * An executing runner renews its lease every third of `leaseMs` (timer driven by Jest's fake
 * timers, lease clock by a hand-moved clock), so a live process keeps its run; a run it completed
 * holds no lease.
 */
import { memoryStore } from 'golem/stores/memory';
import { defineWorkflow, WorkflowError } from 'golem/workflows';
import { Clock, flush, gate, runnerOn } from './support';

afterEach(() => {
  jest.useRealTimers();
});

test('a long step keeps the lease renewed: another runner cannot take the run', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  const clock = new Clock();
  const store = memoryStore({ clock: clock.now, leaseMs: 30_000 });
  const slow = gate();
  const started = gate();
  const wf = defineWorkflow({
    name: 'long',
    async run(_: null, wf) {
      return wf.step('slow', async () => {
        started.open();
        await slow.promise;
        return 'done';
      });
    },
  });
  const first = runnerOn(store, [wf], { owner: 'one' }).runner;
  const running = first.start(wf, null, { runId: 'long' });
  await started.promise;
  const leased = (await first.get('long')).lease;
  expect(leased).toEqual({ owner: 'one', expiresAt: clock.time + 30_000 });

  for (let i = 0; i < 6; i++) {
    clock.advance(10_000);
    jest.advanceTimersByTime(10_000);
    await flush();
  }
  expect((await first.get('long')).lease).toEqual({ owner: 'one', expiresAt: clock.time + 30_000 });
  const second = runnerOn(store, [wf], { owner: 'two' }).runner;
  expect(await second.recover()).toEqual([]);
  const error: unknown = await second.continue('long').catch((e: unknown) => e);
  expect(WorkflowError.isKind(error, 'leased')).toBe(true);

  slow.open();
  await expect(running).resolves.toMatchObject({ output: 'done' });
  expect((await first.get('long')).lease).toBeUndefined();
  jest.advanceTimersByTime(60_000);
  await flush();
  expect((await first.get('long')).lease).toBeUndefined(); // renewal stopped with the run
});
