/**
 * A run renews its lease while a long tool runs (every leaseMs / 3), so a live process keeps its
 * run; the renewal timer is driven by Jest's fake timers, the lease clock by a FakeClock.
 */
import { Agent, loadRun, StoreError } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { FakeClock, gate, scenarioModel, stepTool } from './support/scenario';

afterEach(() => {
  jest.useRealTimers();
});

async function settleWrites(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

test('a long tool call keeps the lease renewed; another process cannot take the run', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  const clock = new FakeClock();
  const store = memoryStore({ clock: clock.now, leaseMs: 30_000 });
  const slow = gate();
  const running = gate();
  const step = stepTool(async (id) => {
    if (id === 'a1') {
      running.open();
      await slow.promise;
    }
  });
  const run = new Agent({ model: scenarioModel(), tools: [step], store }).run('go', {
    runId: 'long',
  });
  await running.promise;
  const before = await loadRun(store, 'long');
  for (let minute = 0; minute < 4; minute++) {
    clock.advance(15_000); // half a lease passes on the lease clock...
    jest.advanceTimersByTime(10_000); // ...and the renewal timer fires
    await settleWrites();
  }
  const after = await loadRun(store, 'long');
  expect(after.version).toBeGreaterThan(before.version);
  expect(after.lease?.expiresAt).toBe(clock.t + 30_000); // renewed at the last tick
  expect(clock.t).toBeGreaterThan(before.lease?.expiresAt ?? 0); // the first lease would have expired
  const taken: unknown = await new Agent({ model: scenarioModel(), tools: [step], store })
    .resumeRun('long')
    .catch((e: unknown) => e);
  expect(StoreError.isReason(taken, 'conflict')).toBe(true);
  slow.open();
  expect((await run).output).toBe('done');
});
