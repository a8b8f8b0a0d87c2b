/**
 * `@UseMiddleware`: the agent class declares its middleware; `agentFromClass` builds the agent
 * with it, in order, bases' first; classes need a container (or an explicit list).
 */
import { ConfigError, type Middleware, type ModelRequest } from 'golem';
import { Agent, agentFromClass, middlewareOf, UseMiddleware } from 'golem/decorators';
import { FunctionModel, textResponse } from 'golem/testing';

/** A middleware appending `tag` to the system prompt, and recording its calls in `trail`. */
function tagger(tag: string, trail: string[]): Middleware {
  return {
    name: tag,
    request: (request: ModelRequest) => {
      trail.push(tag);
      const [first, ...rest] = request.messages;
      return first?.role === 'system'
        ? {
            ...request,
            messages: [{ ...first, content: `${first.content ?? ''}+${tag}` }, ...rest],
          }
        : { ...request, messages: [{ role: 'system', content: tag }, ...request.messages] };
    },
  };
}

function recorder(): { model: FunctionModel; seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  return {
    seen,
    model: new FunctionModel((request) => {
      seen.push(request);
      return textResponse('ok');
    }),
  };
}

test('the built agent runs the class middleware in reading order, the first outermost', async () => {
  const trail: string[] = [];
  @Agent({ model: 'default' })
  @UseMiddleware(tagger('a', trail), tagger('b', trail))
  @UseMiddleware(tagger('c', trail))
  class Tagged {}
  const { model, seen } = recorder();
  await agentFromClass(new Tagged(), { model }).run('hi');
  expect(trail).toEqual(['a', 'b', 'c']);
  expect(seen[0]?.messages[0]?.content).toBe('a+b+c');
});

test("a subclass's middleware runs inside its base's", () => {
  const trail: string[] = [];
  const base = tagger('base', trail);
  const sub = tagger('sub', trail);
  @Agent({ model: 'default' })
  @UseMiddleware(base)
  class Base {}
  @UseMiddleware(sub)
  class Sub extends Base {}
  expect(middlewareOf(Sub)).toEqual([base, sub]);
  expect(middlewareOf(Base)).toEqual([base]);
});

test('an explicit middleware list replaces the class list', async () => {
  const trail: string[] = [];
  @Agent({ model: 'default' })
  @UseMiddleware(tagger('own', trail))
  class Tagged {}
  const { model, seen } = recorder();
  await agentFromClass(new Tagged(), { model, middleware: [tagger('app', trail)] }).run('hi');
  expect(trail).toEqual(['app']);
  expect(seen[0]?.messages[0]?.content).toBe('app');
});

test('a middleware class needs a container, or an explicit list', () => {
  class Audit implements Middleware {
    request(request: ModelRequest): ModelRequest {
      return request;
    }
  }
  @Agent({ model: 'default' })
  @UseMiddleware(Audit)
  class Audited {}
  const { model } = recorder();
  expect(middlewareOf(Audited)).toEqual([Audit]);
  expect(() => agentFromClass(new Audited(), { model })).toThrow(
    /@UseMiddleware lists the class Audit, which agentFromClass cannot create/,
  );
  expect(() => agentFromClass(new Audited(), { model, middleware: [new Audit()] })).not.toThrow();
});

test('anything else is a decorators ConfigError when the class is decorated', () => {
  for (const bad of [{}, { request: 'no' }, 42, null]) {
    let error: unknown;
    try {
      @UseMiddleware(bad as never)
      class Bad {}
      expect(Bad).toBeDefined();
    } catch (e) {
      error = e;
    }
    expect(ConfigError.is(error, 'decorators', 'invalid-option')).toBe(true);
    expect((error as Error).message).toMatch(/Bad: @UseMiddleware argument 0 is neither/);
  }
});

test('a class without @UseMiddleware has none', () => {
  @Agent({ model: 'default' })
  class Plain {}
  expect(middlewareOf(Plain)).toEqual([]);
});
