import { Agent, RunError, defineTool, historyFromPartial } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { StreamInterruptedError } from '../../../support/internal-errors';

describe('ADV-3 text already streamed survives a failed stream', () => {
  test('a stream that fails after "Hel" keeps the text as partial.interrupted, outside the replayable messages', async () => {
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'Hel' });
      throw new StreamInterruptedError('test', 'connection reset');
    });
    const agent = new Agent({ model, instructions: 'Be brief.' });
    const stream = agent.runStream('greet');
    const seen: string[] = [];
    for await (const delta of stream) if (delta.content !== undefined) seen.push(delta.content);
    const error: unknown = await stream.result.catch((e: unknown) => e);

    expect(seen).toEqual(['Hel']);
    expect(RunError.is(error)).toBe(true);
    const partial = (error as RunError).partial;
    expect(partial?.interrupted).toEqual({ role: 'assistant', content: 'Hel' });
    expect(partial?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'greet' },
    ]);
    expect(historyFromPartial(partial!)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'greet' },
    ]);
  });

  test('a stream that fails before any text leaves partial absent, as before', async () => {
    const model = new StreamFunctionModel(() => {
      throw new StreamInterruptedError('test', 'refused');
    });
    const error: unknown = await new Agent({ model })
      .runStream('greet')
      .result.catch((e: unknown) => e);
    expect((error as RunError).partial).toBeUndefined();
  });

  test('a completed streamed turn carries no interrupted text', async () => {
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'hi' });
      return textResponse('hi');
    });
    const result = await new Agent({ model }).runStream('greet').result;
    expect(result.output).toBe('hi');
  });

  test('a later turn that fails keeps only its own text: the record starts over with each model call', async () => {
    let turn = 0;
    const model = new StreamFunctionModel(async (_request, emit) => {
      turn += 1;
      if (turn === 1) {
        await emit({ content: 'Rolling ' });
        await emit({ content: 'the die.' });
        return toolCallResponse([{ id: 'r1', name: 'roll', args: {} }]);
      }
      for (const piece of ['You ', 'rolled ', 'a ']) await emit({ content: piece });
      throw new StreamInterruptedError('test', 'connection reset');
    });
    const roll = defineTool({
      name: 'roll',
      description: 'Roll a die',
      schema: { type: 'object', properties: {} },
      execute: () => 4,
    });
    const stream = new Agent({ model, tools: [roll] }).runStream('roll');
    const error: unknown = await stream.result.catch((e: unknown) => e);
    expect((error as RunError).partial?.interrupted).toEqual({
      role: 'assistant',
      content: 'You rolled a ',
    });
  });

  test('a resumed run streamed through onDelta alone keeps its failed turn’s text too', async () => {
    const store = memoryStore();
    const pay = defineTool({
      name: 'pay',
      description: 'Pay',
      schema: { type: 'object', properties: {} },
      approval: true,
      execute: () => 'paid',
    });
    const model = new StreamFunctionModel(async (request, emit) => {
      if (!request.messages.some((m) => m.role === 'tool'))
        return toolCallResponse([{ id: 'p1', name: 'pay', args: {} }]);
      for (let i = 0; i < 100; i++) await emit({ content: `${i % 10}` });
      throw new StreamInterruptedError('test', 'connection reset');
    });
    const agent = new Agent({ model, tools: [pay], store, deferredTools: true });
    const paused = await agent.run('pay');
    const seen: string[] = [];
    const error: unknown = await agent
      .resume(
        paused.runId ?? '',
        { approvals: { p1: { approved: true } } },
        { onDelta: (d) => void seen.push(d.content ?? '') },
      )
      .catch((e: unknown) => e);
    const expected = '0123456789'.repeat(10);
    expect(seen.join('')).toBe(expected);
    expect((error as RunError).partial?.interrupted).toEqual({
      role: 'assistant',
      content: expected,
    });
  });
});
