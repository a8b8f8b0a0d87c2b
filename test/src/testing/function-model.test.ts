import { CancelledError, isStreamingModel, type Delta, type ModelRequest } from 'golem';
import { emit, FunctionModel, StreamFunctionModel, textResponse } from 'golem/testing';

function request(prompt = 'hi'): ModelRequest {
  return { messages: [{ role: 'user', content: prompt }], tools: [] };
}

describe('FunctionModel', () => {
  test('is deliberately not a streaming model', () => {
    const model = new FunctionModel(() => textResponse('x'));
    expect(isStreamingModel(model)).toBe(false);
    expect('stream' in model).toBe(false);
    expect(model.name).toBe('function');
  });

  test('computes each turn from a copy of the request and the call options', async () => {
    const controller = new AbortController();
    const seen: Array<{ req: ModelRequest; signal: AbortSignal | undefined }> = [];
    const model = new FunctionModel(
      (req, options) => {
        seen.push({ req, signal: options.signal });
        return textResponse(`turn ${seen.length}: ${req.messages.at(-1)?.content ?? ''}`);
      },
      { name: 'fn' },
    );
    const sent = request('ping');

    const first = await model.generate(sent, { signal: controller.signal });
    const second = await model.generate(request('pong'));

    expect([first.message.content, second.message.content]).toEqual([
      'turn 1: ping',
      'turn 2: pong',
    ]);
    expect(seen[0]?.req).toEqual(sent);
    expect(seen[0]?.req).not.toBe(sent);
    expect(seen[0]?.signal).toBe(controller.signal);
    expect(model.calls).toBe(2);
    expect(model.requests.map((r) => r.messages[0]?.content)).toEqual(['ping', 'pong']);
    expect(model.name).toBe('fn');
  });

  test('records snapshots and returns response copies', async () => {
    const shared = textResponse('constant');
    const model = new FunctionModel(() => shared);
    const sent = request('original');

    const response = await model.generate(sent);
    response.message.content = 'mutated';
    sent.messages[0]!.content = 'mutated';

    expect(shared.message.content).toBe('constant');
    expect(model.lastRequest?.messages[0]?.content).toBe('original');
  });

  test('a thrown error rejects the call as-is', async () => {
    const failure = new Error('model down');
    const model = new FunctionModel(() => {
      throw failure;
    });
    await expect(model.generate(request())).rejects.toBe(failure);
  });

  test('an aborted signal rejects before the function runs', async () => {
    const fn = jest.fn(() => textResponse('x'));
    const model = new FunctionModel(fn);
    await expect(model.generate(request(), { signal: AbortSignal.abort() })).rejects.toThrow(
      CancelledError,
    );
    expect(fn).not.toHaveBeenCalled();
    expect(model.calls).toBe(0);
  });
});

describe('StreamFunctionModel', () => {
  test('stream forwards emitted fragments in order, awaiting the handler', async () => {
    const trace: string[] = [];
    const model = new StreamFunctionModel(async (_req, send) => {
      trace.push('emit 1');
      await send({ content: 'Hel' });
      trace.push('emit 2');
      await send({ content: 'lo' });
      return textResponse('Hello');
    });

    const response = await model.stream(request(), async (d) => {
      trace.push(`got ${d.content ?? ''}`);
      await Promise.resolve();
      trace.push(`done ${d.content ?? ''}`);
    });

    expect(response.message.content).toBe('Hello');
    expect(trace).toEqual(['emit 1', 'got Hel', 'done Hel', 'emit 2', 'got lo', 'done lo']);
    expect(isStreamingModel(model)).toBe(true);
  });

  test('a handler error reaches the function through emit and propagates as-is', async () => {
    const failure = new Error('consumer gone');
    let afterEmit = false;
    const model = new StreamFunctionModel(async (_req, send) => {
      await send({ content: 'x' });
      afterEmit = true;
      return textResponse('x');
    });

    await expect(
      model.stream(request(), () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(afterEmit).toBe(false);
  });

  test('generate calls the function with an emit that discards', async () => {
    const emitted: Delta[] = [];
    const model = new StreamFunctionModel(async (req, send) => {
      const delta = { content: 'part' };
      emitted.push(delta);
      await send(delta);
      return textResponse(`done ${req.messages[0]?.content ?? ''}`);
    });

    const response = await model.generate(request('q'));

    expect(response.message.content).toBe('done q');
    expect(emitted).toHaveLength(1);
    expect(model.calls).toBe(1);
    expect(model.requests[0]?.messages[0]?.content).toBe('q');
  });

  test('an undefined handler discards fragments', async () => {
    const model = new StreamFunctionModel(async (_req, send) => {
      await send({ content: 'dropped' });
      return textResponse('ok');
    });
    const response = await model.stream(request(), undefined);
    expect(response.message.content).toBe('ok');
  });

  test('an aborted signal rejects before the function runs', async () => {
    const fn = jest.fn(() => textResponse('x'));
    const model = new StreamFunctionModel(fn);
    await expect(
      model.stream(request(), () => undefined, { signal: AbortSignal.abort() }),
    ).rejects.toThrow(CancelledError);
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('emit', () => {
  test('tolerates an undefined or null handler', async () => {
    await expect(emit(undefined, { content: 'x' })).resolves.toBeUndefined();
    await expect(emit(null, { content: 'x' })).resolves.toBeUndefined();
  });

  test('awaits the handler and propagates its error unchanged', async () => {
    const seen: Delta[] = [];
    await emit(
      async (d) => {
        await Promise.resolve();
        seen.push(d);
      },
      { content: 'y' },
    );
    expect(seen).toEqual([{ content: 'y' }]);

    const failure = new Error('nope');
    await expect(
      emit(() => {
        throw failure;
      }, {}),
    ).rejects.toBe(failure);
  });
});
