/**
 * Constructor injection without decorator metadata, as tsx, esbuild and Vite ≤ 7 compile agent
 * classes (decorators applied by hand here, so no `design:paramtypes` is recorded): an agent
 * whose every constructor parameter has `@inject(Token)` resolves; a parameter without one is a
 * `missing-metadata` container ConfigError naming the class, the parameter and the fix — not
 * Inversify's raw "missing metadata" text. (test/toolchains runs the real toolchains.)
 */
import { Container, ContainerModule, inject, injectable, type Newable } from 'inversify';
import { Agent } from 'golem/decorators';
import { TestModel } from 'golem/testing';
import { bindAgent, createGolemContainer, resolveAgent, type AgentClass } from 'golem/container';
import { CLOCK, fixedClock, WeatherService, type Clock } from './fixtures/weather';
import { servicesModule } from './fixtures/setup';
import { ConfigError } from 'golem';

/** A parameter decorator applied by hand, as esbuild-style toolchains do (no metadata). */
type ParameterDecorator = (target: object, key: undefined, index: number) => void;

/** An agent class declared without metadata: `@inject(tokens[i])` on parameter `i` where given. */
function bareAgent(tokens: readonly (symbol | (new () => object) | undefined)[]): AgentClass {
  class BareAgent {
    constructor(
      readonly weather: WeatherService,
      readonly clock: Clock,
    ) {}
  }
  tokens.forEach((token, index) => {
    if (token !== undefined) (inject(token) as ParameterDecorator)(BareAgent, undefined, index);
  });
  (Agent({ model: 'default' }) as (target: object) => void)(BareAgent);
  return BareAgent;
}

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (ConfigError.is(error, 'container')) return error;
    throw error;
  }
  throw new Error('expected a container ConfigError');
}

const container = (agent: AgentClass, autobind = false): Container =>
  createGolemContainer({
    env: {},
    resolveModelStrings: false,
    defaultModel: new TestModel(),
    agents: [agent],
    modules: [servicesModule],
    autobind,
  });

const TOOLCHAIN_FIX =
  'the toolchain did not emit decorator metadata (design:paramtypes), as tsx, esbuild and Vite ≤ 7 (Vitest) do not: decorate every constructor parameter with @inject(Token) — constructor(@inject(WeatherService) weather: WeatherService) — or compile with "emitDecoratorMetadata" (tsc, SWC, Vite 8)';

test('an agent with @inject on every constructor parameter resolves without design:paramtypes', () => {
  const Bare = bareAgent([WeatherService, CLOCK]);
  expect(Reflect.hasOwnMetadata('design:paramtypes', Bare)).toBe(false);
  const built = container(Bare);
  const instance = built.get(Bare as unknown as Newable<{ weather: unknown; clock: unknown }>);
  expect(instance.weather).toBe(built.get(WeatherService));
  expect(instance.clock).toBe(fixedClock);
  expect(typeof resolveAgent(built, Bare).run).toBe('function');
});

describe('a constructor parameter without @inject, and no metadata', () => {
  test('is missing-metadata when the agent is bound, naming the class, the parameter and @inject', () => {
    const error = thrown(() => container(bareAgent([WeatherService])));
    expect(error.reason).toBe('missing-metadata');
    expect(error.agent).toBe('BareAgent');
    expect(error.message).toBe(
      `BareAgent: constructor parameter #1 (clock) cannot be injected; ${TOOLCHAIN_FIX}`,
    );
  });

  test('lists every such parameter, also through bindAgent', () => {
    const error = thrown(() => {
      bindAgent(new Container(), bareAgent([]));
    });
    expect(error.reason).toBe('missing-metadata');
    expect(error.message).toBe(
      `BareAgent: constructor parameters #0 (weather), #1 (clock) cannot be injected; ${TOOLCHAIN_FIX}`,
    );
  });
});

test("a dependency without metadata met while resolving is missing-metadata naming it and the agent, Inversify's error as cause", () => {
  class Forecaster {
    constructor(readonly weather: WeatherService) {}
  }
  injectable()(Forecaster);
  class Needy {
    constructor(readonly forecaster: Forecaster) {}
  }
  (inject(Forecaster) as ParameterDecorator)(Needy, undefined, 0);
  (Agent({ model: 'default' }) as (target: object) => void)(Needy);
  const built = container(Needy, true); // autobind: Forecaster is constructed on resolution
  const error = thrown(() => resolveAgent(built, Needy));
  expect(error.reason).toBe('missing-metadata');
  expect(error.agent).toBe('Needy');
  expect(error.message).toMatch(
    /^Forecaster \(needed by Needy\): its constructor takes 1 argument but only 0 can be injected; decorate each such parameter with @inject\(Token\)/,
  );
  expect((error.cause as Error).message).toContain('Found unexpected missing metadata');
});

test('a service without metadata bound in createGolemContainer({ modules }) is missing-metadata naming it', () => {
  class Forecaster {
    constructor(readonly weather: WeatherService) {}
  }
  injectable()(Forecaster);
  const error = thrown(() =>
    createGolemContainer({
      modules: [
        new ContainerModule(({ bind }) => {
          bind(Forecaster).toSelf();
        }),
      ],
    }),
  );
  expect(error.reason).toBe('missing-metadata');
  expect(error.agent).toBeUndefined();
  expect(error.message).toMatch(
    /^Forecaster: its constructor takes 1 argument but only 0 can be injected; decorate each such parameter with @inject\(Token\)/,
  );
});
