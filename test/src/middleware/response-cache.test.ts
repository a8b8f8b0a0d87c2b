import {
  Agent,
  ConfigError,
  defineTool,
  isCancellation,
  type Delta,
  type ModelResponse,
  type RunEvent,
} from 'golem';
import {
  FunctionModel,
  ScriptedModel,
  StreamFunctionModel,
  textResponse,
  toolCallResponse,
} from 'golem/testing';
import {
  memoryCacheStore,
  responseCache,
  responseCacheKey,
  wrapModel,
  type ResponseCacheStore,
} from 'golem/middleware';

/** A memory store that also shows what it holds. */
function visibleStore(now?: () => number): ResponseCacheStore & { keys: () => string[] } {
  const inner = memoryCacheStore(now === undefined ? {} : { now });
  const keys = new Set<string>();
  return {
    get: (key) => inner.get(key),
    set: async (key, value, ttl) => {
      keys.add(key);
      await inner.set(key, value, ttl);
    },
    delete: (key) => inner.delete(key),
    keys: () => [...keys],
  };
}

function counting(text = 'hello', usage = { inputTokens: 10, outputTokens: 5 }): FunctionModel {
  return new FunctionModel(() => textResponse(text, usage));
}

describe('responseCache: hits and misses', () => {
  test('the second identical run is answered from the cache: no model call, no tokens, counted', async () => {
    const model = counting();
    const events: RunEvent[] = [];
    const agent = new Agent({
      model,
      middleware: [responseCache()],
      onEvent: (e) => {
        events.push(e);
      },
    });
    const first = await agent.run('hi');
    const second = await agent.run('hi');
    expect(model.calls).toBe(1);
    expect(first.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
    expect(second.output).toBe('hello');
    expect(second.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 1 });
    const ends = events.filter((e) => e.kind === 'model_end');
    expect(ends.map((e) => e.usage)).toEqual([
      { inputTokens: 10, outputTokens: 5 },
      { inputTokens: 0, outputTokens: 0, cachedResponses: 1 },
    ]);
  });

  test('what changes the key: messages, tools, settings and the model name; settings.cache and cache points do not', async () => {
    const store = visibleStore();
    const model = counting();
    const run = (agent: Agent, prompt = 'hi') => agent.run(prompt);
    const base = new Agent({ model, middleware: [responseCache({ store })] });
    await run(base);
    expect(model.calls).toBe(1);
    await run(base, 'hello?');
    expect(model.calls).toBe(2);
    const tool = defineTool({
      name: 'noop',
      description: 'Does nothing.',
      schema: { type: 'object', properties: {} },
      execute: () => 'ok',
    });
    await run(new Agent({ model, tools: [tool], middleware: [responseCache({ store })] }));
    expect(model.calls).toBe(3);
    await run(
      new Agent({
        model,
        modelSettings: { temperature: 0 },
        middleware: [responseCache({ store })],
      }),
    );
    expect(model.calls).toBe(4);
    const renamed = new FunctionModel(() => textResponse('hello'), { name: 'other' });
    await run(new Agent({ model: renamed, middleware: [responseCache({ store })] }));
    expect(renamed.calls).toBe(1);
    // Prompt-cache hints only: the same answer.
    const hinted = new Agent({
      model,
      modelSettings: { cache: { ttl: '1h' } },
      middleware: [responseCache({ store })],
    });
    const hit = await run(hinted);
    expect(model.calls).toBe(4);
    expect(hit.usage.cachedResponses).toBe(1);
    const key = (cachePoint: boolean | undefined) =>
      responseCacheKey({
        model: 'm',
        request: {
          messages: [
            { role: 'user', content: 'x', ...(cachePoint !== undefined && { cachePoint }) },
          ],
          tools: [],
          settings: { temperature: 1, cache: cachePoint },
        },
      });
    expect(key(true)).toBe(key(undefined));
    expect(key(true)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('tool-call ids are renumbered, signatures and response ids left out; linkage still counts', () => {
    const key = (a: string, b: string, answers: string, signature?: string) =>
      responseCacheKey({
        model: 'm',
        request: {
          messages: [
            { role: 'user', content: 'go' },
            {
              role: 'assistant',
              responseId: `resp-${a}`,
              toolCalls: [
                { id: a, name: 't', args: '{}', ...(signature !== undefined && { signature }) },
                { id: b, name: 't', args: '{"n":1}' },
              ],
            },
            { role: 'tool', toolCallId: answers, toolName: 't', content: 'r' },
          ],
          tools: [],
        },
      });
    expect(key('call_1', 'call_2', 'call_1')).toBe(key('x', 'y', 'x', 'sig'));
    expect(key('call_1', 'call_2', 'call_1')).not.toBe(key('call_1', 'call_2', 'call_2'));
  });

  test('namespace separates entries; a custom key returning undefined skips the cache', async () => {
    const store = visibleStore();
    const model = counting();
    await new Agent({ model, middleware: [responseCache({ store, namespace: 'v1' })] }).run('hi');
    await new Agent({ model, middleware: [responseCache({ store, namespace: 'v2' })] }).run('hi');
    expect(model.calls).toBe(2);
    expect(store.keys().map((k) => k.split(':')[0])).toEqual(['v1', 'v2']);
    const skip = new Agent({ model, middleware: [responseCache({ store, key: () => undefined })] });
    await skip.run('hi');
    await skip.run('hi');
    expect(model.calls).toBe(4);
    const byOwner = wrapModel(model, [
      responseCache({
        store,
        key: (call) => `${call.options?.scope?.owner ?? '-'}:${responseCacheKey(call)}`,
      }),
    ]);
    const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
    const as = (owner: string) => ({ scope: { agent: 'a', owner, turn: 0, attempt: 1 } });
    await byOwner.generate(request, as('ada'));
    await byOwner.generate(request, as('bob'));
    await byOwner.generate(request, as('ada'));
    expect(model.calls).toBe(6);
  });

  test('ttl: an entry lives exactly ttl ms on the store clock', async () => {
    let clock = 1_000;
    const model = counting();
    const agent = new Agent({
      model,
      middleware: [responseCache({ store: memoryCacheStore({ now: () => clock }), ttl: 500 })],
    });
    await agent.run('hi');
    clock += 499;
    await agent.run('hi');
    expect(model.calls).toBe(1);
    clock += 1;
    await agent.run('hi');
    expect(model.calls).toBe(2);
  });
});

describe('responseCache: streams', () => {
  const streamed: Delta[] = [
    { thinking: [{ index: 0, text: 'Hmm' }] },
    { content: 'Hel' },
    { content: 'lo' },
  ];
  function streamingModel(): StreamFunctionModel {
    return new StreamFunctionModel(async (_request, emit) => {
      for (const delta of streamed) await emit(delta);
      return {
        message: { role: 'assistant', content: 'Hello', thinking: [{ text: 'Hmm' }] },
        usage: { inputTokens: 3, outputTokens: 2 },
        finishReason: 'stop',
      };
    });
  }
  async function drain(stream: AsyncIterable<Delta>): Promise<Delta[]> {
    const out: Delta[] = [];
    for await (const delta of stream) out.push(delta);
    return out;
  }

  test('a streamed miss records the fragments; a hit replays the same fragments in order', async () => {
    const model = streamingModel();
    const agent = new Agent({ model, middleware: [responseCache()] });
    const first = agent.runStream('hi');
    expect(await drain(first)).toEqual(streamed);
    const second = agent.runStream('hi');
    expect(await drain(second)).toEqual(streamed);
    const result = await second.result;
    expect(result.output).toBe('Hello');
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 1 });
    expect(model.calls).toBe(1);
    // A generated call answered by the streamed entry.
    expect((await agent.run('hi')).output).toBe('Hello');
    expect(model.calls).toBe(1);
  });

  test('an entry stored by a generated call replays its answer as fragments', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'noop', args: { a: 1 } }], undefined, 'Calling.'),
      textResponse('done'),
    ]);
    const noop = defineTool({
      name: 'noop',
      description: 'Does nothing.',
      schema: { type: 'object', properties: { a: { type: 'number' } } },
      execute: () => 'ok',
    });
    const store = visibleStore();
    await new Agent({ model, tools: [noop], middleware: [responseCache({ store })] }).run('hi');
    const agent = new Agent({ model, tools: [noop], middleware: [responseCache({ store })] });
    const stream = agent.runStream('hi');
    const deltas = await drain(stream);
    expect(deltas).toEqual([
      { content: 'Calling.' },
      { toolCalls: [{ index: 0, id: 'c1', name: 'noop', argsFragment: '{"a":1}' }] },
      { content: 'done' },
    ]);
    expect((await stream.result).usage.cachedResponses).toBe(2);
  });

  test('a replay stops between fragments when the signal aborts', async () => {
    const model = streamingModel();
    const wrapped = wrapModel(model, [responseCache()]);
    const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
    await wrapped.stream(request, () => undefined);
    const controller = new AbortController();
    const seen: Delta[] = [];
    const replay = wrapped.stream(
      request,
      (delta) => {
        seen.push(delta);
        controller.abort();
      },
      { signal: controller.signal },
    );
    expect(isCancellation(await replay.catch((error: unknown) => error))).toBe(true);
    expect(seen).toEqual([streamed[0]]);
  });
});

describe('responseCache: tool-calling runs', () => {
  test('a tool-calling run is cached whole; the tools still run, with the same call ids', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-7', name: 'add', args: { a: 2, b: 3 } }], {
        inputTokens: 20,
        outputTokens: 4,
      }),
      textResponse('5', { inputTokens: 30, outputTokens: 1 }),
    ]);
    const executed: unknown[] = [];
    const add = defineTool({
      name: 'add',
      description: 'Adds.',
      schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
      execute: (args) => {
        executed.push(args);
        return '5';
      },
    });
    const agent = new Agent({ model, tools: [add], middleware: [responseCache()] });
    const first = await agent.run('2+3?');
    const second = await agent.run('2+3?');
    expect(model.calls).toBe(2);
    expect(executed).toEqual([
      { a: 2, b: 3 },
      { a: 2, b: 3 },
    ]);
    expect(second.output).toBe('5');
    expect(second.messages).toEqual(first.messages);
    expect(second.messages[1]?.toolCalls?.[0]?.id).toBe('call-7');
    expect(second.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 2 });
  });

  test('a cached tool call whose id is already in the history is a miss', async () => {
    const store = visibleStore();
    const key = 'fixed';
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'dup', name: 'x' }]),
      textResponse('fresh'),
    ]);
    const wrapped = wrapModel(model, [responseCache({ store, key: () => key })]);
    await wrapped.generate({ messages: [{ role: 'user', content: 'a' }], tools: [] });
    const again = await wrapped.generate({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', toolCalls: [{ id: 'dup', name: 'x', args: '{}' }] },
        { role: 'tool', toolCallId: 'dup', content: 'r' },
      ],
      tools: [],
    });
    expect(again.message.content).toBe('fresh');
    expect(model.calls).toBe(2);
  });
});

describe('responseCache: untrusted entries and failing stores', () => {
  test('a corrupt or foreign entry is a miss, and is overwritten', async () => {
    for (const junk of [
      '{not json',
      '{"format":"other"}',
      JSON.stringify({
        format: 'golem.response-cache/1',
        response: { message: { role: 'assistant', toolCalls: [{ id: 1 }] } },
        usage: { inputTokens: 1, outputTokens: 1 },
        storedAt: 0,
      }),
      '[]',
      'null',
    ]) {
      const store = visibleStore();
      const model = counting();
      const agent = new Agent({ model, middleware: [responseCache({ store, key: () => 'k' })] });
      await store.set('k', junk, undefined);
      expect((await agent.run('hi')).output).toBe('hello');
      expect(model.calls).toBe(1);
      expect(await store.get('k')).not.toBe(junk);
      await agent.run('hi');
      expect(model.calls).toBe(1);
    }
  });

  test('a failing store is a miss: the run goes to the provider and onError hears of it', async () => {
    const boom = new Error('store down');
    const failing: ResponseCacheStore = {
      get: () => Promise.reject(boom),
      set: () => Promise.reject(boom),
      delete: () => Promise.reject(boom),
    };
    const seen: { error: unknown; operation: string }[] = [];
    const model = counting();
    const agent = new Agent({
      model,
      middleware: [
        responseCache({
          store: failing,
          onError: (error, context) => {
            seen.push({ error, operation: context.operation });
            throw new Error('observer failure is ignored');
          },
        }),
      ],
    });
    expect((await agent.run('hi')).output).toBe('hello');
    expect((await agent.run('hi')).usage).toEqual({ inputTokens: 10, outputTokens: 5 });
    expect(model.calls).toBe(2);
    expect(seen).toEqual([
      { error: boom, operation: 'get' },
      { error: boom, operation: 'set' },
      { error: boom, operation: 'get' },
      { error: boom, operation: 'set' },
    ]);
  });
});

describe('responseCache: what is stored', () => {
  const response = (finishReason: string, content = 'x'): ModelResponse => ({
    message: { role: 'assistant', ...(content !== '' && { content }) },
    usage: { inputTokens: 1, outputTokens: 1 },
    finishReason,
  });

  test.each([
    ['length', false],
    ['content_filter', false],
    ['refusal', false],
    ['error', false],
    ['malformed_function_call', false],
    ['stop', true],
    ['tool_calls', true],
  ])('finish reason %s: stored %s', async (reason, stored) => {
    const store = visibleStore();
    const model = new FunctionModel(() => response(reason));
    const wrapped = wrapModel(model, [responseCache({ store })]);
    await wrapped.generate({ messages: [{ role: 'user', content: 'a' }], tools: [] });
    expect(store.keys().length).toBe(stored ? 1 : 0);
  });

  test('an empty answer is never stored; shouldCache decides the rest', async () => {
    const store = visibleStore();
    const empty = wrapModel(new FunctionModel(() => response('stop', '')), [
      responseCache({ store, shouldCache: () => true }),
    ]);
    await empty.generate({ messages: [{ role: 'user', content: 'a' }], tools: [] });
    expect(store.keys()).toEqual([]);
    const asked: string[] = [];
    const picky = wrapModel(new FunctionModel(() => response('stop')), [
      responseCache({
        store,
        shouldCache: (request, answer) => {
          asked.push(`${request.messages[0]?.content}:${answer.message.content}`);
          return false;
        },
      }),
    ]);
    await picky.generate({ messages: [{ role: 'user', content: 'a' }], tools: [] });
    expect(asked).toEqual(['a:x']);
    expect(store.keys()).toEqual([]);
  });

  test('identical calls in flight at once share one provider call', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = new FunctionModel(async () => {
      await gate;
      return textResponse('once');
    });
    const wrapped = wrapModel(model, [responseCache()]);
    const request = { messages: [{ role: 'user' as const, content: 'a' }], tools: [] };
    const calls = [wrapped.generate(request), wrapped.generate(request)];
    release();
    const [a, b] = await Promise.all(calls);
    expect(model.calls).toBe(1);
    expect(a?.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(b?.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 1 });
    expect(b?.message.content).toBe('once');
  });

  test('memoryCacheStore evicts the least recently used entry', async () => {
    const store = memoryCacheStore({ maxEntries: 2 });
    await store.set('a', '1', undefined);
    await store.set('b', '2', undefined);
    expect(await store.get('a')).toBe('1');
    await store.set('c', '3', undefined);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBe('1');
    expect(await store.get('c')).toBe('3');
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
  });

  test('bad options are ConfigErrors of the middleware component', () => {
    for (const options of [
      { ttl: 0 },
      { ttl: Number.NaN },
      { namespace: '' },
      { store: {} },
      { key: 'k' },
    ])
      expect(() => responseCache(options as never)).toThrow(ConfigError);
    expect(() => memoryCacheStore({ maxEntries: 0 })).toThrow(/maxEntries/);
  });
});
