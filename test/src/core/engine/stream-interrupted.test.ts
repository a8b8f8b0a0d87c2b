import { Agent, RunError, historyFromPartial } from 'golem';
import { StreamFunctionModel, textResponse } from 'golem/testing';
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
});
