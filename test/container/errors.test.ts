/**
 * Container errors are typed (`container` `ConfigError`, brand-checked, with a `reason`) and their
 * messages name the culprit and the fix.
 */
import { Container } from 'inversify';

import { TestModel } from 'golem/testing';
import {
  agentOf,
  bindAgent,
  createGolemContainer,
  golemModule,
  resolveAgent,
  type AgentClass,
} from 'golem/container';
import { FastAgent, PlainClass, WeatherAgent } from './fixtures/weather';
import { servicesModule } from './fixtures/setup';
import { ConfigError } from 'golem';

/** The error `fn` throws (failing the test when it throws nothing). */
function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(ConfigError.is(error, 'container')).toBe(true);
    return error as ConfigError;
  }
  throw new Error('expected a container ConfigError');
}

const notAnAgent =
  "PlainClass is not an agent class: it has no @Agent decorator; decorate it with @Agent({ model: 'default' }) from golem/decorators";

describe('a class without @Agent', () => {
  test.each<[string, () => unknown]>([
    ['agentOf', () => agentOf(PlainClass)],
    ['resolveAgent', () => resolveAgent(new Container(), PlainClass)],
    [
      'bindAgent',
      () => {
        bindAgent(new Container(), PlainClass);
      },
    ],
    ['golemModule({ agents })', () => golemModule({ agents: [PlainClass] })],
  ])('%s throws not-an-agent naming the class and the decorator', (_name, fn) => {
    const error = thrown(fn);
    expect(error.reason).toBe('not-an-agent');
    expect(error.agent).toBe('PlainClass');
    expect(error.message).toBe(notAnAgent);
    expect(ConfigError.is(error.cause, 'decorators')).toBe(true);
  });

  test('an undefined class (a circular import) says so', () => {
    const error = thrown(() => agentOf(undefined as unknown as AgentClass));
    expect(error.message).toMatch(/expected an agent class, got \(undefined\).*circular import/);
  });
});

test('an agent class that is not bound is unbound-agent, naming both ways to bind it', () => {
  const container = createGolemContainer({ env: {}, defaultModel: new TestModel() });
  const error = thrown(() => resolveAgent(container, WeatherAgent));
  expect(error.reason).toBe('unbound-agent');
  expect(error.message).toBe(
    'WeatherAgent is not bound in this container; add it to golemModule({ agents: [WeatherAgent] }) or call bindAgent(container, WeatherAgent)',
  );
});

describe('an unbound model name', () => {
  test('"default" suggests defaultModel', () => {
    const container = createGolemContainer({
      env: {},
      agents: [WeatherAgent],
      modules: [servicesModule],
    });
    const error = thrown(() => resolveAgent(container, WeatherAgent));
    expect(error).toMatchObject({
      reason: 'unbound-model',
      agent: 'WeatherAgent',
      model: 'default',
    });
    expect(error.message).toBe(
      "WeatherAgent: no model is bound to \"default\"; bind it with golemModule({ defaultModel: 'openai:gpt-4o-mini' }) (or detectDefaultModel(process.env)) or bindModel(container, 'default', model), or in a test overrideModel(container, 'default', new TestModel())",
    );
  });

  test('another name suggests models', () => {
    const container = createGolemContainer({ env: {}, agents: [FastAgent] });
    const error = thrown(() => resolveAgent(container, FastAgent));
    expect(error.message).toBe(
      "FastAgent: no model is bound to \"fast\"; bind it with golemModule({ models: { \"fast\": 'openai:gpt-4o-mini' } }) or bindModel(container, 'fast', model), or in a test overrideModel(container, 'fast', new TestModel())",
    );
  });

  test('also through container.get(agentOf(...))', () => {
    const container = createGolemContainer({ env: {}, agents: [FastAgent] });
    expect(() => container.get(agentOf(FastAgent))).toThrow(
      /FastAgent: no model is bound to "fast"/,
    );
  });
});

test('a model string without its key is model-failed, naming the agent and the variable', () => {
  const container = createGolemContainer({
    env: {},
    defaultModel: 'openai:gpt-4o-mini',
    agents: [WeatherAgent],
    modules: [servicesModule],
  });
  const error = thrown(() => resolveAgent(container, WeatherAgent));
  expect(error).toMatchObject({ reason: 'model-failed', agent: 'WeatherAgent', model: 'default' });
  expect(error.message).toMatch(
    /^WeatherAgent: the model "default" \("openai:gpt-4o-mini"\) cannot be built: .*set OPENAI_API_KEY/,
  );
  expect(ConfigError.is(error.cause, 'resolve')).toBe(true);
});

test('an invalid agent scope is invalid-options', () => {
  const error = thrown(() => {
    bindAgent(new Container(), WeatherAgent, { scope: 'Forever' as 'Singleton' });
  });
  expect(error.reason).toBe('invalid-options');
  expect(error.message).toMatch(/use one of Singleton, Transient, Request/);
});
