/**
 * `golemModule`: model names bound to instances, lazy factories (called once), model strings
 * (resolved lazily through `resolveModel` with the module's environment) and aliases.
 */
import { Container, ContainerModule } from 'inversify';
import type { Model } from 'golem';
import { ScriptedModel, TestModel, textResponse } from 'golem/testing';
import {
  bindModel,
  createGolemContainer,
  golemModule,
  isModelString,
  modelToken,
  resolveAgent,
  type ModelFactoryContext,
} from 'golem/container';
import { Agent } from 'golem/decorators';
import { FastAgent } from './fixtures/weather';
import { ConfigError } from 'golem';

@Agent({ model: 'test:label' })
class LabelAgent {}

const ENV = { OPENAI_API_KEY: 'sk-test-0123456789', ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' };

function containerWith(options: Parameters<typeof golemModule>[0]): Container {
  const container = new Container();
  container.load(golemModule({ env: {}, ...options }));
  return container;
}

describe('model bindings', () => {
  test('an instance is bound as is', () => {
    const model = new TestModel();
    const container = containerWith({ models: { fast: model } });
    expect(container.get(modelToken('fast'))).toBe(model);
  });

  test('a factory is called lazily, once, with the name, the env and the container', () => {
    const made: ModelFactoryContext[] = [];
    const CONFIG = Symbol('Config');
    const container = containerWith({
      env: { FAST_LABEL: 'from-env' },
      models: {
        fast: (ctx) => {
          made.push(ctx);
          const label = ctx.get<{ label: string }>(CONFIG).label;
          return new TestModel({ name: `${label}/${ctx.env.FAST_LABEL ?? ''}` });
        },
      },
    });
    container.bind(CONFIG).toConstantValue({ label: 'from-config' });
    expect(made).toHaveLength(0);
    const first = container.get(modelToken('fast'));
    const second = container.get(modelToken('fast'));
    expect(second).toBe(first);
    expect(first.name).toBe('from-config/from-env');
    expect(made).toHaveLength(1);
    expect(made[0]?.name).toBe('fast');
  });

  test('a factory can resolve a model string with the container settings', () => {
    const container = containerWith({
      env: ENV,
      models: { fast: (ctx) => ctx.resolve('anthropic:claude-haiku-4-5') },
    });
    expect(container.get(modelToken('fast')).name).toBe('anthropic:claude-haiku-4-5');
  });

  test('a model string is resolved lazily, once, from the module env', () => {
    const env: Record<string, string> = {};
    const container = containerWith({ env, models: { default: 'openai:gpt-4o-mini' } });
    env.OPENAI_API_KEY = ENV.OPENAI_API_KEY; // read when first used, not when bound
    const model = container.get(modelToken('default'));
    expect(model.name).toBe('openai:gpt-4o-mini');
    expect(container.get(modelToken('default'))).toBe(model);
  });

  test('"test" resolves to the TestModel (or the given testModel factory)', () => {
    const own = new TestModel({ name: 'mine' });
    expect(containerWith({ defaultModel: 'test' }).get(modelToken('default'))).toBeInstanceOf(
      TestModel,
    );
    expect(
      containerWith({ defaultModel: 'test', testModel: () => own }).get(modelToken('default')),
    ).toBe(own);
  });

  test('a model string that cannot be resolved fails when used, naming the variable', () => {
    const container = containerWith({ models: { default: 'openai:gpt-4o-mini' } });
    expect(() => container.get(modelToken('default'))).toThrow(
      /the model "default" \("openai:gpt-4o-mini"\) cannot be built: .*OPENAI_API_KEY/,
    );
  });

  test('a name that is not a model string is an alias, following the target', () => {
    const fast = new TestModel({ name: 'fast' });
    const container = containerWith({ models: { fast, default: 'fast' } });
    expect(container.get(modelToken('default'))).toBe(fast);
  });

  test('defaultModel is the default binding', () => {
    const model = new TestModel();
    expect(containerWith({ defaultModel: model }).get(modelToken('default'))).toBe(model);
  });

  test('an agent asking for an unbound model string resolves it (unless turned off)', async () => {
    const container = containerWith({ agents: [LabelAgent] });
    const result = await resolveAgent(container, LabelAgent).run('hi');
    expect(result.output).toBe('success (no tool calls)');
    const strict = containerWith({ agents: [LabelAgent], resolveModelStrings: false });
    expect(() => resolveAgent(strict, LabelAgent)).toThrow(/resolveModelStrings: false/);
  });

  test('bindModel adds a binding from your own module', async () => {
    const model = new ScriptedModel([textResponse('quick')]);
    const container = createGolemContainer({
      env: {},
      agents: [FastAgent],
      modules: [
        new ContainerModule((options) => {
          bindModel(options, 'fast', model);
        }),
      ],
    });
    expect((await resolveAgent(container, FastAgent).run('hi')).output).toBe('quick');
  });

  test('isModelString tells model strings from binding names', () => {
    expect(
      ['test', 'test:x', 'openai:gpt-4o-mini', ' ollama:llama3.2 '].map(isModelString),
    ).toEqual([true, true, true, true]);
    expect(['default', 'fast', 'testing'].map(isModelString)).toEqual([false, false, false]);
  });
});

describe('invalid module options', () => {
  test.each<[string, () => unknown, RegExp]>([
    [
      'both defaultModel and models.default',
      () => golemModule({ defaultModel: 'test', models: { default: 'test' } }),
      /give the default model once/,
    ],
    [
      'a class instead of an instance',
      () => golemModule({ models: { test: TestModel as unknown as Model } }),
      /is the class TestModel; pass an instance \(new TestModel\(…\)\) or a factory/,
    ],
    [
      'an empty string',
      () => golemModule({ models: { fast: ' ' } }),
      /the model "fast" is an empty string/,
    ],
    [
      'a number',
      () => golemModule({ models: { fast: 3 as unknown as Model } }),
      /the model "fast" is number; give a model, a factory/,
    ],
    ['a self alias', () => golemModule({ models: { fast: 'fast' } }), /is an alias of itself/],
    [
      'models not an object',
      () => golemModule({ models: 'test' as unknown as Record<string, Model> }),
      /models must be an object/,
    ],
    [
      'an empty name',
      () => golemModule({ models: { '': 'test' } }),
      /a model name must be a non-empty string/,
    ],
  ])('%s is an invalid-options container ConfigError', (_name, make, message) => {
    let caught: unknown;
    try {
      make();
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.is(caught, 'container')).toBe(true);
    expect((caught as ConfigError).reason).toBe('invalid-options');
    expect((caught as Error).message).toMatch(message);
  });

  test('a factory returning a Promise or a non-model is invalid-model when used', () => {
    const container = containerWith({
      models: {
        later: () => Promise.resolve(new TestModel()) as unknown as Model,
        nothing: () => ({}) as Model,
      },
    });
    expect(() => container.get(modelToken('later'))).toThrow(
      /returned a Promise; return the model itself/,
    );
    expect(() => container.get(modelToken('nothing'))).toThrow(/returned object, not a model/);
  });

  test('a throwing factory is model-failed with the cause kept', () => {
    const boom = new Error('no config');
    const container = containerWith({
      models: {
        fast: () => {
          throw boom;
        },
      },
    });
    let caught: unknown;
    try {
      container.get(modelToken('fast'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ reason: 'model-failed', model: 'fast', cause: boom });
    expect((caught as Error).message).toBe('the model factory bound to "fast" threw: no config');
  });
});
