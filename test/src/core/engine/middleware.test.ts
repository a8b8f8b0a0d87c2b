import {
  Agent,
  ConfigError,
  FallbackModel,
  ModelHTTPError,
  RunError,
  UsageLimitError,
  defineTool,
  wrapModel,
  type Delta,
  type GenerateOptions,
  type Middleware,
  type ModelRequest,
  type ModelResponse,
  type RunEvent,
} from 'golem';
import { FunctionModel, StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { memoryStore } from 'golem/stores/memory';

const noSleep = (): Promise<void> => Promise.resolve();

/** A middleware that records `label` on the way in and out, and passes everything on. */
function tracer(label: string, log: string[]): Middleware {
  return {
    name: label,
    generate: async (call, next) => {
      log.push(`${label}>`);
      const response = await next(call.request);
      log.push(`<${label}`);
      return response;
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its text',
  schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: (args: { text: string }) => `echo:${args.text}`,
});

describe('model middleware on an agent', () => {
  test('runs in order, first outermost, around every call', async () => {
    const log: string[] = [];
    const model = new FunctionModel(() => {
      log.push('model');
      return textResponse('ok');
    });
    const agent = new Agent({ model, middleware: [tracer('a', log), tracer('b', log)] });

    const result = await agent.run('hi');

    expect(result.output).toBe('ok');
    expect(log).toEqual(['a>', 'b>', 'model', '<b', '<a']);
  });

  test('request hooks change what the provider receives, not the run messages', async () => {
    const model = new FunctionModel(() => textResponse('ok'));
    const upper: Middleware = {
      request: (request) => ({
        ...request,
        messages: request.messages.map((m) =>
          m.role === 'user' && typeof m.content === 'string'
            ? { ...m, content: m.content.toUpperCase() }
            : m,
        ),
        settings: { ...request.settings, temperature: 0 },
      }),
    };
    const agent = new Agent({ model, middleware: [upper] });

    const result = await agent.run('quiet please');

    expect(model.requests[0]?.messages).toEqual([{ role: 'user', content: 'QUIET PLEASE' }]);
    expect(model.requests[0]?.settings).toEqual({ temperature: 0 });
    expect(result.messages[0]).toEqual({ role: 'user', content: 'quiet please' });
  });

  test('an async request hook runs before the generate hook of the same middleware', async () => {
    const seen: string[] = [];
    const model = new FunctionModel((request) => {
      seen.push(`model:${String(request.settings?.temperature)}`);
      return textResponse('ok');
    });
    const both: Middleware = {
      request: async (request) => ({ ...request, settings: { temperature: 0.5 } }),
      generate: (call, next) => {
        seen.push(`generate:${String(call.request.settings?.temperature)}`);
        return next(call.request);
      },
    };

    await new Agent({ model, middleware: [both] }).run('hi');

    expect(seen).toEqual(['generate:0.5', 'model:0.5']);
  });

  test('a generate hook may answer without calling the model (and the response is normalised)', async () => {
    const model = new FunctionModel(() => textResponse('from the model'));
    const canned: Middleware = {
      generate: () =>
        Promise.resolve({
          message: { content: 'canned' },
          usage: undefined,
        } as unknown as ModelResponse),
    };
    const events: RunEvent[] = [];

    const result = await new Agent({ model, middleware: [canned] }).run('hi', {
      observer: (e) => events.push(e),
    });

    expect(result.output).toBe('canned');
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(model.calls).toBe(0);
    expect(events.filter((e) => e.kind === 'model_end')).toHaveLength(1);
  });

  test('a cache-style answer counts in usage.cachedResponses and costs nothing', async () => {
    const model = new FunctionModel(() => textResponse('live'));
    const cached: Middleware = {
      generate: () =>
        Promise.resolve({
          message: { role: 'assistant', content: 'cached' },
          usage: { inputTokens: 0, outputTokens: 0, cachedResponses: 1 },
        }),
    };
    const events: RunEvent[] = [];

    const result = await new Agent({ model, middleware: [cached] }).run('hi', {
      observer: (e) => events.push(e),
    });

    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 1 });
    const end = events.find((e) => e.kind === 'model_end');
    expect(end?.kind === 'model_end' && end.usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedResponses: 1,
    });
  });

  test('each call carries its scope: agent, owner, conversation, turn and attempt', async () => {
    const scopes: unknown[] = [];
    const spy: Middleware = {
      generate: (call, next) => {
        scopes.push(call.options?.scope);
        return next(call.request);
      },
    };
    const model = new FunctionModel((_request, options) =>
      options.scope?.turn === 0
        ? toolCallResponse([{ id: 'c1', name: 'echo', args: { text: 'x' } }])
        : textResponse('done'),
    );
    const agent = new Agent({ model, tools: [echo], name: 'helper', middleware: [spy] });

    const result = await agent.run('hi', { owner: 'alice', store: memoryStore() });

    const { runId } = result;
    expect(runId).toEqual(expect.any(String));
    expect(scopes).toEqual([
      { agent: 'helper', runId, owner: 'alice', turn: 0, attempt: 1 },
      { agent: 'helper', runId, owner: 'alice', turn: 1, attempt: 1 },
    ]);
  });

  test('a retryable error a middleware throws is retried like a provider error', async () => {
    let failures = 1;
    const flaky: Middleware = {
      generate: (call, next) => {
        if (failures-- > 0)
          return Promise.reject(
            new ModelHTTPError({ status: 503, provider: 'mw', message: 'busy' }),
          );
        return next(call.request);
      },
    };
    const model = new FunctionModel(() => textResponse('ok'));
    const agent = new Agent({ model, middleware: [flaky], maxAttempts: 2, sleep: noSleep });

    const result = await agent.run('hi');

    expect(result.output).toBe('ok');
    expect(result.requests).toBe(2);
    expect(model.calls).toBe(1);
  });

  test('a middleware that throws fails the run at the model stage with its evidence', async () => {
    const model = new FunctionModel((request) =>
      request.messages.length === 1
        ? toolCallResponse([{ id: 'c1', name: 'echo', args: { text: 'x' } }])
        : textResponse('never'),
    );
    let calls = 0;
    const broken: Middleware = {
      generate: (call, next) => {
        if (calls++ === 1) throw new TypeError('middleware bug');
        return next(call.request);
      },
    };
    const agent = new Agent({ model, tools: [echo], middleware: [broken] });

    const error = await rejection(agent.run('hi'));

    expect(RunError.is(error)).toBe(true);
    const run = error as RunError;
    expect(run.stage).toBe('model');
    expect(run.cause).toBeInstanceOf(TypeError);
    // The first turn and its tool result survive.
    expect(run.partial?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  test('a UsageLimitError from a middleware fails at the usage stage and is never retried', async () => {
    let checks = 0;
    const cap: Middleware = {
      generate: () => {
        checks++;
        return Promise.reject(new UsageLimitError('budget', 1, 1.5, 'USD', 'spend cap reached'));
      },
    };
    const model = new FunctionModel(() => textResponse('never'));
    const agent = new Agent({ model, middleware: [cap], maxAttempts: 3, sleep: noSleep });

    const error = await rejection(agent.run('hi'));

    expect(RunError.is(error) && error.stage).toBe('usage');
    expect(UsageLimitError.is((error as RunError).cause)).toBe(true);
    expect(((error as RunError).cause as UsageLimitError).limitKind).toBe('budget');
    expect(((error as RunError).cause as Error).message).toBe('spend cap reached');
    expect(checks).toBe(1);
    expect(model.calls).toBe(0);
  });

  test('a budget refusal after a retried failure is not wrapped as exhausted attempts', async () => {
    let calls = 0;
    const mw: Middleware = {
      generate: () =>
        Promise.reject(
          calls++ === 0
            ? new ModelHTTPError({ status: 503, provider: 'p', message: 'busy' })
            : new UsageLimitError('budget', 1, 1),
        ),
    };
    const agent = new Agent({
      model: new FunctionModel(() => textResponse('x')),
      middleware: [mw],
      maxAttempts: 3,
      sleep: noSleep,
    });

    const error = await rejection(agent.run('hi'));

    expect(RunError.is(error) && error.stage).toBe('usage');
    expect(UsageLimitError.is((error as RunError).cause)).toBe(true);
  });
});

describe('streamed calls', () => {
  const streaming = (): StreamFunctionModel =>
    new StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'he' });
      await emit({ content: 'llo' });
      return textResponse('hello');
    });

  test('a stream hook sees and changes fragments', async () => {
    const shout: Middleware = {
      stream: (call, next) =>
        next(call.request, (delta: Delta) =>
          call.onDelta(
            delta.content === undefined
              ? delta
              : { ...delta, content: delta.content.toUpperCase() },
          ),
        ),
    };
    const agent = new Agent({ model: streaming(), middleware: [shout] });
    const seen: string[] = [];

    const stream = agent.runStream('hi');
    for await (const delta of stream) if (delta.content !== undefined) seen.push(delta.content);
    const result = await stream.result;

    expect(seen).toEqual(['HE', 'LLO']);
    expect(result.output).toBe('hello');
  });

  test('a generate-only middleware wraps streamed calls; fragments pass straight through', async () => {
    const log: string[] = [];
    const agent = new Agent({ model: streaming(), middleware: [tracer('g', log)] });
    const seen: string[] = [];

    const stream = agent.runStream('hi');
    for await (const delta of stream) if (delta.content !== undefined) seen.push(delta.content);
    await stream.result;

    expect(seen).toEqual(['he', 'llo']);
    expect(log).toEqual(['g>', '<g']);
  });

  test('wrapping keeps a non-streaming model non-streaming', () => {
    const plain = wrapModel(new FunctionModel(() => textResponse('x')), [tracer('t', [])]);
    const streamer = wrapModel(streaming(), [tracer('t', [])]);

    expect('stream' in plain).toBe(false);
    expect(typeof (streamer as { stream?: unknown }).stream).toBe('function');
    expect(streamer.name).toBe('function');
  });
});

describe('tool middleware', () => {
  const calling = (): FunctionModel =>
    new FunctionModel((request) =>
      request.messages.length === 1
        ? toolCallResponse([{ id: 'c1', name: 'echo', args: { text: 'x' } }])
        : textResponse(String(request.messages.at(-1)?.content)),
    );

  test('sees the arguments and the result, and may change both', async () => {
    const seen: unknown[] = [];
    const mw: Middleware = {
      tool: async (call, next) => {
        seen.push([call.tool, call.args, call.scope]);
        const text = await next({ text: 'changed' });
        return `${text}!`;
      },
    };
    const agent = new Agent({ model: calling(), tools: [echo], middleware: [mw] });

    const result = await agent.run('hi', { owner: 'bob', store: memoryStore() });

    const scope = { agent: 'agent', runId: result.runId, owner: 'bob' };
    expect(seen).toEqual([['echo', { text: 'x' }, scope]]);
    expect(result.output).toBe('echo:changed!');
  });

  test('may answer without running the tool', async () => {
    const execute = jest.fn(() => 'real');
    const tool = defineTool({
      name: 'echo',
      description: 'd',
      schema: { type: 'object', properties: { text: { type: 'string' } } },
      execute,
    });
    const agent = new Agent({
      model: calling(),
      tools: [tool],
      middleware: [{ tool: () => Promise.resolve('short-circuit') }],
    });

    const result = await agent.run('hi');

    expect(result.output).toBe('short-circuit');
    expect(execute).not.toHaveBeenCalled();
  });

  test('sees tool errors, and a tool-only middleware leaves the model unwrapped', async () => {
    const errors: unknown[] = [];
    const failing = defineTool({
      name: 'echo',
      description: 'd',
      schema: { type: 'object', properties: {} },
      execute: () => {
        throw new Error('tool broke');
      },
    });
    const scopes: unknown[] = [];
    const model = new FunctionModel((request, options: GenerateOptions) => {
      scopes.push(options.scope);
      return request.messages.length === 1
        ? toolCallResponse([{ id: 'c1', name: 'echo', args: {} }])
        : textResponse('x');
    });
    const agent = new Agent({
      model,
      tools: [failing],
      middleware: [
        {
          tool: async (call, next) => {
            try {
              return await next(call.args);
            } catch (error) {
              errors.push(error);
              throw error;
            }
          },
        },
      ],
    });

    const error = await rejection(agent.run('hi'));

    expect(RunError.is(error) && error.stage).toBe('tool');
    expect((errors[0] as Error).message).toBe('tool broke');
    expect(scopes[0]).toBeUndefined();
  });
});

describe('wrapModel and FallbackModel', () => {
  test('a wrapped fallback member sees the scope of the run', async () => {
    const scopes: unknown[] = [];
    const primary = wrapModel(
      new FunctionModel(() => {
        throw new ModelHTTPError({ status: 503, provider: 'a', message: 'down' });
      }),
      [],
    );
    const backup = wrapModel(new FunctionModel(() => textResponse('backup')), [
      {
        generate: (call, next) => {
          scopes.push(call.options?.scope);
          return next(call.request);
        },
      },
    ]);
    const agent = new Agent({ model: new FallbackModel([primary, backup]) });

    const result = await agent.run('hi', { owner: 'carol', store: memoryStore() });

    expect(result.output).toBe('backup');
    const scope = { agent: 'agent', runId: result.runId, owner: 'carol', turn: 0, attempt: 1 };
    expect(scopes).toEqual([scope]);
  });

  test('a synchronous throw in a hook becomes a rejection', async () => {
    const model = wrapModel(new FunctionModel(() => textResponse('x')), [
      {
        request: () => {
          throw new Error('sync');
        },
      },
    ]);
    const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

    const promise = model.generate(request);

    await expect(promise).rejects.toThrow('sync');
  });

  test.each([
    ['not an array', {}, 'must be an array'],
    ['a non-object entry', [1], 'middleware`[0] must be an object'],
    ['an entry without hooks', [{ name: 'x' }], 'has no hook'],
    ['a hook that is not a function', [{ generate: 'no' }], '.generate must be a function'],
  ])('an agent refuses %s', (_label, middleware, message) => {
    const build = (): unknown =>
      new Agent({
        model: new FunctionModel(() => textResponse('x')),
        middleware: middleware as never,
      });

    expect(build).toThrow(ConfigError);
    expect(build).toThrow(message);
  });
});
