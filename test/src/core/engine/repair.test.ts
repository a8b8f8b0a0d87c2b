import fc from 'fast-check';
import { Agent, repairHistory, type Message, type ToolCall } from 'golem';
import { INTERRUPTED_RESULT, unansweredCalls } from '../../../../src/core/engine/repair';
import { ScriptedModel, textResponse } from 'golem/testing';

const INTERRUPTED =
  'Tool call was interrupted before execution; no result was produced. Call the tool again if you need its result.';

const call = (id: string, name = 'get_weather'): ToolCall => ({ id, name, args: '{}' });
const user = (content: string): Message => ({ role: 'user', content });
const assistant = (...calls: ToolCall[]): Message => ({ role: 'assistant', toolCalls: calls });
const result = (id: string, content: string, name = 'get_weather'): Message => ({
  role: 'tool',
  content,
  toolCallId: id,
  toolName: name,
});
const synth = (id: string, name = 'get_weather'): Message => ({
  role: 'tool',
  content: INTERRUPTED,
  toolCallId: id,
  toolName: name,
});

/** Runs an instruction-less agent on `history` + "next" and returns the request it sent and the result. */
async function continueWith(history: Message[]) {
  const model = new ScriptedModel([textResponse('done')]);
  const res = await new Agent({ model }).run('next', { history });
  return { request: model.lastRequest?.messages, result: res };
}

describe('§17.3 repair through agent runs', () => {
  test('the exported interrupted text is the spec literal', () => {
    expect(INTERRUPTED_RESULT).toBe(INTERRUPTED);
  });

  test('RP-1 a dangling call gets a synthesized result that stays in the evidence', async () => {
    const { request, result: res } = await continueWith([
      user('weather?'),
      assistant(call('call-1')),
    ]);
    expect(request).toEqual([
      user('weather?'),
      assistant(call('call-1')),
      synth('call-1'),
      user('next'),
    ]);
    expect(res.messages[2]).toEqual(synth('call-1'));
    expect(res.messages).toEqual([...(request ?? []), { role: 'assistant', content: 'done' }]);
  });

  test('RP-2 continuing from repaired evidence keeps exactly one identical result for the call', async () => {
    const first = await continueWith([user('weather?'), assistant(call('call-1'))]);
    const second = await continueWith(first.result.messages);
    const results = (second.request ?? []).filter(
      (m) => m.role === 'tool' && m.toolCallId === 'call-1',
    );
    expect(results).toEqual([synth('call-1')]);
    expect(second.request).toEqual([...first.result.messages, user('next')]);
  });

  test('RP-3 a partially answered batch gets the synthesized result before the real sibling result', async () => {
    const { request } = await continueWith([
      user('q'),
      assistant(call('call-1'), call('call-2')),
      result('call-1', 'sunny'),
    ]);
    expect(request?.[2]).toEqual(synth('call-2'));
    expect(request?.[3]).toEqual(result('call-1', 'sunny'));
    expect(request).toHaveLength(5);
  });

  test('RP-4 a dangling call mid-history is answered right after its assistant message', async () => {
    const { request } = await continueWith([
      user('q'),
      assistant(call('call-1')),
      user('never mind'),
      { role: 'assistant', content: 'ok' },
    ]);
    expect(request?.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
      'user',
    ]);
    expect(request?.[2]).toEqual(synth('call-1'));
  });

  test('RP-5 an orphan tool result is dropped', async () => {
    const { request } = await continueWith([
      user('q'),
      result('call-9', 'stray'),
      { role: 'assistant', content: 'a' },
    ]);
    expect(request).toEqual([user('q'), { role: 'assistant', content: 'a' }, user('next')]);
  });

  test('RP-6 a result preceding its call is dropped and the call gets a synthesized result', async () => {
    const { request } = await continueWith([
      user('q'),
      result('call-1', 'too early'),
      assistant(call('call-1')),
    ]);
    expect(request).toEqual([user('q'), assistant(call('call-1')), synth('call-1'), user('next')]);
  });

  test('RP-7 of duplicate results for one call the first is kept and the second dropped', async () => {
    const { request } = await continueWith([
      user('q'),
      assistant(call('call-1')),
      result('call-1', 'first'),
      result('call-1', 'second'),
    ]);
    expect(request).toEqual([
      user('q'),
      assistant(call('call-1')),
      result('call-1', 'first'),
      user('next'),
    ]);
  });
});

describe('repairHistory', () => {
  test('returns the very same array when nothing needs repair', () => {
    const history = [
      user('q'),
      assistant(call('call-1')),
      result('call-1', 'r'),
      { role: 'assistant', content: 'a' } as Message,
    ];
    expect(repairHistory(history)).toBe(history);
    const empty: Message[] = [];
    expect(repairHistory(empty)).toBe(empty);
  });

  test('does not mutate its input', () => {
    const history = [user('q'), result('x', 'orphan'), assistant(call('call-1'))];
    const copy = structuredClone(history);
    repairHistory(history);
    expect(history).toEqual(copy);
  });

  test('RP-1 synthesizes a result with the call id and tool name', () => {
    expect(repairHistory([user('q'), assistant(call('call-1', 'lookup'))])).toEqual([
      user('q'),
      assistant(call('call-1', 'lookup')),
      synth('call-1', 'lookup'),
    ]);
  });

  test('RP-2 is idempotent on a repaired history', () => {
    const once = repairHistory([
      user('q'),
      assistant(call('call-1'), call('call-2')),
      result('call-2', 'r'),
    ]);
    expect(repairHistory(once)).toBe(once);
  });

  test('RP-3 synthesized results come in call order before the real results of siblings', () => {
    const history = [
      user('q'),
      assistant(call('a', 'one'), call('b', 'two'), call('c', 'three')),
      result('b', 'real b', 'two'),
    ];
    expect(repairHistory(history)).toEqual([
      user('q'),
      assistant(call('a', 'one'), call('b', 'two'), call('c', 'three')),
      synth('a', 'one'),
      synth('c', 'three'),
      result('b', 'real b', 'two'),
    ]);
  });

  test('RP-4 a result after intervening user messages still answers its call; nothing is reordered', () => {
    const history = [
      user('q'),
      assistant(call('call-1')),
      user('are you there?'),
      result('call-1', 'late'),
    ];
    expect(repairHistory(history)).toBe(history);
  });

  test('RP-5 drops orphan results and results with an empty or missing id', () => {
    const history: Message[] = [
      user('q'),
      result('ghost', 'orphan'),
      { role: 'tool', content: 'no id' },
      result('', 'empty id'),
      user('again'),
    ];
    expect(repairHistory(history)).toEqual([user('q'), user('again')]);
  });

  test('RP-6 drops a result placed before its call and answers the call', () => {
    expect(repairHistory([result('call-1', 'early'), assistant(call('call-1'))])).toEqual([
      assistant(call('call-1')),
      synth('call-1'),
    ]);
  });

  test('RP-7 keeps the first of duplicate results', () => {
    const history = [
      assistant(call('call-1')),
      result('call-1', 'first'),
      user('u'),
      result('call-1', 'second'),
    ];
    expect(repairHistory(history)).toEqual([
      assistant(call('call-1')),
      result('call-1', 'first'),
      user('u'),
    ]);
  });

  test('leaves calls without an id as they are', () => {
    const history = [user('q'), assistant(call(''))];
    expect(repairHistory(history)).toBe(history);
  });
});

describe('unansweredCalls', () => {
  test('lists calls without a result in emission order', () => {
    const history = [
      user('q'),
      assistant(call('a', 'one'), call('b', 'two')),
      result('a', 'ra', 'one'),
      user('u'),
      assistant(call('c', 'three')),
    ];
    expect(unansweredCalls(history)).toEqual([call('b', 'two'), call('c', 'three')]);
  });

  test('is empty for a fully answered or a repaired history', () => {
    expect(unansweredCalls([user('q'), assistant(call('a')), result('a', 'r')])).toEqual([]);
    expect(unansweredCalls(repairHistory([user('q'), assistant(call('a'), call('b'))]))).toEqual(
      [],
    );
  });
});

describe('repair properties', () => {
  const ids = ['a', 'b', 'c', 'd'];
  const message: fc.Arbitrary<Message> = fc.oneof(
    fc.constantFrom('hi', 'more').map((content): Message => ({ role: 'user', content })),
    fc
      .array(
        fc
          .record({ id: fc.constantFrom(...ids), name: fc.constantFrom('t1', 't2') })
          .map((c): ToolCall => ({ ...c, args: '{}' })),
        { maxLength: 3 },
      )
      .map((calls): Message =>
        calls.length === 0
          ? { role: 'assistant', content: 'text' }
          : { role: 'assistant', toolCalls: calls },
      ),
    fc
      .record({ id: fc.constantFrom(...ids, ''), content: fc.constantFrom('r1', 'r2') })
      .map(({ id, content }): Message => ({
        role: 'tool',
        content,
        toolCallId: id,
        toolName: 't1',
      })),
  );
  const history = fc.array(message, { maxLength: 12 });

  /** Problems with call/result pairing: each assistant call id needs exactly one result before it is re-requested. */
  function pairingProblems(messages: readonly Message[]): string[] {
    const problems: string[] = [];
    messages.forEach((m, i) => {
      if (m.role === 'tool') {
        const id = m.toolCallId ?? '';
        const owner = messages
          .slice(0, i)
          .findLastIndex(
            (p) => p.role === 'assistant' && (p.toolCalls ?? []).some((c) => c.id === id),
          );
        if (id === '' || owner === -1) problems.push(`message ${i}: orphan result "${id}"`);
        else if (messages.slice(owner + 1, i).some((p) => p.role === 'tool' && p.toolCallId === id))
          problems.push(`message ${i}: second result for "${id}"`);
      }
      if (m.role !== 'assistant') return;
      for (const id of new Set((m.toolCalls ?? []).map((c) => c.id))) {
        const next = messages.findIndex(
          (p, j) => j > i && p.role === 'assistant' && (p.toolCalls ?? []).some((c) => c.id === id),
        );
        const window = messages.slice(i + 1, next === -1 ? undefined : next);
        const answers = window.filter((p) => p.role === 'tool' && p.toolCallId === id).length;
        if (answers !== 1) problems.push(`message ${i}: call "${id}" has ${answers} results`);
      }
    });
    return problems;
  }

  test('repair is idempotent', () => {
    fc.assert(
      fc.property(history, (h) => {
        const once = repairHistory(h);
        expect(repairHistory(once)).toEqual(once);
      }),
      { numRuns: 500 },
    );
  });

  test('after repair every call has exactly one result and no tool message is an orphan', () => {
    fc.assert(
      fc.property(history, (h) => {
        const repaired = repairHistory(h);
        expect(pairingProblems(repaired)).toEqual([]);
        expect(unansweredCalls(repaired)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
