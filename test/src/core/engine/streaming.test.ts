import {
  Agent,
  ConfigError,
  ModelHTTPError,
  ModelRetry,
  RunError,
  defineTool,
  errorChain,
  type Delta,
  type RunEvent,
} from 'golem';
import {
  FunctionModel,
  ScriptedModel,
  StreamFunctionModel,
  textResponse,
  toolCallResponse,
} from 'golem/testing';
import { StreamAbandonedError } from '../../../support/internal-errors';
import { brief } from '../../../support/run-events';

const roll = defineTool({
  name: 'roll',
  schema: { type: 'object', properties: { sides: { type: 'integer' } } },
  execute: () => '4',
});

function diceScript() {
  return [
    toolCallResponse([{ id: 'call-1', name: 'roll', args: { sides: 6 } }], {
      inputTokens: 3,
      outputTokens: 1,
    }),
    textResponse('settled', { inputTokens: 5, outputTokens: 2 }),
  ];
}

async function collect(stream: AsyncIterable<Delta>): Promise<Delta[]> {
  const deltas: Delta[] = [];
  for await (const delta of stream) deltas.push(delta);
  return deltas;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

function latch(): { promise: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

describe('agent streaming runs (spec §18)', () => {
  test('ST-1 tool turn then text: deltas are the call fragment then "settled"', async () => {
    const agent = new Agent({ model: new ScriptedModel(diceScript()), tools: [roll] });

    const stream = agent.runStream('roll a die');
    const deltas = await collect(stream);
    await stream.result;

    expect(deltas).toEqual([
      { toolCalls: [{ index: 0, id: 'call-1', name: 'roll' }] },
      { content: 'settled' },
    ]);
  });

  test('ST-1 result, evidence, usage and counts equal those of the non-streaming run', async () => {
    const streamed = await new Agent({
      model: new ScriptedModel(diceScript()),
      tools: [roll],
    }).runStream('roll a die').result;
    const plain = await new Agent({ model: new ScriptedModel(diceScript()), tools: [roll] }).run(
      'roll a die',
    );

    expect(streamed).toEqual(plain);
    expect(streamed.output).toBe('settled');
    expect(streamed.usage).toEqual({ inputTokens: 8, outputTokens: 3 });
    expect(streamed.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(streamed.messages[2]).toEqual({
      role: 'tool',
      content: '4',
      toolCallId: 'call-1',
      toolName: 'roll',
    });
  });

  test('options.onDelta receives the same deltas, in the same order, as the iterator', async () => {
    const viaHandler: Delta[] = [];
    const agent = new Agent({ model: new ScriptedModel(diceScript()), tools: [roll] });

    const stream = agent.runStream('roll a die', { onDelta: (d) => void viaHandler.push(d) });
    const viaIterator = await collect(stream);
    await stream.result;

    expect(viaHandler).toEqual(viaIterator);
    expect(viaHandler).toHaveLength(2);
  });

  test('ST-2 output correction re-streams the corrected turn: contents ["almost", "exact"]', async () => {
    const agent = new Agent({
      model: new ScriptedModel([textResponse('almost'), textResponse('exact')]),
      outputRetries: 1,
      output: (response) => {
        if (response.message.content !== 'exact') throw new ModelRetry('say exact');
        return 'exact';
      },
    });

    const stream = agent.runStream('go');
    const deltas = await collect(stream);
    const result = await stream.result;

    expect(deltas.map((d) => d.content)).toEqual(['almost', 'exact']);
    expect(result.output).toBe('exact');
  });

  test('ST-3 tool rejection: the rejection is not streamed, the only content fragment is "settled", 3 model calls', async () => {
    let executions = 0;
    const picky = defineTool({
      name: 'roll',
      schema: { type: 'object' },
      maxRetries: 1,
      execute: (args) => {
        executions++;
        if ((args as { sides?: number }).sides !== 6) throw new ModelRetry('sides must be 6');
        return '4';
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'roll', args: { sides: 0 } }]),
      toolCallResponse([{ id: 'c2', name: 'roll', args: { sides: 6 } }]),
      textResponse('settled'),
    ]);
    const agent = new Agent({ model, tools: [picky] });

    const stream = agent.runStream('roll');
    const deltas = await collect(stream);
    const result = await stream.result;

    expect(deltas).toEqual([
      { toolCalls: [{ index: 0, id: 'c1', name: 'roll' }] },
      { toolCalls: [{ index: 0, id: 'c2', name: 'roll' }] },
      { content: 'settled' },
    ]);
    expect(model.calls).toBe(3);
    expect(executions).toBe(2);
    expect(result.messages[2]?.content).toBe(
      'Your tool call was rejected: sides must be 6. Correct the arguments and call the tool again.',
    );
  });

  test('ST-4 a model without `stream` rejects with ConfigError, not RunError, before anything runs', async () => {
    let processed = 0;
    const events: RunEvent[] = [];
    const model = new FunctionModel(() => textResponse('never'));
    const agent = new Agent({
      model,
      onEvent: (e) => events.push(e),
      historyProcessor: (h) => {
        processed++;
        return h;
      },
    });

    const stream = agent.runStream('hi');
    const error = await rejection(stream.result);

    expect(ConfigError.is(error)).toBe(true);
    expect(RunError.is(error)).toBe(false);
    expect((error as Error).message).toContain('does not support streaming');
    expect(await collect(stream)).toEqual([]);
    expect(model.calls).toBe(0);
    expect(processed).toBe(0);
    expect(events).toEqual([]);
  });

  test('ST-5 an onDelta handler throwing E fails the run at `model` with E as the cause, after 1 model call', async () => {
    const e = new Error('client went away');
    const model = new ScriptedModel(diceScript());
    const agent = new Agent({
      model,
      tools: [roll],
      maxAttempts: 3,
      sleep: () => Promise.resolve(),
    });

    const error = await rejection(
      agent.runStream('roll', {
        onDelta: () => {
          throw e;
        },
      }).result,
    );

    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).stage).toBe('model');
    expect((error as RunError).cause).toBe(e);
    expect([...errorChain(error)]).toContain(e);
    expect(model.calls).toBe(1);
  });

  test('ST-5 an async onDelta rejection is treated like a throw', async () => {
    const e = new Error('async failure');
    const model = new ScriptedModel([textResponse('hello')]);
    const agent = new Agent({ model });

    const error = await rejection(
      agent.runStream('hi', { onDelta: () => Promise.reject(e) }).result,
    );

    expect((error as RunError).stage).toBe('model');
    expect((error as RunError).cause).toBe(e);
  });

  test('an async onDelta is awaited before the model reads on (back-pressure and order)', async () => {
    const log: string[] = [];
    const gate = latch();
    const entered = latch();
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'a' });
      log.push('model continued');
      await emit({ content: 'b' });
      return textResponse('ab');
    });
    const agent = new Agent({ model });

    const stream = agent.runStream('go', {
      onDelta: async (d) => {
        log.push(`delta ${d.content ?? ''}`);
        if (d.content === 'a') {
          entered.release();
          await gate.promise;
        }
        log.push(`handled ${d.content ?? ''}`);
      },
    });
    await entered.promise;
    expect(log).toEqual(['delta a']);
    gate.release();
    const result = await stream.result;

    expect(log).toEqual(['delta a', 'handled a', 'model continued', 'delta b', 'handled b']);
    expect(result.output).toBe('ab');
  });

  test('ST-6 streamed turns are single-attempt: a retryable failure with maxAttempts 3 makes 1 call', async () => {
    const failure = new ModelHTTPError({ status: 503, provider: 'test' });
    const slept: number[] = [];
    const events: RunEvent[] = [];
    const model = new ScriptedModel([failure, textResponse('never reached')]);
    const agent = new Agent({
      model,
      maxAttempts: 3,
      onEvent: (e) => events.push(e),
      sleep: (ms) => {
        slept.push(ms);
        return Promise.resolve();
      },
    });

    const error = await rejection(agent.runStream('hi').result);

    expect((error as RunError).stage).toBe('model');
    expect([...errorChain(error)]).toContain(failure);
    expect(model.calls).toBe(1);
    expect(slept).toEqual([]);
    expect(events.map(brief)).toEqual(['model_start t0 a1', 'model_end t0 a1']);
    expect((error as RunError).partial).toBeUndefined();
  });

  test('ST-7 no onDelta and no iteration: success on the streaming path, events as EV-6', async () => {
    const events: RunEvent[] = [];
    const model = new ScriptedModel([
      textResponse('hi there', { inputTokens: 1, outputTokens: 1 }),
    ]);
    const streamSpy = jest.spyOn(model, 'stream');
    const generateSpy = jest.spyOn(model, 'generate');
    const agent = new Agent({ model });

    const result = await agent.runStream('hi', {
      onDelta: undefined,
      observer: (e) => events.push(e),
    }).result;

    expect(result.output).toBe('hi there');
    expect(streamSpy).toHaveBeenCalledTimes(1);
    expect(generateSpy).not.toHaveBeenCalled();
    expect(events).toEqual([
      expect.objectContaining({ kind: 'model_start', turn: 0, attempt: 1 }),
      expect.objectContaining({
        kind: 'model_end',
        turn: 0,
        attempt: 1,
        usage: { inputTokens: 1, outputTokens: 1 },
      }),
    ]);
  });

  test("a turn's model_start and model_end bracket that turn's deltas", async () => {
    const log: string[] = [];
    const agent = new Agent({ model: new ScriptedModel(diceScript()), tools: [roll] });

    await agent.runStream('roll', {
      observer: (e) => log.push(`${e.kind} t${'turn' in e ? e.turn : ''}`),
      onDelta: (d) =>
        void log.push(
          d.content !== undefined ? `content ${d.content}` : `call ${d.toolCalls?.[0]?.id ?? ''}`,
        ),
    }).result;

    expect(log).toEqual([
      'model_start t0',
      'call call-1',
      'model_end t0',
      'tool_start t0',
      'tool_end t0',
      'model_start t1',
      'content settled',
      'model_end t1',
    ]);
  });

  test('a consumer that breaks after the first delta ends the run with RunError `model` caused by StreamAbandonedError', async () => {
    const gate = latch();
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'one' });
      await gate.promise;
      await emit({ content: 'two' });
      return textResponse('onetwo');
    });
    const agent = new Agent({ model });

    const stream = agent.runStream('go');
    const seen: Delta[] = [];
    for await (const delta of stream) {
      seen.push(delta);
      break;
    }
    gate.release();
    const error = await rejection(stream.result);

    expect(seen).toEqual([{ content: 'one' }]);
    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).stage).toBe('model');
    expect([...errorChain(error)].some((e) => StreamAbandonedError.is(e))).toBe(true);
    expect(model.calls).toBe(1);
  });

  test('awaiting only `result` without iterating does not deadlock', async () => {
    const model = new StreamFunctionModel(async (_request, emit) => {
      for (const word of ['many', ' small', ' fragments']) await emit({ content: word });
      return textResponse('many small fragments');
    });
    const agent = new Agent({ model });

    const result = await agent.runStream('go').result;

    expect(result.output).toBe('many small fragments');
  });

  test('a consumer that starts iterating after the run settled still receives every delta', async () => {
    const agent = new Agent({ model: new ScriptedModel(diceScript()), tools: [roll] });

    const stream = agent.runStream('roll');
    await stream.result;

    expect(await collect(stream)).toEqual([
      { toolCalls: [{ index: 0, id: 'call-1', name: 'roll' }] },
      { content: 'settled' },
    ]);
  });

  test('a failed run ends iteration normally; the failure is reported by `result`', async () => {
    const failure = new Error('provider down');
    const agent = new Agent({ model: new ScriptedModel([failure]) });

    const stream = agent.runStream('hi');
    const deltas = await collect(stream);
    const error = await rejection(stream.result);

    expect(deltas).toEqual([]);
    expect((error as RunError).stage).toBe('model');
    expect((error as RunError).cause).toBe(failure);
  });

  test('budgets apply to streaming runs: maxIterations 1 with a tool turn fails at `loop`', async () => {
    const agent = new Agent({
      model: new ScriptedModel(diceScript()),
      tools: [roll],
      maxIterations: 1,
    });

    const error = await rejection(agent.runStream('roll').result);

    expect((error as RunError).stage).toBe('loop');
    expect((error as RunError).partial?.toolCalls).toBe(1);
  });
});
