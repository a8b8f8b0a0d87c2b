/**
 * Agent resolution: decorated classes built with constructor injection (class-typed services by
 * reflection, interfaces by Symbol token), returned as typed engine agents whose tools run on the
 * injected instance.
 */
import { expectTypeOf } from 'expect-type';
import { Container, inject, injectable } from 'inversify';
import { defineTool, type Agent as EngineAgent, type RunEvent } from 'golem';
import { Agent, Instructions, Tool } from 'golem/decorators';
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';
import {
  agentOf,
  bindAgent,
  createGolemContainer,
  overrideModel,
  resolveAgent,
  type ResolvedAgent,
} from 'golem/container';
import {
  CLOCK,
  fixedClock,
  Forecast,
  WeatherAgent,
  WeatherService,
  type Clock,
  type User,
} from './fixtures/weather';
import { servicesModule, weatherContainer } from './fixtures/setup';

const ada = { deps: { name: 'Ada' } };

describe('constructor injection', () => {
  test('injects a class-typed service by its reflected type and an interface by Symbol token', () => {
    const container = weatherContainer(new TestModel());
    const instance = container.get(WeatherAgent);
    expect(instance.weather).toBe(container.get(WeatherService));
    expect(instance.clock).toBe(fixedClock);
  });

  test('tools run on the injected instance', async () => {
    const container = weatherContainer(new TestModel());
    const result = await resolveAgent(container, WeatherAgent).run('Forecast?', ada);
    const service = container.get(WeatherService);
    expect(result.messages.find((m) => m.role === 'tool')?.content).toBe(
      `Lagos on 2026-12-01: 25°C for Ada (service ${service.id})`,
    );
  });

  test('the agent comes back typed from the class markers', async () => {
    const container = weatherContainer(new TestModel());
    const agent = container.get(agentOf(WeatherAgent));
    expectTypeOf(agent).toEqualTypeOf<EngineAgent<User, Forecast>>();
    expectTypeOf(resolveAgent(container, WeatherAgent)).toEqualTypeOf<
      ResolvedAgent<typeof WeatherAgent>
    >();
    const result = await agent.run('Forecast?', ada);
    expectTypeOf(result.output).toEqualTypeOf<Forecast>();
    expect(result.output).toBeInstanceOf(Forecast);
    expect(result.output).toEqual({ city: 'Lagos', celsius: 25 });
  });

  test('the same agent comes back while its instance and model stay the same', () => {
    const container = weatherContainer(new TestModel());
    expect(resolveAgent(container, WeatherAgent)).toBe(container.get(agentOf(WeatherAgent)));
  });

  test('another provider (a controller) gets the agent injected by its token', async () => {
    @injectable()
    class Controller {
      constructor(
        @inject(agentOf(WeatherAgent)) readonly agent: ResolvedAgent<typeof WeatherAgent>,
      ) {}
    }
    const container = weatherContainer(new TestModel());
    container.bind(Controller).toSelf();
    const controller = container.get(Controller);
    expect(controller.agent).toBe(resolveAgent(container, WeatherAgent));
    expect((await controller.agent.run('Forecast?', ada)).output.city).toBe('Lagos');
  });

  test('an agent class already decorated with @injectable() binds as well', async () => {
    @injectable()
    @Agent()
    class Decorated {
      constructor(@inject(CLOCK) readonly clock: Clock) {}

      @Tool()
      today(): string {
        return this.clock.today();
      }
    }
    const container = createGolemContainer({
      env: {},
      defaultModel: new TestModel(),
      agents: [Decorated],
      modules: [servicesModule],
    });
    const result = await resolveAgent(container, Decorated).run('today?');
    expect(result.output).toBe('{"today":"2026-12-01"}');
  });

  test('a Transient agent gets a new instance per resolution, a Singleton one instance', () => {
    const transient = weatherContainer(new TestModel(), { agentScope: 'Transient' });
    expect(transient.get(WeatherAgent)).not.toBe(transient.get(WeatherAgent));
    expect(resolveAgent(transient, WeatherAgent)).not.toBe(resolveAgent(transient, WeatherAgent));
    const singleton = weatherContainer(new TestModel());
    expect(singleton.get(WeatherAgent)).toBe(singleton.get(WeatherAgent));
  });

  test('bindAgent takes another model binding, extra tools and an observer', async () => {
    const events: RunEvent[] = [];
    const fast = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'ping', args: {} }]),
      textResponse('{"city":"Oslo","celsius":4}'),
    ]);
    const container = createGolemContainer({
      env: {},
      models: { fast },
      modules: [servicesModule],
    });
    bindAgent(container, WeatherAgent, {
      model: 'fast',
      tools: [
        defineTool<User>({
          name: 'ping',
          description: 'ping',
          schema: { type: 'object' },
          execute: (_args, ctx) => `pong ${ctx.deps.name}`,
        }),
      ],
      onEvent: (event) => {
        events.push(event);
      },
    });
    const result = await resolveAgent(container, WeatherAgent).run('Forecast?', ada);
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(result.messages.find((m) => m.role === 'tool')?.content).toBe('pong Ada');
    expect(fast.requests[0]?.tools.map((t) => t.name)).toEqual(['forecast', 'ping']);
    expect(events.length).toBeGreaterThan(0);
  });

  test('an interface-typed parameter without @inject fails when bound, naming @inject', () => {
    @Agent()
    @Instructions('x')
    class Untyped {
      constructor(readonly clock: Clock) {}
    }
    expect(() => {
      bindAgent(new Container(), Untyped);
    }).toThrow(
      /^Untyped: constructor parameter #0 \(clock\) cannot be injected; its type is reflected as a built-in .*@inject\(TOKEN\)/,
    );
  });
});

describe('an autobind container', () => {
  test('resolves unbound @injectable services, and still reports unbound agents and models', async () => {
    const container = createGolemContainer({
      env: {},
      autobind: true,
      resolveModelStrings: false,
      agents: [WeatherAgent],
    });
    container.bind(CLOCK).toConstantValue(fixedClock);
    expect(() => resolveAgent(container, WeatherAgent)).toThrow(
      /^WeatherAgent: no model is bound to "default"; bind it with/,
    );
    expect(() => resolveAgent(container, Unbound)).toThrow(
      /^Unbound is not bound in this container; add it to golemModule/,
    );
    overrideModel(container, 'default', new TestModel());
    const result = await resolveAgent(container, WeatherAgent).run('Forecast?', ada);
    expect(result.output.city).toBe('Lagos');
    expect(container.get(WeatherAgent).weather).toBeInstanceOf(WeatherService);
  });

  test('resolves unbound model strings', async () => {
    const container = createGolemContainer({ env: {}, autobind: true, agents: [TestStringAgent] });
    expect((await resolveAgent(container, TestStringAgent).run('hi')).output).toBe(
      'success (no tool calls)',
    );
  });
});

@Agent()
class Unbound {}

@Agent({ model: 'test' })
class TestStringAgent {}
