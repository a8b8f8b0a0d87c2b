/**
 * Middleware in the container: `golemModule({ middleware })` and `MIDDLEWARE` bindings run on
 * every agent, outside the class's own `@UseMiddleware`, whose classes are created with
 * constructor injection.
 */
import { ContainerModule, inject, injectable } from 'inversify';
import type { Middleware, ModelRequest } from 'golem';
import { ConfigError } from 'golem';
import { createGolemContainer, golemModule, MIDDLEWARE, resolveAgent } from 'golem/container';
import { Agent, UseMiddleware } from 'golem/decorators';
import { FunctionModel, textResponse } from 'golem/testing';

const PREFIX = Symbol('prefix');

/** Appends `tag` to the first message, so the order of layers shows in what the model received. */
function tagged(request: ModelRequest, tag: string): ModelRequest {
  const [first, ...rest] = request.messages;
  return {
    ...request,
    messages: [{ ...first, role: 'user', content: `${first?.content ?? ''}|${tag}` }, ...rest],
  };
}

function tagger(tag: string): Middleware {
  return { name: tag, request: (request) => tagged(request, tag) };
}

/** A middleware class with an injected dependency. */
@injectable()
class PrefixMiddleware implements Middleware {
  constructor(@inject(PREFIX) private readonly prefix: string) {}
  request(request: ModelRequest): ModelRequest {
    return tagged(request, this.prefix);
  }
}

/** A middleware class the container creates without any binding (no @injectable needed). */
class ToolCounter implements Middleware {
  static calls = 0;
  tool(_call: unknown, next: (args: unknown) => Promise<string>): Promise<string> {
    ToolCounter.calls++;
    return next((_call as { args: unknown }).args);
  }
}

@Agent({ model: 'default' })
@UseMiddleware(tagger('own'), PrefixMiddleware, ToolCounter)
class SupportAgent {}

@Agent({ model: 'default' })
class PlainAgent {}

function recorder(): { model: FunctionModel; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    model: new FunctionModel((request) => {
      seen.push(request.messages[0]?.content ?? '');
      return textResponse('ok');
    }),
  };
}

test('app-wide middleware runs first (outermost), then the class own, classes injected', async () => {
  const { model, seen } = recorder();
  const container = createGolemContainer({
    env: {},
    resolveModelStrings: false,
    defaultModel: model,
    agents: [SupportAgent, PlainAgent],
    middleware: [tagger('app1'), tagger('app2')],
    modules: [
      new ContainerModule(({ bind }) => {
        bind(PREFIX).toConstantValue('injected');
        bind<Middleware>(MIDDLEWARE).toConstantValue(tagger('bound'));
      }),
    ],
  });
  await resolveAgent(container, SupportAgent).run('hi');
  await resolveAgent(container, PlainAgent).run('hi');
  expect(seen).toEqual(['hi|app1|app2|bound|own|injected', 'hi|app1|app2|bound']);
});

test('a bound middleware class is used as bound', async () => {
  const { model, seen } = recorder();
  const container = createGolemContainer({
    env: {},
    resolveModelStrings: false,
    defaultModel: model,
    agents: [SupportAgent],
    modules: [
      new ContainerModule(({ bind }) => {
        bind(PREFIX).toConstantValue('unused');
        bind(PrefixMiddleware).toConstantValue(
          Object.assign(Object.create(PrefixMiddleware.prototype) as PrefixMiddleware, {
            prefix: 'bound-instance',
          }),
        );
      }),
    ],
  });
  await resolveAgent(container, SupportAgent).run('hi');
  expect(seen).toEqual(['hi|own|bound-instance']);
});

test('an agent binding option replaces the whole list', async () => {
  const { model, seen } = recorder();
  const container = createGolemContainer({
    env: {},
    resolveModelStrings: false,
    defaultModel: model,
    middleware: [tagger('app')],
  });
  const { bindAgent } = await import('golem/container');
  bindAgent(container, PlainAgent, { middleware: [tagger('binding')] });
  await resolveAgent(container, PlainAgent).run('hi');
  expect(seen).toEqual(['hi|binding']);
});

test('golemModule checks middleware', () => {
  expect(() => golemModule({ middleware: 'x' as never })).toThrow(ConfigError);
  expect(() => golemModule({ middleware: [{}] })).toThrow(
    /middleware\[0\] must be a middleware object/,
  );
  expect(() => golemModule({ middleware: [PrefixMiddleware as never] })).toThrow(
    /container.bind\(MIDDLEWARE\).to\(Class\)/,
  );
});

test('a middleware class without hooks fails when the agent is resolved', () => {
  class Empty {}
  @Agent({ model: 'default' })
  @UseMiddleware(Empty)
  class Broken {}
  const container = createGolemContainer({
    env: {},
    resolveModelStrings: false,
    defaultModel: recorder().model,
    agents: [Broken],
  });
  expect(() => resolveAgent(container, Broken)).toThrow(
    /Broken: the @UseMiddleware class Empty has no request, generate, stream or tool method/,
  );
});
