/**
 * Checked histories (issue 35): `Agent.history(messages)` and `result.history` — checked once,
 * frozen, and carried by any run as they are, with the guarantees a plain history has per run
 * (validation, repair, the caller's later changes never reaching the run's evidence).
 */
import {
  Agent,
  RunInputError,
  defineTool,
  imageData,
  type Message,
  type HistoryProcessor,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const schema = { type: 'object' } as const;

function inputError(run: () => unknown): RunInputError {
  try {
    run();
  } catch (error) {
    if (RunInputError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a RunInputError');
}

describe('Agent.history', () => {
  test('copies, repairs and freezes: the caller keeps its own array, the run sees the checked copy', async () => {
    const given: Message[] = [
      { role: 'user', content: 'add 1 and 2' },
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'add', args: '{"a":1,"b":2}' }] },
      // c1 has no result: the checked history answers it as interrupted, once.
      { role: 'user', content: 'never mind' },
      { role: 'assistant', content: 'ok' },
    ];
    const history = Agent.history(given);
    expect(history).not.toBe(given);
    expect(Object.isFrozen(history)).toBe(true);
    expect(history.every((m) => Object.isFrozen(m))).toBe(true);
    expect(Object.isFrozen(history[1]?.toolCalls)).toBe(true);
    expect(Object.isFrozen(history[1]?.toolCalls?.[0])).toBe(true);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    expect(history[2]).toMatchObject({ role: 'tool', toolCallId: 'c1', toolName: 'add' });
    // The caller's array and messages are untouched and still theirs to change.
    expect(given).toHaveLength(4);
    expect(Object.isFrozen(given[0])).toBe(false);
    given[0] = { role: 'user', content: 'changed afterwards' };
    (given[3] as Message).content = 'changed too';

    const model = new ScriptedModel([textResponse('done')]);
    const agent = new Agent({ model, instructions: 'sys' });
    const result = await agent.run('next', { history });
    const sent = model.requests[0]?.messages ?? [];
    expect(sent.map((m) => m.content)).toEqual([
      'sys',
      'add 1 and 2',
      undefined,
      expect.stringContaining('interrupted'),
      'never mind',
      'ok',
      'next',
    ]);
    expect(result.messages.slice(1, 6)).toEqual([...history]);
  });

  test('a checked history is returned as it is, and cannot be changed', () => {
    const history = Agent.history([{ role: 'user', content: 'hi' }]);
    expect(Agent.history(history)).toBe(history);
    expect(() => (history as Message[]).push({ role: 'user', content: 'x' })).toThrow(TypeError);
    expect(() => {
      (history[0] as Message).content = 'x';
    }).toThrow(TypeError);
  });

  test('invalid messages are refused up front, naming the message and field', () => {
    const bad = [
      { role: 'user', content: 'fine' },
      { role: 'assistant', content: 42 },
    ] as unknown as Message[];
    expect(inputError(() => Agent.history(bad)).message).toMatch(
      /history message 1: content must be a string/,
    );
    expect(inputError(() => Agent.history('nope' as unknown as Message[])).message).toMatch(
      /history must be an array/,
    );
  });

  test('the bytes of a part are copied: changing the caller buffer later changes nothing', async () => {
    const bytes = new Uint8Array([137, 80, 78, 71]);
    const history = Agent.history([
      { role: 'user', content: 'look', parts: [imageData('image/png', bytes)] },
      { role: 'assistant', content: 'a picture' },
    ]);
    bytes[0] = 0;
    const model = new ScriptedModel([textResponse('ok')]);
    await new Agent({ model }).run('again', { history });
    const part = model.requests[0]?.messages[0]?.parts?.[0];
    expect(part?.data?.[0]).toBe(137);
  });

  test('a run sends the same messages for a checked history as for the plain array: system messages left to the instructions', async () => {
    const given: Message[] = [
      { role: 'system', content: 'an old system prompt' },
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
      { role: 'system', content: 'another' },
      { role: 'user', content: 'three' },
      { role: 'assistant', content: 'four' },
    ];
    const history = Agent.history(given);
    const requests: Message[][] = [];
    for (const carried of [given, history, history]) {
      const model = new ScriptedModel([textResponse('ok')]);
      const result = await new Agent({ model, instructions: 'Be brief.' }).run('five', {
        history: carried,
      });
      requests.push(model.requests[0]?.messages ?? []);
      // The run's messages are its own array: changing them leaves the checked history whole.
      result.messages.splice(1, 1);
    }
    expect(requests[1]).toEqual(requests[0]);
    expect(requests[2]).toEqual(requests[0]);
    expect(requests[0]?.map((m) => m.content)).toEqual([
      'Be brief.',
      'one',
      'two',
      'three',
      'four',
      'five',
    ]);
    expect(history.map((m) => m.content)).toEqual(given.map((m) => m.content));
  });

  test('a history processor gets a mutable copy of a checked history, checked as usual', async () => {
    const history = Agent.history([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
    ]);
    const seen: boolean[] = [];
    const processor: HistoryProcessor = (messages) => {
      seen.push(Object.isFrozen(messages), Object.isFrozen(messages[0]));
      (messages[0] as Message).content = 'rewritten';
      return messages;
    };
    const model = new ScriptedModel([textResponse('ok')]);
    await new Agent({ model, historyProcessor: processor }).run('three', { history });
    expect(seen).toEqual([false, false]);
    expect(model.requests[0]?.messages[0]?.content).toBe('rewritten');
    expect(history[0]?.content).toBe('one');
  });
});

describe('result.history', () => {
  test('is a checked history of the conversation, reusing the messages of the one given', async () => {
    const add = defineTool({ name: 'add', description: 'adds', schema, execute: () => '3' });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'add', args: { a: 1, b: 2 } }]),
      textResponse('3'),
      textResponse('again 3'),
    ]);
    const agent = new Agent({ model, tools: [add], instructions: 'sys' });
    const first = await agent.run('add');
    const history = first.history;
    expect(first.history).toBe(history); // made once
    expect(Object.keys(first)).not.toContain('history');
    expect(history).toEqual(first.messages);
    expect(history[1]).not.toBe(first.messages[1]); // the result's own messages stay mutable
    expect(Object.isFrozen(first.messages[1])).toBe(false);

    const second = await agent.run('again', { history });
    const next = second.history;
    // The first run's checked messages are carried by reference into the next checked history.
    for (let i = 1; i < history.length; i++) expect(next[i]).toBe(history[i]);
    expect(next.map((m) => m.content)).toEqual([
      'sys',
      'add',
      undefined,
      '3',
      '3',
      'again',
      'again 3',
    ]);
  });

  test('a paused result answers its pending calls as interrupted in its history', async () => {
    const ask = defineTool({
      name: 'ask',
      description: 'asks a human',
      schema,
      approval: true,
      execute: () => 'yes',
    });
    const model = new ScriptedModel([toolCallResponse([{ id: 'q1', name: 'ask' }])]);
    const agent = new Agent({ model, tools: [ask], deferredTools: true });
    const paused = await agent.run('go');
    expect(paused.pending?.approvals).toHaveLength(1);
    const roles = paused.history.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool']);
    expect(paused.history[2]?.content).toMatch(/interrupted/);
  });
});
