/**
 * The mistakes a Nest developer makes with golem/nestjs fail at startup with a nestjs ConfigError
 * whose reason, module and message name the culprit and the fix.
 */
import { Controller, Inject, Injectable, Module, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Agent } from 'golem/decorators';
import { GolemModule, InjectAgent, getAgentToken, type InjectedAgent } from 'golem/nestjs';
import { WeatherAgent, WeatherModule, WeatherRepository } from './fixtures';
import { ConfigError } from 'golem';

async function startError(...imports: unknown[]): Promise<ConfigError> {
  const error: unknown = await Test.createTestingModule({ imports: imports as [] })
    .compile()
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  if (!ConfigError.is(error, 'nestjs'))
    throw new Error(`expected a nestjs ConfigError, got ${String(error)}`);
  return error;
}

@Controller()
class OrphanController {
  constructor(@InjectAgent(WeatherAgent) readonly agent: InjectedAgent<typeof WeatherAgent>) {}
}
@Module({ controllers: [OrphanController] })
class OrphanModule {}

test('an agent injected where no forFeature registers it names the module, the consumer and the fix', async () => {
  const error = await startError(GolemModule.forRoot({ defaultModel: 'test' }), OrphanModule);
  expect(error).toMatchObject({
    reason: 'unregistered-agent',
    module: 'OrphanModule',
    agent: 'WeatherAgent',
  });
  expect(error.message).toBe(
    'OrphanController (in OrphanModule) injects WeatherAgent with @InjectAgent, but OrphanModule does not register it: add GolemModule.forFeature([WeatherAgent]) to the imports of OrphanModule, or import the module that does (forFeature exports the agent to its importer)',
  );
});

test('the diagnostics see an @InjectAgent declared after forRoot was called', async () => {
  const root = GolemModule.forRoot({ defaultModel: 'test' }); // before the consumer class exists
  @Agent()
  class LateAgent {}
  @Controller()
  class LateController {
    constructor(@InjectAgent(LateAgent) readonly agent: InjectedAgent<typeof LateAgent>) {}
  }
  @Module({ controllers: [LateController] })
  class LateModule {}
  const error = await startError(root, LateModule);
  expect(error).toMatchObject({
    reason: 'unregistered-agent',
    module: 'LateModule',
    agent: 'LateAgent',
  });
});

test('the diagnostics never shadow a registered agent, wherever forRoot sits in the imports', async () => {
  @Controller()
  class UsesIt {
    constructor(@InjectAgent(WeatherAgent) readonly agent: InjectedAgent<typeof WeatherAgent>) {}
  }
  // The root module imports forRoot first and the feature module after it.
  const moduleRef = await Test.createTestingModule({
    imports: [GolemModule.forRoot({ defaultModel: 'test' }), WeatherModule],
    controllers: [UsesIt],
  }).compile();
  expect(moduleRef.get(UsesIt).agent).toBe(
    moduleRef.get(getAgentToken(WeatherAgent), { strict: false }),
  );
  await moduleRef.close();
});

test('forFeature without forRoot is missing-root, naming the feature module', async () => {
  const error = await startError(WeatherModule);
  expect(error).toMatchObject({ reason: 'missing-root', module: 'WeatherModule' });
  expect(error.message).toContain(
    "add GolemModule.forRoot({ defaultModel: 'test' }) to the imports of your AppModule",
  );
});

test('a model name nothing binds is unbound-model, naming the agent, the module and the fix', async () => {
  @Agent({ model: 'fast' })
  class FastAgent {}
  @Module({ imports: [GolemModule.forFeature([FastAgent])] })
  class FastModule {}
  const error = await startError(GolemModule.forRoot({ defaultModel: 'test' }), FastModule);
  expect(error).toMatchObject({
    reason: 'unbound-model',
    model: 'fast',
    agent: 'FastAgent',
    module: 'FastModule',
  });
  expect(error.message).toBe(
    `no model is bound to "fast" (needed by FastAgent in FastModule); bind it with GolemModule.forRoot({ models: { "fast": 'openai:gpt-4o-mini' } }), or in a test override it: .overrideProvider(getModelToken('fast')).useValue(new TestModel())`,
  );
});

test('a class without @Agent is not-an-agent wherever it is given', () => {
  class Plain {}
  for (const attempt of [
    () => GolemModule.forFeature([Plain]),
    () => getAgentToken(Plain),
    () => InjectAgent(Plain),
  ]) {
    let error: unknown;
    try {
      attempt();
    } catch (e) {
      error = e;
    }
    expect(ConfigError.is(error, 'nestjs') && error.reason).toBe('not-an-agent');
    expect((error as Error).message).toContain(
      "Plain is not an agent class: it has no @Agent decorator; decorate it with @Agent({ model: 'default' }) from golem/decorators",
    );
  }
});

test('a singleton agent injecting a REQUEST-scoped provider is refused with the two fixes', async () => {
  @Injectable({ scope: Scope.REQUEST })
  class CurrentUser {
    constructor(@Inject(REQUEST) readonly request: unknown) {}
  }
  @Agent()
  class PerUserAgent {
    constructor(readonly user: CurrentUser) {}
  }
  @Module({ imports: [GolemModule.forFeature([PerUserAgent])], providers: [CurrentUser] })
  class AccountsModule {}
  const error = await startError(GolemModule.forRoot({ defaultModel: 'test' }), AccountsModule);
  expect(error).toMatchObject({
    reason: 'request-scoped-dependency',
    agent: 'PerUserAgent',
    module: 'AccountsModule',
  });
  expect(error.message).toBe(
    "PerUserAgent (registered with GolemModule.forFeature in AccountsModule) injects CurrentUser, which is REQUEST-scoped (or depends on a REQUEST-scoped provider), but the agent is a singleton built once at startup: pass per-request data through the run's deps (agent.run(prompt, { deps })), or register the agent per request with GolemModule.forFeature([{ agent: PerUserAgent, scope: 'request' }])",
  );
});

test('one forFeature imported by two modules is refused: agents belong to one module', async () => {
  @Agent()
  class SharedAgent {}
  const feature = GolemModule.forFeature([SharedAgent]);
  @Module({ imports: [feature] })
  class A {}
  @Module({ imports: [feature] })
  class B {}
  const error = await startError(GolemModule.forRoot({ defaultModel: 'test' }), A, B);
  expect(error.reason).toBe('invalid-options');
  expect(error.message).toBe(
    'the same GolemModule.forFeature([SharedAgent]) is imported by A and B; call GolemModule.forFeature once in each module (agents are created in the context of the module that imports the call)',
  );
});

test.each([
  [
    () => GolemModule.forRoot({ models: { fast: WeatherRepository as never } }),
    'GolemModule.forRoot: the model "fast" is the class WeatherRepository; pass an instance (new WeatherRepository(…)) or a factory (() => new WeatherRepository(…))',
  ],
  [
    () => GolemModule.forRoot({ defaultModel: 'test', models: { default: 'test' } }),
    'GolemModule.forRoot: give the default model once: as defaultModel or as models.default',
  ],
  [
    () => GolemModule.forRoot({ models: { fast: 'fast' } }),
    'GolemModule.forRoot: the model "fast" is an alias of itself; bind it to a model or a model string',
  ],
  [
    () => GolemModule.forRoot({ closables: [{}] as never }),
    'GolemModule.forRoot: closables[0] has no close() method',
  ],
  [
    () => GolemModule.forRootAsync({} as never),
    'GolemModule.forRootAsync: useFactory must be a function returning the forRoot options',
  ],
  [
    () => GolemModule.forFeature([]),
    'GolemModule.forFeature: give a non-empty array of @Agent classes, e.g. GolemModule.forFeature([WeatherAgent])',
  ],
  [
    () => GolemModule.forFeature([WeatherAgent, WeatherAgent]),
    'GolemModule.forFeature: WeatherAgent is listed twice',
  ],
  [
    () => GolemModule.forFeature([{ agent: WeatherAgent, scope: 'session' as never }]),
    `GolemModule.forFeature: scope must be 'singleton' or 'request', got "session"`,
  ],
])('invalid options fail eagerly with invalid-options (%#)', (call, message) => {
  let error: unknown;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(ConfigError.is(error, 'nestjs') && [error.reason, error.message]).toEqual([
    'invalid-options',
    message,
  ]);
});

test('loading golem/nestjs without its peers names the npm install command', () => {
  let error: unknown;
  jest.isolateModules(() => {
    for (const id of ['@nestjs/common', '@nestjs/core'])
      jest.doMock(id, () => {
        throw Object.assign(new Error(`Cannot find module '${id}' from 'nestjs/peer.ts'`), {
          code: 'MODULE_NOT_FOUND',
        });
      });
    try {
      jest.requireActual('golem/nestjs');
    } catch (e) {
      error = e;
    }
  });
  for (const id of ['@nestjs/common', '@nestjs/core']) jest.dontMock(id);
  expect(ConfigError.is(error, 'nestjs') && [error.reason, error.message]).toEqual([
    'missing-peer',
    'golem/nestjs needs the packages @nestjs/common @nestjs/core, optional peer dependencies of golem that are not installed: run `npm install @nestjs/common @nestjs/core` (Nest 10, 11 or 12)',
  ]);
  // the fields every missing-peer ConfigError carries, as golem/decorators' and the others' do
  expect(
    ConfigError.is(error) && {
      entryPoint: error.entryPoint,
      packages: error.packages,
      command: error.command,
    },
  ).toEqual({
    entryPoint: 'golem/nestjs',
    packages: ['@nestjs/common', '@nestjs/core'],
    command: 'npm install @nestjs/common @nestjs/core',
  });
});

test("scope 'request' with @nestjs/core older than 10.3 is refused, naming the upgrade", () => {
  let error: unknown;
  jest.isolateModules(() => {
    jest.doMock('@nestjs/core/package.json', () => ({ version: '10.2.10' }));
    const isolated = jest.requireActual<typeof import('golem/nestjs')>('golem/nestjs');
    const decorators = jest.requireActual<typeof import('golem/decorators')>('golem/decorators');
    class LedgerAgent {}
    decorators.Agent()(LedgerAgent);
    try {
      isolated.GolemModule.forFeature([{ agent: LedgerAgent, scope: 'request' }]);
    } catch (e) {
      error = e;
    }
    // A singleton agent is fine with that version.
    expect(() => isolated.GolemModule.forFeature([LedgerAgent])).not.toThrow();
  });
  jest.dontMock('@nestjs/core/package.json');
  expect(ConfigError.is(error, 'nestjs') && [error.reason, error.message]).toEqual([
    'missing-peer',
    "GolemModule.forFeature: scope 'request' (LedgerAgent) needs @nestjs/core 10.3 or newer, found 10.2.10 (older releases hand a request-scoped agent unfinished REQUEST-scoped providers): run `npm install @nestjs/core@^10.3 @nestjs/common@^10.3`, or keep the agent a singleton and pass per-request data in deps",
  ]);
  expect(ConfigError.is(error) && [error.entryPoint, error.packages, error.command]).toEqual([
    'golem/nestjs',
    ['@nestjs/core', '@nestjs/common'],
    'npm install @nestjs/core@^10.3 @nestjs/common@^10.3',
  ]);
});
