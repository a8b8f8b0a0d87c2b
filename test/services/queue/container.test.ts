/**
 * A decorated agent class from an Inversify container, through a real queue: the producer names
 * the class (`enqueue(WeatherAgent, …)`), the worker resolves it from its container
 * (`queueAgents`), with its injected service, and the job brings only JSON deps.
 */
import { loadRun } from 'golem';
import { createGolemContainer, queueAgents } from 'golem/container';
import { TestModel } from 'golem/testing';
import { CLOCK, fixedClock, WeatherAgent, WeatherService } from '../../container/fixtures/weather';
import type { Harness } from './harness';
import { harness } from './harness';

jest.setTimeout(30_000);

let h: Harness;
afterEach(async () => {
  await h.close();
});

test('a worker runs a decorated class resolved from its container, with JSON deps from the job', async () => {
  h = await harness();
  const container = createGolemContainer({
    env: {},
    defaultModel: new TestModel(),
    agents: [WeatherAgent],
  });
  container.bind(CLOCK).toConstantValue(fixedClock);
  container.bind(WeatherService).toSelf();
  await h.worker({ agents: queueAgents(container, [WeatherAgent]) });
  const { runId } = await h.queue.enqueue(WeatherAgent, 'Forecast for Lagos', {
    deps: { name: 'Ada' },
  });
  const outcome = await h.queue.result(runId);
  expect(outcome).toMatchObject({
    status: 'completed',
    output: { city: expect.any(String) as unknown, celsius: expect.any(Number) as unknown },
  });
  const record = await loadRun(h.store, runId);
  expect(record.agent).toBe('WeatherAgent');
  const tool = record.messages.find((m) => m.role === 'tool');
  expect(tool?.content).toMatch(/on 2026-12-01: \d+°C for Ada \(service \d+\)$/);
});
