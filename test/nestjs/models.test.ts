/**
 * GolemModule.forRoot / forRootAsync: models by name — instances, lazy factories (built once, on
 * first use; never when unused), model strings through resolveModel, aliases, the offline 'test'
 * model — reach agents through getModelToken and user code through GolemModels.
 */
import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import type { Model } from 'golem';
import { Agent } from 'golem/decorators';
import {
  GolemModels,
  GolemModule,
  getAgentToken,
  getModelToken,
  type GolemModuleOptions,
} from 'golem/nestjs';
import { TestModel } from 'golem/testing';
import { ConfigError } from 'golem';

@Agent({ model: 'default' })
class DefaultAgent {}
@Agent({ model: 'fast' })
class FastAgent {}
@Agent({ model: 'openai:gpt-4o-mini' })
class SpecAgent {}

function feature(...agents: (new () => object)[]) {
  @Module({ imports: [GolemModule.forFeature(agents)] })
  class FeatureModule {}
  return FeatureModule;
}

async function compile(
  root: ReturnType<typeof GolemModule.forRoot>,
  ...agents: (new () => object)[]
) {
  const moduleRef = await Test.createTestingModule({
    imports: [root, feature(...agents)],
  }).compile();
  return moduleRef;
}

/** The model the feature module gives its agents for `name` (the token the agent is built with). */
function modelNamed(moduleRef: TestingModule, name: string): Model {
  return moduleRef.get(getModelToken(name), { strict: false });
}

test('an instance is used as is, by the agents that name it and by GolemModels', async () => {
  const fast = new TestModel({ name: 'fast-one' });
  const moduleRef = await compile(
    GolemModule.forRoot({ defaultModel: 'test', models: { fast } }),
    FastAgent,
  );
  expect(modelNamed(moduleRef, 'fast')).toBe(fast);
  expect(await moduleRef.get(GolemModels).get('fast')).toBe(fast);
  const agent = moduleRef.get(getAgentToken(FastAgent), { strict: false });
  await agent.run('hello');
  expect(fast.requests).toHaveLength(1);
  expect(moduleRef.get(GolemModels).names()).toEqual(['fast', 'default']);
});

test('a factory is called lazily, once, and a factory nothing uses is never called', async () => {
  const calls: string[] = [];
  const options: GolemModuleOptions = {
    models: {
      fast: (ctx) => {
        calls.push(ctx.name);
        return new TestModel({ name: 'built' });
      },
      unused: () => {
        calls.push('unused');
        return new TestModel();
      },
    },
  };
  const moduleRef = await compile(GolemModule.forRoot(options), FastAgent);
  const models = moduleRef.get(GolemModels);
  expect(await models.get('fast')).toBe(modelNamed(moduleRef, 'fast'));
  expect(calls).toEqual(['fast']);
});

test('an async factory may use other providers of the application through ctx.get', async () => {
  @Injectable()
  class Vault {
    read(): Promise<string> {
      return Promise.resolve('from-vault');
    }
  }
  @Module({ providers: [Vault], exports: [Vault] })
  class VaultModule {}
  const root = GolemModule.forRoot({
    models: { fast: async (ctx) => new TestModel({ name: await ctx.get(Vault).read() }) },
  });
  const moduleRef = await Test.createTestingModule({
    imports: [root, VaultModule, feature(FastAgent)],
  }).compile();
  expect(modelNamed(moduleRef, 'fast').name).toBe('from-vault');
});

test("'test' strings are the offline TestModel without setup, and aliases follow their target", async () => {
  const moduleRef = await compile(
    GolemModule.forRoot({ defaultModel: 'test:offline', models: { fast: 'default' } }),
    DefaultAgent,
    FastAgent,
  );
  const model = modelNamed(moduleRef, 'default');
  expect(model).toBeInstanceOf(TestModel);
  expect(model.name).toBe('test:offline');
  expect(modelNamed(moduleRef, 'fast')).toBe(model);
});

test('a model string nothing binds resolves by itself with the module environment', async () => {
  const moduleRef = await compile(
    GolemModule.forRoot({ env: { OPENAI_API_KEY: 'sk-test-key' } }),
    SpecAgent,
  );
  expect(modelNamed(moduleRef, 'openai:gpt-4o-mini').name).toBe('openai:gpt-4o-mini');
});

test('a model string that cannot be built is model-failed, with the resolver error as cause, and no key in the message', async () => {
  const error: unknown = await compile(GolemModule.forRoot({ env: {} }), SpecAgent).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ConfigError.is(error, 'nestjs') && error.reason).toBe('model-failed');
  expect((error as Error).message).toMatch(
    /^the model "openai:gpt-4o-mini" cannot be built: .*OPENAI_API_KEY/,
  );
});

test('resolveModelStrings: false makes only bound names resolve', async () => {
  const error: unknown = await compile(
    GolemModule.forRoot({ env: { OPENAI_API_KEY: 'sk-test-key' }, resolveModelStrings: false }),
    SpecAgent,
  ).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ConfigError.is(error, 'nestjs') && error.reason).toBe('unbound-model');
  expect((error as Error).message).toContain(
    'model strings resolve only when bound (resolveModelStrings: false)',
  );
});

test.each([
  [
    'throws',
    () => {
      throw new Error('vault down');
    },
    'model-failed',
    'the model factory bound to "fast" threw: vault down',
  ],
  [
    'returns a non-model',
    () => ({}) as Model,
    'invalid-model',
    'the model factory bound to "fast" returned object, not a model (an object with generate())',
  ],
])(
  'a factory that %s fails startup with a typed error',
  async (_what, factory, reason, message) => {
    const error: unknown = await compile(
      GolemModule.forRoot({ models: { fast: factory } }),
      FastAgent,
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ConfigError.is(error, 'nestjs') && [error.reason, error.message]).toEqual([
      reason,
      message,
    ]);
  },
);

test('alias cycles are reported as such', async () => {
  const error = GolemModule.forRoot({ models: { a: 'b', b: 'a' } });
  const moduleRef = await Test.createTestingModule({ imports: [error] }).compile();
  const failure = await moduleRef
    .get(GolemModels)
    .get('a')
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(ConfigError.is(failure, 'nestjs') && failure.message).toBe(
    'GolemModule: the model aliases "a" -> "b" -> "a" form a cycle; bind one of them to a model or a model string',
  );
});

test('forRootAsync takes the options from a factory provider with imports and inject', async () => {
  const CONFIG = Symbol('config');
  @Module({
    providers: [{ provide: CONFIG, useValue: { model: 'test:from-config' } }],
    exports: [CONFIG],
  })
  class ConfigModule {}
  const root = GolemModule.forRootAsync({
    imports: [ConfigModule],
    inject: [CONFIG],
    useFactory: (config: { model: string }) => Promise.resolve({ defaultModel: config.model }),
  });
  const moduleRef = await compile(root, DefaultAgent);
  expect(modelNamed(moduleRef, 'default').name).toBe('test:from-config');
});

test('what a forRootAsync factory returns is checked at startup', async () => {
  const root = GolemModule.forRootAsync({ useFactory: () => ({ models: { fast: 42 as never } }) });
  const error: unknown = await compile(root, FastAgent).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ConfigError.is(error, 'nestjs') && error.message).toBe(
    'GolemModule.forRootAsync: the model "fast" is number; give a model, a factory (ctx) => model, or a model string such as \'openai:gpt-4o-mini\'',
  );
});
