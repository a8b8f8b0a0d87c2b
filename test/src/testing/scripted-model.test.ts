import {
  CancelledError,
  DeadlineExceededError,
  isStreamingModel,
  type Delta,
  type ModelRequest,
  type ModelResponse,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

function request(prompt = 'hi'): ModelRequest {
  return { messages: [{ role: 'user', content: prompt }], tools: [] };
}

/** A request touching every recorded field: parts with bytes, calls, thinking, specs, schema, settings. */
function richRequest(): ModelRequest {
  return {
    messages: [
      { role: 'system', content: 'be brief' },
      {
        role: 'user',
        content: 'describe',
        parts: [{ kind: 'image', data: new Uint8Array([1, 2, 3]), mediaType: 'image/png' }],
      },
      {
        role: 'assistant',
        toolCalls: [{ id: 'c1', name: 'look', args: '{"x":1}', signature: 'call-sig' }],
        thinking: [{ text: 'hmm', signature: 'sig' }, { redacted: 'opaque' }],
      },
      { role: 'tool', content: 'seen', toolCallId: 'c1', toolName: 'look' },
    ],
    tools: [
      {
        name: 'look',
        description: 'Look at things',
        schema: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] },
      },
    ],
    outputSchema: { type: 'object', properties: { answer: { type: 'string' } } },
    settings: {
      temperature: 0,
      stop: ['END'],
      thinking: { mode: 'enabled', budgetTokens: 100 },
      extraBody: { a: { b: [1] } },
    },
  };
}

describe('ScriptedModel', () => {
  test('TD-1 queue order incl. a failure in the middle', async () => {
    const failure = new Error('boom');
    const model = new ScriptedModel([textResponse('one'), failure, textResponse('three')]);

    expect((await model.generate(request())).message.content).toBe('one');
    await expect(model.generate(request())).rejects.toBe(failure);
    expect((await model.generate(request())).message.content).toBe('three');
    expect(model.calls).toBe(3);
    expect(model.remaining).toBe(0);
  });

  test('an exhausted queue fails with "no queued outcome" instead of blocking', async () => {
    const model = new ScriptedModel([textResponse('only')]);
    await model.generate(request());

    await expect(model.generate(request())).rejects.toThrow('no queued outcome');
    await expect(new ScriptedModel().stream(request(), () => undefined)).rejects.toThrow(
      'no queued outcome',
    );
    expect(model.calls).toBe(2);
  });

  test('push enqueues after the outcomes still queued and chains', async () => {
    const model = new ScriptedModel([textResponse('a')]).push(textResponse('b'), textResponse('c'));
    const contents: Array<string | undefined> = [];
    for (let i = 0; i < 3; i++) contents.push((await model.generate(request())).message.content);

    expect(contents).toEqual(['a', 'b', 'c']);
  });

  test('push rejects a value that is not an outcome', () => {
    const model = new ScriptedModel();
    expect(() => model.push('text' as unknown as ModelResponse)).toThrow(TypeError);
    expect(model.remaining).toBe(0);
  });

  test('a function outcome computes the response from a copy of the request', async () => {
    const seen: ModelRequest[] = [];
    const original = request('ping');
    const model = new ScriptedModel([
      (req) => {
        seen.push(req);
        req.messages.push({ role: 'user', content: 'injected' });
        return textResponse(`echo ${req.messages[0]?.content ?? ''}`);
      },
    ]);

    const response = await model.generate(original);

    expect(response.message.content).toBe('echo ping');
    expect(seen[0]).not.toBe(original);
    expect(original.messages).toHaveLength(1);
    expect(model.requests[0]?.messages).toHaveLength(1);
  });

  test('a throwing function outcome fails that call only', async () => {
    const failure = new Error('computed failure');
    const model = new ScriptedModel([
      () => {
        throw failure;
      },
      async () => textResponse('after'),
    ]);

    await expect(model.generate(request())).rejects.toBe(failure);
    expect((await model.generate(request())).message.content).toBe('after');
  });

  test('TD-2 recording is a snapshot', async () => {
    const sent = richRequest();
    const model = new ScriptedModel([textResponse('ok')]);
    await model.generate(sent);

    // The engine (or anyone) mutates what it sent…
    const bytes = sent.messages[1]?.parts?.[0]?.data;
    if (bytes) bytes[0] = 99;
    sent.messages.push({ role: 'user', content: 'later' });
    const call = sent.messages[2]?.toolCalls?.[0];
    if (call) call.args = '{"x":2}';
    const block = sent.messages[2]?.thinking?.[0];
    if (block) block.text = 'changed';
    (sent.tools[0]?.schema.properties as Record<string, unknown>).y = { type: 'string' };
    sent.settings?.stop?.push('STOP');
    (sent.outputSchema as Record<string, unknown>).required = ['answer'];

    // …and the test mutates the copy it read.
    const copy = model.requests[0];
    copy?.messages.pop();
    const copiedBytes = copy?.messages[1]?.parts?.[0]?.data;
    if (copiedBytes) copiedBytes[1] = 42;

    const recorded = model.requests[0];
    expect(recorded).toEqual(richRequest());
    expect(recorded?.messages[1]?.parts?.[0]?.data).toEqual(new Uint8Array([1, 2, 3]));
    expect(recorded?.messages[1]?.parts?.[0]?.data).not.toBe(bytes);
    expect(model.lastRequest).toEqual(richRequest());
  });

  test('the returned response is a copy the engine may mutate', async () => {
    const scripted = toolCallResponse(
      [{ id: 'c1', name: 'roll', args: { sides: 6 } }],
      { inputTokens: 3 },
      'rolling',
    );
    const model = new ScriptedModel([scripted]);

    const response = await model.generate(request());
    expect(response).toEqual(scripted);
    response.message.content = 'mutated';
    const call = response.message.toolCalls?.[0];
    if (call) call.args = '{}';
    response.usage.inputTokens = 1000;

    expect(scripted.message.content).toBe('rolling');
    expect(scripted.message.toolCalls?.[0]?.args).toBe('{"sides":6}');
    expect(scripted.usage).toEqual({ inputTokens: 3, outputTokens: 0 });
  });

  test('TD-3 stream replay indexes 0,1 for two calls', async () => {
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'call-1', name: 'roll' },
        { id: 'call-2', name: 'flip', args: '{"coin":true}' },
      ]),
    ]);
    const deltas: Delta[] = [];

    const response = await model.stream(request(), (d) => {
      deltas.push(d);
    });

    expect(deltas).toEqual([
      { toolCalls: [{ index: 0, id: 'call-1', name: 'roll' }] },
      { toolCalls: [{ index: 1, id: 'call-2', name: 'flip' }] },
    ]);
    expect(response.message.toolCalls?.map((c) => c.args)).toEqual(['{}', '{"coin":true}']);
  });

  test('stream replays thinking first, then content, then tool calls', async () => {
    const scripted: ModelResponse = {
      message: {
        role: 'assistant',
        content: 'let me check',
        thinking: [{ text: 'plan' }, { text: 'more', signature: 'sig-2' }],
        toolCalls: [{ id: 'c1', name: 'look', args: '{}' }],
      },
      usage: { inputTokens: 1, outputTokens: 2 },
    };
    const deltas: Delta[] = [];

    const response = await new ScriptedModel([scripted]).stream(request(), (d) => {
      deltas.push(d);
    });

    expect(deltas).toEqual([
      { thinking: [{ index: 0, text: 'plan' }] },
      { thinking: [{ index: 1, text: 'more', signature: 'sig-2' }] },
      { content: 'let me check' },
      { toolCalls: [{ index: 0, id: 'c1', name: 'look' }] },
    ]);
    expect(response).toEqual(scripted);
  });

  test('stream sends no content fragment for empty content', async () => {
    const deltas: Delta[] = [];
    await new ScriptedModel([textResponse('')]).stream(request(), (d) => {
      deltas.push(d);
    });
    expect(deltas).toEqual([]);
  });

  test('stream awaits an async handler before the next fragment', async () => {
    const trace: string[] = [];
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'a', name: 'x' }], undefined, 'text'),
    ]);

    await model.stream(request(), async (d) => {
      const label = d.content !== undefined ? 'content' : 'call';
      trace.push(`start ${label}`);
      await Promise.resolve();
      await Promise.resolve();
      trace.push(`end ${label}`);
    });

    expect(trace).toEqual(['start content', 'end content', 'start call', 'end call']);
  });

  test('a handler error stops the replay and is rethrown as-is', async () => {
    const failure = new Error('handler broke');
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'a', name: 'x' },
        { id: 'b', name: 'y' },
      ]),
    ]);
    const deltas: Delta[] = [];

    await expect(
      model.stream(request(), (d) => {
        deltas.push(d);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(deltas).toHaveLength(1);
  });

  test('an undefined or null handler discards fragments', async () => {
    const model = new ScriptedModel([textResponse('one'), textResponse('two')]);

    expect((await model.stream(request(), undefined)).message.content).toBe('one');
    expect((await model.stream(request(), null)).message.content).toBe('two');
  });

  test('an aborted signal rejects with CancelledError carrying the reason, consuming nothing', async () => {
    const controller = new AbortController();
    const reason = new Error('user stop');
    controller.abort(reason);
    const model = new ScriptedModel([textResponse('unused')]);

    const failure: unknown = await model
      .generate(request(), { signal: controller.signal })
      .catch((e: unknown) => e);

    expect(CancelledError.is(failure)).toBe(true);
    expect((failure as Error).cause).toBe(reason);
    expect(model.calls).toBe(0);
    expect(model.remaining).toBe(1);
    await expect(
      model.stream(request(), () => undefined, { signal: controller.signal }),
    ).rejects.toThrow(CancelledError);
  });

  test('a timeout reason becomes DeadlineExceededError', async () => {
    const signal = AbortSignal.abort(new DOMException('timed out', 'TimeoutError'));
    const failure: unknown = await new ScriptedModel([textResponse('x')])
      .generate(request(), { signal })
      .catch((e: unknown) => e);
    expect(DeadlineExceededError.is(failure)).toBe(true);
  });

  test('aborting while fragments replay stops the stream with a cancellation', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'a', name: 'x' },
        { id: 'b', name: 'y' },
      ]),
    ]);
    const deltas: Delta[] = [];

    const failure: unknown = await model
      .stream(
        request(),
        (d) => {
          deltas.push(d);
          controller.abort();
        },
        { signal: controller.signal },
      )
      .catch((e: unknown) => e);

    expect(CancelledError.is(failure)).toBe(true);
    expect(deltas).toHaveLength(1);
  });

  test('aborting while a function outcome runs rejects with a cancellation', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([
      () => {
        controller.abort();
        return textResponse('too late');
      },
    ]);
    await expect(model.generate(request(), { signal: controller.signal })).rejects.toThrow(
      CancelledError,
    );
  });

  test('a function outcome receives the call options', async () => {
    const controller = new AbortController();
    let received: AbortSignal | undefined;
    const model = new ScriptedModel([
      (_req, options) => {
        received = options.signal;
        return textResponse('ok');
      },
    ]);
    await model.generate(request(), { signal: controller.signal });
    expect(received).toBe(controller.signal);
  });

  test('is a streaming model named "scripted" unless told otherwise', () => {
    expect(isStreamingModel(new ScriptedModel())).toBe(true);
    expect(new ScriptedModel().name).toBe('scripted');
    expect(new ScriptedModel([], { name: 'fake:one' }).name).toBe('fake:one');
  });
});

describe('response helpers', () => {
  test('textResponse builds a stop turn with zero-filled usage', () => {
    expect(textResponse('hello', { outputTokens: 2 })).toEqual({
      message: { role: 'assistant', content: 'hello' },
      usage: { inputTokens: 0, outputTokens: 2 },
      finishReason: 'stop',
    });
    expect(textResponse('').message).toEqual({ role: 'assistant' });
  });

  test('toolCallResponse serialises object args, defaults to {} and keeps text and signatures', () => {
    expect(
      toolCallResponse(
        [
          { id: 'a', name: 'x', args: { n: 1 } },
          { id: 'b', name: 'y' },
          { id: 'c', name: 'z', args: '{"raw":', signature: 's' },
        ],
        { inputTokens: 5, outputTokens: 6 },
        'thinking aloud',
      ),
    ).toEqual({
      message: {
        role: 'assistant',
        content: 'thinking aloud',
        toolCalls: [
          { id: 'a', name: 'x', args: '{"n":1}' },
          { id: 'b', name: 'y', args: '{}' },
          { id: 'c', name: 'z', args: '{"raw":', signature: 's' },
        ],
      },
      usage: { inputTokens: 5, outputTokens: 6 },
      finishReason: 'tool_calls',
    });
  });
});
