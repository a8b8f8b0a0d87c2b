/** Unit tests of the adapter's small parts: call ids and Vertex partial-argument assembly. */
import { type Message } from 'golem';
import { CallIdAllocator } from 'golem/providers/gemini';
import { ArgsAccumulator } from '../../../../src/providers/gemini/partial-args';
import { ModelProtocolError } from '../../../support/internal-errors';

describe('CallIdAllocator', () => {
  test('numbers calls across the conversation: <name>_<prior calls + position>', () => {
    const history: Message[] = [
      { role: 'assistant', toolCalls: [{ id: 'x_1', name: 'x', args: '{}' }] },
      { role: 'tool', toolCallId: 'x_1', toolName: 'x', content: '' },
    ];
    const ids = new CallIdAllocator(history);
    expect([ids.next('a'), ids.next('b'), ids.next('a')]).toEqual(['a_2', 'b_3', 'a_4']);
  });

  test('skips ids already used, including orphan tool-result ids', () => {
    const history: Message[] = [{ role: 'tool', toolCallId: 'a_1', toolName: 'a', content: '' }];
    expect(new CallIdAllocator(history).next('a')).toBe('a_2');
  });

  test('keeps a fresh provider id, replaces an empty or used one', () => {
    const ids = new CallIdAllocator([]);
    expect([ids.next('f', 'p1'), ids.next('f', 'p1'), ids.next('f', '')]).toEqual([
      'p1',
      'f_2',
      'f_3',
    ]);
  });
});

describe('ArgsAccumulator', () => {
  const acc = (initial?: Record<string, unknown>) => new ArgsAccumulator('gemini', initial);

  test('continued strings are appended; other values set at their paths', () => {
    const args = acc({ unit: 'C' });
    args.apply([{ jsonPath: '$.location', stringValue: 'San ', willContinue: true }]);
    args.apply([{ jsonPath: '$.location', stringValue: 'Francisco' }]);
    args.apply([
      { jsonPath: '$.days[0].n', numberValue: 1 },
      { jsonPath: '$.days[1].n', numberValue: 2 },
      { jsonPath: '$.meta["a.b"]', boolValue: false },
    ]);
    expect(JSON.parse(args.json())).toEqual({
      unit: 'C',
      location: 'San Francisco',
      days: [{ n: 1 }, { n: 2 }],
      meta: { 'a.b': false },
    });
  });

  test('a string for a path that did not say willContinue replaces the value', () => {
    const args = acc();
    args.apply([{ jsonPath: '$.q', stringValue: 'old' }]);
    args.apply([{ jsonPath: '$.q', stringValue: 'new' }]);
    expect(args.json()).toBe('{"q":"new"}');
  });

  test('__proto__ paths become own keys; no prototype is touched', () => {
    const args = acc();
    args.apply([{ jsonPath: '$.__proto__.polluted', stringValue: 'yes' }]);
    expect(args.json()).toBe('{"__proto__":{"polluted":"yes"}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test.each([
    [[{ stringValue: 'x' }], 'no jsonPath'],
    [[{ jsonPath: 'location', stringValue: 'x' }], 'unsupported jsonPath'],
    [[{ jsonPath: '$', stringValue: 'x' }], 'names no argument'],
    [[{ jsonPath: '$.a[', stringValue: 'x' }], 'unsupported jsonPath'],
    [[{ jsonPath: '$.a[99999]', stringValue: 'x' }], 'has an index over'],
    [[{ jsonPath: `$${'.a'.repeat(70)}`, stringValue: 'x' }], 'too deep'],
    [{ jsonPath: '$.a' }, 'not an array'],
  ])('%j → ModelProtocolError (%s)', (partialArgs, message) => {
    let error: unknown;
    try {
      acc().apply(partialArgs);
    } catch (e) {
      error = e;
    }
    expect(ModelProtocolError.is(error)).toBe(true);
    expect((error as Error).message).toContain(message);
  });

  test('mixing an array index and a key at one level is rejected', () => {
    const args = acc();
    args.apply([{ jsonPath: '$.a[0]', numberValue: 1 }]);
    expect(() => {
      args.apply([{ jsonPath: '$.a.length', numberValue: 0 }]);
    }).toThrow('mixes array indexes and object keys');
  });

  test('entries without a value are ignored', () => {
    const args = acc();
    args.apply([{ jsonPath: '$.a', willContinue: true }]);
    expect(args.json()).toBe('{}');
  });
});
