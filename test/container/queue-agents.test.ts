/**
 * `queueAgents(container, classes)`: the registry a golem/queue worker takes, built from agent
 * classes bound in a container — each under its class name (what `enqueue(WeatherAgent, …)`
 * sends), resolved per job with its injected collaborators. Runs through a real queue are in the
 * services suite (test/services/queue/container.test.ts).
 */
import { createGolemContainer, queueAgents } from 'golem/container';
import { TestModel } from 'golem/testing';
import { DepsAgent, ScopedAgent } from './fixtures/accounts';
import { CLOCK, fixedClock, WeatherAgent, WeatherService } from './fixtures/weather';
import { ConfigError } from 'golem';

function container() {
  const c = createGolemContainer({
    env: {},
    defaultModel: new TestModel(),
    agents: [WeatherAgent, DepsAgent],
  });
  c.bind(CLOCK).toConstantValue(fixedClock);
  c.bind(WeatherService).toSelf();
  return c;
}

test('each bound class is registered under its class name and resolved from the container', async () => {
  const c = container();
  const registry = queueAgents(c, [WeatherAgent, DepsAgent]);
  expect(Object.keys(registry)).toEqual(['WeatherAgent', 'DepsAgent']);
  const agent = registry.DepsAgent!();
  const result = await agent.run('who?', { deps: { name: 'Ada' } });
  expect(result.messages.find((m) => m.role === 'tool')?.content).toBe('deps user Ada');
  expect(registry.WeatherAgent!().name).toBe('WeatherAgent');
});

test('a class that is not bound fails when the registry is built, naming the fix', () => {
  let thrown: unknown;
  try {
    queueAgents(container(), [ScopedAgent]);
  } catch (error) {
    thrown = error;
  }
  expect(ConfigError.is(thrown, 'container')).toBe(true);
  expect((thrown as ConfigError).reason).toBe('unbound-agent');
  expect((thrown as Error).message).toContain('ScopedAgent is not bound in this container');
});
