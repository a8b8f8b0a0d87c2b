import {
  Agent,
  RunError,
  RunInputError,
  defineTool,
  deferExternal,
  imageUrl,
  trimHistory,
  type HistoryProcessor,
  type Message,
} from 'golem';
import { INTERRUPTED_RESULT } from '../../../../src/core/engine/repair';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const ctx = { signal: new AbortController().signal };

/** The TH-1 fixture: six messages, a tool exchange among the oldest ones. */
function fixture(): Message[] {
  return [
    { role: 'user', content: 'oldest' },
    { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'lookup', args: '{}' }] },
    { role: 'tool', content: 'looked up', toolCallId: 'call-1', toolName: 'lookup' },
    { role: 'user', content: 'middle' },
    { role: 'assistant', content: 'middle answer' },
    { role: 'user', content: 'newest' },
  ];
}

async function trim(budget: number, history: Message[]): Promise<Message[]> {
  const processed = await trimHistory(budget)(history, ctx);
  if (processed === null || processed === undefined)
    throw new Error('trimHistory returned nothing');
  return processed;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('trimHistory (spec §17.5)', () => {
  test('TH-1 budget 4 keeps the newest four, then drops the leading tool result', async () => {
    const trimmed = await trim(4, fixture());

    expect(trimmed).toEqual([
      { role: 'user', content: 'middle' },
      { role: 'assistant', content: 'middle answer' },
      { role: 'user', content: 'newest' },
    ]);
  });

  test('TH-2 a budget at or above the length returns the history unchanged', async () => {
    const history = fixture();

    expect(await trim(6, history)).toEqual(fixture());
    expect(await trim(100, history)).toEqual(fixture());
  });

  test('TH-2 a history within budget keeps a leading tool result (no boundary rule)', async () => {
    const history: Message[] = [
      { role: 'tool', content: 'stray', toolCallId: 'x', toolName: 'lookup' },
      { role: 'user', content: 'hello' },
    ];

    expect(await trim(2, history)).toEqual(history);
  });

  test('TH-3 a leading assistant turn with tool calls is dropped: [assistant(call-9), user] budget 1', async () => {
    const history: Message[] = [
      { role: 'assistant', toolCalls: [{ id: 'call-9', name: 'lookup', args: '{}' }] },
      { role: 'user', content: 'keep me' },
    ];

    expect(await trim(1, history)).toEqual([{ role: 'user', content: 'keep me' }]);
  });

  test('TH-3 a plain assistant message may lead the trimmed history', async () => {
    const trimmed = await trim(2, fixture());

    expect(trimmed).toEqual([
      { role: 'assistant', content: 'middle answer' },
      { role: 'user', content: 'newest' },
    ]);
  });

  test('TH-4 budget 0 fails on every invocation, even with an empty history', async () => {
    await expect(trim(0, [])).rejects.toThrow('maxMessages must be an integer >= 1');
    await expect(trim(0, fixture())).rejects.toThrow('maxMessages must be an integer >= 1');
  });

  test('TH-4 three tool results with budget 2 leave no turn that can open a request', async () => {
    const history: Message[] = ['a', 'b', 'c'].map((id) => ({
      role: 'tool',
      content: id,
      toolCallId: id,
      toolName: 'lookup',
    }));

    await expect(trim(2, history)).rejects.toThrow(
      'no turn in the newest 2 messages can open a request',
    );
  });
});

describe('history processor (spec §17.4)', () => {
  test('TH-5 trimHistory(4) on the TH-1 fixture: request = trimmed three + prompt', async () => {
    const model = new ScriptedModel([textResponse('fine')]);
    const agent = new Agent({ model, historyProcessor: trimHistory(4) });

    const result = await agent.run('next', { history: fixture() });

    expect(model.lastRequest?.messages).toEqual([
      { role: 'user', content: 'middle' },
      { role: 'assistant', content: 'middle answer' },
      { role: 'user', content: 'newest' },
      { role: 'user', content: 'next' },
    ]);
    expect(result.messages.map((m) => m.content)).toEqual([
      'middle',
      'middle answer',
      'newest',
      'next',
      'fine',
    ]);
  });

  test('TH-4 trimHistory(0) fails a plain run with empty history before any model call', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({ model, historyProcessor: trimHistory(0) });

    const error = await rejection(agent.run('hi'));

    expect(RunInputError.is(error)).toBe(true);
    expect(RunError.is(error)).toBe(false);
    expect((error as Error).message).toContain('history processor');
    expect(model.calls).toBe(0);
  });

  test('TH-6 a failing processor rejects with a plain error mentioning `history processor`, model never called', async () => {
    const boom = new Error('storage offline');
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({
      model,
      historyProcessor: () => {
        throw boom;
      },
    });

    const error = await rejection(agent.run('hi', { history: fixture() }));

    expect(RunInputError.is(error)).toBe(true);
    expect(RunError.is(error)).toBe(false);
    expect((error as Error).message).toBe('history processor failed: storage offline');
    expect((error as Error).cause).toBe(boom);
    expect(model.calls).toBe(0);
  });

  test('TH-7 the processor runs before part validation: [assistant with image part, user] trimmed to 1 succeeds', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model, historyProcessor: trimHistory(1) });
    const history: Message[] = [
      { role: 'assistant', content: 'look', parts: [imageUrl('https://example.test/cat.png')] },
      { role: 'user', content: 'keep' },
    ];

    const result = await agent.run('prompt', { history });

    expect(result.output).toBe('ok');
    expect(model.lastRequest?.messages).toEqual([
      { role: 'user', content: 'keep' },
      { role: 'user', content: 'prompt' },
    ]);
  });

  test('the processor is called once per run with the history exactly as supplied, never the prompt or instructions', async () => {
    const seen: Message[][] = [];
    const history: Message[] = [
      { role: 'system', content: 'stale' },
      { role: 'user', content: 'q' },
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'lookup', args: '{}' }] },
    ];
    const model = new ScriptedModel([textResponse('a')]);
    const agent = new Agent({
      model,
      instructions: 'fresh',
      historyProcessor: (h) => {
        seen.push(structuredClone(h));
        return h;
      },
    });

    await agent.run('prompt', { history });

    expect(seen).toEqual([history]);
  });

  test('a plain run without history calls the processor once with an empty history', async () => {
    const calls: Message[][] = [];
    const agent = new Agent({
      model: new ScriptedModel([textResponse('a')]),
      instructions: 'be brief',
      historyProcessor: (h) => {
        calls.push([...h]);
        return h;
      },
    });

    await agent.run('hi');

    expect(calls).toEqual([[]]);
  });

  test('the processed history is validated: a processor introducing an invalid part fails before any model call', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({
      model,
      historyProcessor: () => [
        { role: 'assistant', content: 'x', parts: [imageUrl('https://example.test/a.png')] },
      ],
    });

    const error = await rejection(agent.run('hi'));

    expect(RunInputError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'history message 0: parts are only supported on user messages',
    );
    expect(model.calls).toBe(0);
  });

  test('the processed history is repaired: a dangling call kept by the processor gets an interrupted result', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model, historyProcessor: trimHistory(2) });
    const history: Message[] = [
      { role: 'user', content: 'old' },
      { role: 'user', content: 'q' },
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'lookup', args: '{}' }] },
    ];

    await agent.run('next', { history });

    expect(model.lastRequest?.messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'lookup', args: '{}' }] },
      { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: 'c1', toolName: 'lookup' },
      { role: 'user', content: 'next' },
    ]);
  });

  test('runStream calls the processor once per run', async () => {
    let calls = 0;
    const processor: HistoryProcessor = (h) => {
      calls++;
      return h;
    };
    const agent = new Agent({
      model: new ScriptedModel([textResponse('a')]),
      historyProcessor: processor,
    });

    await agent.runStream('hi').result;

    expect(calls).toBe(1);
  });

  test('resume calls the processor once, on the paused history', async () => {
    const seen: number[] = [];
    const tool = defineTool({
      name: 'fetch_report',
      schema: { type: 'object' },
      execute: () => {
        throw deferExternal('produced offline');
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'fetch_report' }]),
      textResponse('done'),
    ]);
    const agent = new Agent({
      deferredTools: true,
      model,
      tools: [tool],
      historyProcessor: (h) => {
        seen.push(h.length);
        return h;
      },
    });
    const paused = await agent.run('report please');

    const resumed = await agent.resume(paused.messages, { external: { c1: 'the report' } });

    expect(seen).toEqual([0, 2]);
    expect(resumed.output).toBe('done');
  });
});
