import fc from 'fast-check';
import {
  decodeMessages,
  encodeMessage,
  encodeMessages,
  parseHistory,
} from '../../../../src/core/codec/codec';
import { HistoryFormatError } from '../../../../src/core/errors/history-error';
import type { Message, ToolCall } from '../../../../src/core/contract/message';
import { ROLES } from '../../../../src/core/contract/message';
import type { Part } from '../../../../src/core/contract/part';
import type { ThinkingBlock } from '../../../../src/core/contract/thinking';
import { compactJson } from '../../../../src/core/kit/raw-json';

const conversation: Message[] = [
  { role: 'system', content: 'Be concise.' },
  { role: 'user', content: 'Roll the dice.' },
  { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'roll_dice', args: '{"guess":4}' }] },
  { role: 'tool', content: '4', toolCallId: 'call-1', toolName: 'roll_dice' },
  { role: 'assistant', content: 'You rolled a 4.' },
];

/** The HistoryFormatError `fn` throws (fails the test when it throws nothing or something else). */
function historyError(fn: () => unknown): HistoryFormatError {
  try {
    fn();
  } catch (error) {
    if (HistoryFormatError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a HistoryFormatError');
}

describe('durable JSON shape (spec §1)', () => {
  test('DM-1 the five-message conversation encodes to the exact bytes', () => {
    expect(encodeMessages(conversation)).toBe(
      '[{"role":"system","content":"Be concise."},{"role":"user","content":"Roll the dice."},{"role":"assistant","toolCalls":[{"id":"call-1","name":"roll_dice","args":{"guess":4}}]},{"role":"tool","content":"4","toolCallId":"call-1","toolName":"roll_dice"},{"role":"assistant","content":"You rolled a 4."}]',
    );
  });

  test('DM-2 the conversation round-trips with every field and the args text equal', () => {
    const decoded = decodeMessages(encodeMessages(conversation));
    expect(decoded).toStrictEqual(conversation);
    expect(decoded[2]?.toolCalls?.[0]?.args).toBe('{"guess":4}');
  });

  test('DM-3 an unknown key is ignored and a bare role decodes with no optional keys', () => {
    const decoded = decodeMessages(
      '[{"role":"user","content":"hi","futureField":true},{"role":"assistant"}]',
    );
    expect(decoded).toStrictEqual([{ role: 'user', content: 'hi' }, { role: 'assistant' }]);
    expect(Object.keys(decoded[1]!)).toEqual(['role']);
  });

  test('DM-4 a text-only user message encodes byte-identically', () => {
    expect(encodeMessage({ role: 'user', content: 'hi' })).toBe('{"role":"user","content":"hi"}');
  });

  test('DM-5 a URL part encodes in contract order', () => {
    const message: Message = {
      role: 'user',
      content: 'look',
      parts: [{ kind: 'image', url: 'https://example.com/cat.png' }],
    };
    expect(encodeMessage(message)).toBe(
      '{"role":"user","content":"look","parts":[{"kind":"image","url":"https://example.com/cat.png"}]}',
    );
  });

  test('DM-6 an inline part round-trips its bytes and media type as standard base64', () => {
    const message: Message = {
      role: 'user',
      parts: [{ kind: 'image', data: new Uint8Array([1, 2, 3]), mediaType: 'image/png' }],
    };
    const json = encodeMessages([message]);
    expect(json).toBe(
      '[{"role":"user","parts":[{"kind":"image","data":"AQID","mediaType":"image/png"}]}]',
    );
    const part = decodeMessages(json)[0]?.parts?.[0];
    expect(part?.data).toEqual(new Uint8Array([1, 2, 3]));
    expect(part?.mediaType).toBe('image/png');
  });

  test('DM-7 thinking blocks and a call signature round-trip; messages without them carry no such keys', () => {
    const message: Message = {
      role: 'assistant',
      content: 'checking',
      toolCalls: [{ id: 'c1', name: 'look', args: '{}', signature: 'sig-call' }],
      thinking: [{ text: 'first', signature: 'sig-1' }, { redacted: 'ENC==' }],
    };
    const json = encodeMessage(message);
    expect(json).toBe(
      '{"role":"assistant","content":"checking","toolCalls":[{"id":"c1","name":"look","args":{},"signature":"sig-call"}],"thinking":[{"text":"first","signature":"sig-1"},{"redacted":"ENC=="}]}',
    );
    expect(decodeMessages(`[${json}]`)).toStrictEqual([message]);
    const plain = encodeMessage({
      role: 'assistant',
      toolCalls: [{ id: 'c1', name: 'look', args: '{}' }],
    });
    expect(plain).toBe('{"role":"assistant","toolCalls":[{"id":"c1","name":"look","args":{}}]}');
  });
});

describe('encoding rules', () => {
  test('empty content and empty arrays are omitted; empty args encode as null', () => {
    const message: Message = {
      role: 'assistant',
      content: '',
      parts: [],
      thinking: [],
      toolCalls: [{ id: '', name: 'f', args: '' }],
    };
    expect(encodeMessage(message)).toBe(
      '{"role":"assistant","toolCalls":[{"id":"","name":"f","args":null}]}',
    );
  });

  test('args are compacted outside strings with number and escape spellings kept', () => {
    const call: ToolCall = {
      id: 'a',
      name: 'f',
      args: ' { "n" : 1.0 , "s" : "\\u0041 b" ,"e":1E+2 } ',
    };
    expect(encodeMessage({ role: 'assistant', toolCalls: [call] })).toBe(
      '{"role":"assistant","toolCalls":[{"id":"a","name":"f","args":{"n":1.0,"s":"\\u0041 b","e":1E+2}}]}',
    );
  });

  test('token-exact args survive a round trip', () => {
    const args = '{"n":1.0,"s":"\\u0041"}';
    const json = encodeMessages([{ role: 'assistant', toolCalls: [{ id: 'x', name: 'f', args }] }]);
    expect(json).toContain('"args":{"n":1.0,"s":"\\u0041"}}');
    expect(decodeMessages(json)[0]?.toolCalls?.[0]?.args).toBe(args);
  });

  test('invalid args make the encoder throw instead of emitting a string', () => {
    const messages: Message[] = [
      { role: 'user', content: 'x' },
      {
        role: 'assistant',
        toolCalls: [
          { id: 'a', name: 'f', args: '{}' },
          { id: 'b', name: 'g', args: '{"a":' },
        ],
      },
    ];
    const error = historyError(() => encodeMessages(messages));
    expect([error.index, error.field]).toEqual([1, 'toolCalls[1].args']);
    expect(error.message).toBe(
      'history message 1: toolCalls[1].args is not valid JSON: unexpected end of input; expected a JSON value at position 5',
    );
  });

  test('the encoder refuses what the decoder would refuse', () => {
    const badRole = historyError(() => encodeMessages([{ role: 'robot' as Message['role'] }]));
    expect([badRole.index, badRole.field]).toEqual([0, 'role']);
    const emptyName = historyError(() =>
      encodeMessage({ role: 'assistant', toolCalls: [{ id: 'a', name: '', args: '{}' }] }),
    );
    expect([emptyName.index, emptyName.field, emptyName.message]).toEqual([
      undefined,
      'toolCalls[0].name',
      'history: toolCalls[0].name must not be empty',
    ]);
    const deep = historyError(() =>
      encodeMessage({
        role: 'assistant',
        toolCalls: [{ id: 'a', name: 'f', args: '['.repeat(257) + ']'.repeat(257) }],
      }),
    );
    expect(deep.field).toBe('toolCalls[0].args');
  });
});

describe('decoding untrusted history', () => {
  test('legacy messages decode with parts absent, and null optionals read as absent', () => {
    const [legacy, nulls] = decodeMessages(
      '[{"role":"user","content":"hi"},{"role":"tool","content":null,"parts":null,"toolCallId":null}]',
    );
    expect(legacy).toStrictEqual({ role: 'user', content: 'hi' });
    expect(nulls).toStrictEqual({ role: 'tool' });
  });

  test('args keep any JSON value: null reads as "null", absent as ""', () => {
    const [m] = decodeMessages(
      '[{"role":"assistant","toolCalls":[{"id":"a","name":"f","args":null},{"id":"b","name":"g"},{"id":"c","name":"h","args":[1, "x"]}]}]',
    );
    expect(m?.toolCalls?.map((c) => c.args)).toEqual(['null', '', '[1,"x"]']);
  });

  test('parseHistory accepts an already-parsed array and re-serialises args', () => {
    const parsed: unknown = JSON.parse(encodeMessages(conversation));
    expect(parseHistory(parsed)).toStrictEqual(conversation);
    expect(parseHistory(encodeMessages(conversation))).toStrictEqual(conversation);
  });

  test.each([
    [
      'a non-array document',
      '{"role":"user"}',
      undefined,
      '',
      'history must be a JSON array of messages',
    ],
    ['a non-object message', '[{"role":"user"},3]', 1, '', 'history message 1 must be an object'],
    [
      'an unknown role',
      '[{"role":"robot"}]',
      0,
      'role',
      'history message 0: role must be one of system, user, assistant, tool',
    ],
    ['a missing role', '[{"content":"x"}]', 0, 'role', 'history message 0: role is missing'],
    [
      'numeric content',
      '[{"role":"user","content":5}]',
      0,
      'content',
      'history message 0: content must be a string',
    ],
    [
      'toolCalls not an array',
      '[{"role":"assistant","toolCalls":{}}]',
      0,
      'toolCalls',
      'history message 0: toolCalls must be an array',
    ],
    [
      'a call without a name',
      '[{"role":"user"},{"role":"assistant","toolCalls":[{"id":"a","name":"f","args":{}},{"id":"b","args":{}}]}]',
      1,
      'toolCalls[1].name',
      'history message 1: toolCalls[1].name must be a string',
    ],
    [
      'a numeric call id',
      '[{"role":"assistant","toolCalls":[{"id":7,"name":"f"}]}]',
      0,
      'toolCalls[0].id',
      'history message 0: toolCalls[0].id must be a string',
    ],
    [
      'bad base64',
      '[{"role":"user","parts":[{"kind":"image","data":"AQI*","mediaType":"image/png"}]}]',
      0,
      'parts[0].data',
      'history message 0: parts[0].data must be standard base64 with padding',
    ],
    [
      'unpadded base64',
      '[{"role":"user","parts":[{"kind":"image","data":"AQI"}]}]',
      0,
      'parts[0].data',
      'history message 0: parts[0].data must be standard base64 with padding',
    ],
    [
      'non-canonical base64',
      '[{"role":"user","parts":[{"kind":"image","data":"AQJ="}]}]',
      0,
      'parts[0].data',
      'history message 0: parts[0].data must be standard base64 with padding',
    ],
    [
      'parts not an array',
      '[{"role":"user","parts":"img"}]',
      0,
      'parts',
      'history message 0: parts must be an array',
    ],
    [
      'a part without a kind',
      '[{"role":"user","parts":[{"url":"u"}]}]',
      0,
      'parts[0].kind',
      'history message 0: parts[0].kind must be a string',
    ],
    [
      'non-string thinking text',
      '[{"role":"assistant","thinking":[{"text":1}]}]',
      0,
      'thinking[0].text',
      'history message 0: thinking[0].text must be a string',
    ],
    [
      'a non-object thinking block',
      '[{"role":"assistant","thinking":["x"]}]',
      0,
      'thinking[0]',
      'history message 0: thinking[0] must be an object',
    ],
    [
      'a syntax error between members',
      '[{"role":"user"},{"role":"tool","content":"a" "b"}]',
      1,
      '',
      "history message 1 is not valid JSON: unexpected '\"'; expected ',' or '}' at position 46",
    ],
    [
      'a syntax error in a value',
      '[{"role":"user"},{"role":"tool","content":tru}]',
      1,
      'content',
      "history message 1: content is not valid JSON: unexpected 't'; expected a JSON value at position 42",
    ],
    [
      'trailing garbage',
      '[] x',
      undefined,
      '',
      "history is not valid JSON: unexpected 'x' after the JSON value at position 3",
    ],
  ])('%s is a HistoryFormatError with index and field', (_name, json, index, field, message) => {
    const error = historyError(() => decodeMessages(json));
    expect([error.index, error.field, error.message]).toEqual([index, field, message]);
  });

  test('already-parsed input is validated the same way', () => {
    const error = historyError(() =>
      parseHistory([
        { role: 'assistant', toolCalls: [{ id: 'a', name: 'f', args: { n: Number.NaN } }] },
      ]),
    );
    expect([error.index, error.field, error.problem]).toEqual([
      0,
      'toolCalls[0].args',
      'contains a non-finite number',
    ]);
    expect(historyError(() => parseHistory(42)).message).toBe(
      'history must be a JSON array of messages',
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(
      historyError(() =>
        parseHistory([{ role: 'assistant', toolCalls: [{ id: 'a', name: 'f', args: cyclic }] }]),
      ).problem,
    ).toBe('is nested deeper than 256 levels');
  });

  test('a 10k-level nesting bomb is rejected with a typed error, without overflowing the stack', () => {
    const bomb = `[{"role":"assistant","toolCalls":[{"id":"a","name":"f","args":${'['.repeat(10_000)}${']'.repeat(10_000)}}]}]`;
    const error = historyError(() => decodeMessages(bomb));
    expect([error.index, error.field.startsWith('toolCalls[0].args[0][0]')]).toEqual([0, true]);
    expect(error.message).toContain('nesting is deeper than the limit of 260 levels');
    let nested: unknown = [];
    for (let i = 0; i < 10_000; i++) nested = [nested];
    expect(
      historyError(() =>
        parseHistory([{ role: 'assistant', toolCalls: [{ id: 'a', name: 'f', args: nested }] }]),
      ).field,
    ).toBe('toolCalls[0].args');
  });

  test('a __proto__ key is refused in the envelope and inert inside args', () => {
    const envelope = historyError(() =>
      decodeMessages('[{"role":"user","__proto__":{"polluted":true}}]'),
    );
    expect([envelope.index, envelope.field]).toEqual([0, '']);
    expect(envelope.message).toContain('object key "__proto__" is not allowed');
    const json =
      '[{"role":"assistant","toolCalls":[{"id":"a","name":"f","args":{"__proto__":{"polluted":true}}}]}]';
    expect(decodeMessages(json)[0]?.toolCalls?.[0]?.args).toBe('{"__proto__":{"polluted":true}}');
    expect(parseHistory(JSON.parse(json))[0]?.toolCalls?.[0]?.args).toBe(
      '{"__proto__":{"polluted":true}}',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('oversized text is refused before parsing', () => {
    const error = historyError(() =>
      decodeMessages('[{"role":"user","content":"hello"}]', { maxLength: 10 }),
    );
    expect(error.message).toBe('history is 35 characters; the limit is 10');
  });
});

const nonEmpty = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });
const part: fc.Arbitrary<Part> = fc.record(
  {
    kind: fc.constant('image' as const),
    url: nonEmpty,
    data: fc.uint8Array({ minLength: 1, maxLength: 16 }),
    mediaType: nonEmpty,
  },
  { requiredKeys: ['kind'], noNullPrototype: true },
);
const call: fc.Arbitrary<ToolCall> = fc.record(
  {
    id: fc.string({ unit: 'binary', maxLength: 8 }),
    name: nonEmpty,
    args: fc.json().map((text) => compactJson(text)),
    signature: nonEmpty,
  },
  { requiredKeys: ['id', 'name', 'args'], noNullPrototype: true },
);
const block: fc.Arbitrary<ThinkingBlock> = fc.record(
  { text: nonEmpty, signature: nonEmpty, redacted: nonEmpty },
  { requiredKeys: [], noNullPrototype: true },
);
const message: fc.Arbitrary<Message> = fc.record(
  {
    role: fc.constantFrom(...ROLES),
    content: nonEmpty,
    parts: fc.array(part, { minLength: 1, maxLength: 3 }),
    toolCalls: fc.array(call, { minLength: 1, maxLength: 3 }),
    toolCallId: nonEmpty,
    toolName: nonEmpty,
    thinking: fc.array(block, { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ['role'], noNullPrototype: true },
);

describe('round-trip properties', () => {
  test('decode(encode(x)) equals x and re-encoding is byte-identical', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 5 }), (messages) => {
        const json = encodeMessages(messages);
        const decoded = decodeMessages(json);
        expect(decoded).toStrictEqual(messages);
        expect(encodeMessages(decoded)).toBe(json);
        expect(parseHistory(JSON.parse(json))).toEqual(messages.map(withParsedArgs));
      }),
      { numRuns: 300 },
    );
  });
});

/** What parseHistory yields for already-parsed input: args re-serialised by JSON.stringify. */
function withParsedArgs(m: Message): Message {
  if (!m.toolCalls) return m;
  return {
    ...m,
    toolCalls: m.toolCalls.map((c) => ({ ...c, args: JSON.stringify(JSON.parse(c.args)) })),
  };
}
