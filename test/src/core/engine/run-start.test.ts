import {
  Agent,
  defineTool,
  RunError,
  RunInputError,
  type GenerateOptions,
  type Instructions,
  type Message,
  type RunContext,
  type Tool,
} from 'golem';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

interface Tenant {
  tenant: string;
}

const echo: Tool<Tenant> = defineTool<Tenant>({
  name: 'echo',
  description: 'Echoes its arguments',
  schema: { type: 'object' },
  execute: (_args, ctx) => `${ctx.deps.tenant} ${ctx.rawArgs}`,
});

/** The rejection of `promise` (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, the promise resolved');
}

/** The messages of the first request a run with `instructions` and prompt P sends. */
async function systemOf(instructions: Instructions<Tenant>): Promise<Message[]> {
  const scripted = new ScriptedModel([textResponse('ok')]);
  const agent = new Agent<Tenant>({ model: scripted, instructions });
  await agent.run('P', { deps: { tenant: 'acme' } });
  return scripted.requests[0]?.messages ?? [];
}

describe('run start (spec §4)', () => {
  test('RS-1 a one-tool run with instructions returns 5 evidence messages: system, user, assistant(call), tool, assistant(final)', async () => {
    const scripted = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'echo', args: '{"guess":4}' }], {
        inputTokens: 10,
        outputTokens: 2,
      }),
      textResponse('You guessed 4.', { inputTokens: 20, outputTokens: 4 }),
    ]);
    const agent = new Agent<Tenant>({
      model: scripted,
      instructions: 'Be concise.',
      tools: [echo],
    });
    const result = await agent.run('Guess.', { deps: { tenant: 'acme' } });
    expect(result.messages).toEqual([
      { role: 'system', content: 'Be concise.' },
      { role: 'user', content: 'Guess.' },
      { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'echo', args: '{"guess":4}' }] },
      { role: 'tool', content: 'acme {"guess":4}', toolCallId: 'call-1', toolName: 'echo' },
      { role: 'assistant', content: 'You guessed 4.' },
    ]);
    expect(result.output).toBe('You guessed 4.');
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 6 });
  });

  test('RS-2 the decoder and the instructions function both receive the caller deps value', async () => {
    const deps = { tenant: 'acme' };
    const seen: unknown[] = [];
    const agent = new Agent<Tenant, string>({
      model: new ScriptedModel([textResponse('answer')]),
      instructions: (ctx) => {
        seen.push(ctx.deps);
        return `Tenant ${ctx.deps.tenant}.`;
      },
      output: (response, ctx) => {
        seen.push(ctx.deps);
        return `${(ctx.deps as Tenant).tenant}:${response.message.content ?? ''}`;
      },
    });
    const result = await agent.run('P', { deps });
    expect(result.output).toBe('acme:answer');
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(deps);
    expect(seen[1]).toBe(deps);
  });

  test('RS-2 the decoder and the instructions function both receive a signal that follows the caller signal', async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const agent = new Agent<Tenant, string>({
      model: new ScriptedModel([textResponse('answer')]),
      instructions: (ctx) => {
        signals.push(ctx.signal);
        return 'x';
      },
      output: (response, ctx) => {
        signals.push(ctx.signal);
        return response.message.content ?? '';
      },
    });
    await agent.run('P', { deps: { tenant: 'acme' }, signal: controller.signal });
    expect(signals).toHaveLength(2);
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
    controller.abort(new Error('caller stop'));
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
  });

  test('RS-3 the history processor is invoked once on a plain run, with an empty history', async () => {
    const processor = jest.fn((history: Message[]) => history);
    const scripted = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model: scripted, historyProcessor: processor });
    await agent.run('P');
    expect(processor).toHaveBeenCalledTimes(1);
    expect(processor.mock.calls[0]?.[0]).toEqual([]);
    expect(scripted.requests[0]?.messages).toEqual([{ role: 'user', content: 'P' }]);
  });

  test('AG-7 the first request of a run with instructions "Be concise." is exactly [system "Be concise.", user P]', async () => {
    const scripted = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model: scripted, instructions: 'Be concise.' });
    await agent.run('What is 2+2?');
    expect(scripted.requests).toEqual([
      {
        messages: [
          { role: 'system', content: 'Be concise.' },
          { role: 'user', content: 'What is 2+2?' },
        ],
        tools: [],
      },
    ]);
  });

  test('AG-7 the caller signal reaches the model call', async () => {
    const controller = new AbortController();
    const received: (AbortSignal | undefined)[] = [];
    const model = new FunctionModel((_request, options: GenerateOptions) => {
      received.push(options.signal);
      return textResponse('ok');
    });
    const agent = new Agent({ model, instructions: 'Be concise.' });
    await agent.run('P', { signal: controller.signal });
    expect(received).toHaveLength(1);
    const signal = received[0];
    expect(signal?.aborted).toBe(false);
    const reason = new Error('caller stop');
    controller.abort(reason);
    expect(signal?.aborted).toBe(true);
  });

  test('TD-4 an end-to-end run records a first request ending with the prompt and a second ending with the tool result', async () => {
    const scripted = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'echo', args: '{"guess":4}' }]),
      textResponse('done'),
    ]);
    const agent = new Agent<Tenant>({ model: scripted, tools: [echo] });
    await agent.run('Roll.', { deps: { tenant: 'acme' } });
    const [first, second] = scripted.requests;
    expect(scripted.requests).toHaveLength(2);
    expect(first?.messages.at(-1)).toEqual({ role: 'user', content: 'Roll.' });
    expect(second?.messages.at(-1)).toEqual({
      role: 'tool',
      content: 'acme {"guess":4}',
      toolCallId: 'call-1',
      toolName: 'echo',
    });
    expect(first?.tools).toEqual([
      { name: 'echo', description: 'Echoes its arguments', schema: { type: 'object' } },
    ]);
  });
});

describe('instructions (spec §4.1 step 6, §17.1)', () => {
  test('static instructions become the leading system message', async () => {
    expect(await systemOf('Be concise.')).toEqual([
      { role: 'system', content: 'Be concise.' },
      { role: 'user', content: 'P' },
    ]);
  });

  test('a function alone contributes its text alone', async () => {
    expect(await systemOf((ctx: RunContext<Tenant>) => `Tenant ${ctx.deps.tenant}.`)).toEqual([
      { role: 'system', content: 'Tenant acme.' },
      { role: 'user', content: 'P' },
    ]);
  });

  test('an array of static text and functions is resolved in order and joined by a blank line', async () => {
    const messages = await systemOf([
      'Be concise.',
      async (ctx: RunContext<Tenant>) => Promise.resolve(`Tenant ${ctx.deps.tenant}.`),
      'Answer in English.',
    ]);
    expect(messages[0]).toEqual({
      role: 'system',
      content: 'Be concise.\n\nTenant acme.\n\nAnswer in English.',
    });
  });

  test('empty pieces (static or function results) contribute nothing to the join', async () => {
    const messages = await systemOf(['', 'A', () => '', 'B', () => '']);
    expect(messages[0]).toEqual({ role: 'system', content: 'A\n\nB' });
  });

  test('instructions that resolve to nothing add no system message', async () => {
    expect(await systemOf(['', () => ''])).toEqual([{ role: 'user', content: 'P' }]);
  });

  test('an instructions function receives the run deps and the run signal', async () => {
    const deps = { tenant: 'acme' };
    const controller = new AbortController();
    const calls: RunContext<Tenant>[] = [];
    const agent = new Agent<Tenant>({
      model: new ScriptedModel([textResponse('ok')]),
      instructions: (ctx) => {
        calls.push(ctx);
        return 'x';
      },
    });
    await agent.run('P', { deps, signal: controller.signal });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.deps).toBe(deps);
    expect(calls[0]?.signal.aborted).toBe(false);
    controller.abort();
    expect(calls[0]?.signal.aborted).toBe(true);
  });

  test('instructions are resolved once per run, not per model turn', async () => {
    const fn = jest.fn(() => 'Be concise.');
    const scripted = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'echo', args: '{}' }]),
      textResponse('done'),
    ]);
    const agent = new Agent<Tenant>({ model: scripted, instructions: fn, tools: [echo] });
    await agent.run('P', { deps: { tenant: 'acme' } });
    expect(scripted.calls).toBe(2);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(scripted.requests.map((r) => r.messages[0])).toEqual([
      { role: 'system', content: 'Be concise.' },
      { role: 'system', content: 'Be concise.' },
    ]);
  });

  test('an instructions function that throws rejects the run with RunInputError (cause kept) and the model is never called', async () => {
    const boom = new Error('tenant lookup failed');
    const scripted = new ScriptedModel([textResponse('never')]);
    const agent = new Agent<Tenant>({
      model: scripted,
      instructions: [
        'Static.',
        () => {
          throw boom;
        },
      ],
    });
    const error = await rejection(agent.run('P', { deps: { tenant: 'acme' } }));
    expect(RunInputError.is(error)).toBe(true);
    expect(RunError.is(error)).toBe(false);
    expect((error as Error).message).toContain('tenant lookup failed');
    expect((error as Error).cause).toBe(boom);
    expect(scripted.calls).toBe(0);
  });

  test('an instructions function that rejects asynchronously is also a RunInputError before any model call', async () => {
    const scripted = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({
      model: scripted,
      instructions: async () => Promise.reject(new Error('async failure')),
    });
    const error = await rejection(agent.run('P'));
    expect(RunInputError.is(error)).toBe(true);
    expect(scripted.calls).toBe(0);
  });
});

describe('run input validation (spec §4.1)', () => {
  test.each<[string, unknown]>([
    ['a number', 42],
    ['undefined', undefined],
    ['null', null],
    ['an object', { content: 'hi' }],
  ])(
    'a prompt that is %s rejects with RunInputError and the model is never called',
    async (_label, prompt) => {
      const scripted = new ScriptedModel([textResponse('never')]);
      const agent = new Agent({ model: scripted });
      const error = await rejection(agent.run(prompt as string));
      expect(RunInputError.is(error)).toBe(true);
      expect(RunError.is(error)).toBe(false);
      expect((error as Error).message).toContain('prompt');
      expect(scripted.calls).toBe(0);
    },
  );
});
