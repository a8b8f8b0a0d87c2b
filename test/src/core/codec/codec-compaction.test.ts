/**
 * A message's provider compaction item (`compaction: {provider, model?, id?, data}`) in the
 * durable JSON: additive, after the evidence fields and before `cachePoint`; `null` and absence
 * read as absent; a malformed item is a `HistoryFormatError` naming the message and the field,
 * both ways; stored JSON without it decodes as before.
 */
import fc from 'fast-check';
import {
  HistoryFormatError,
  decodeMessages,
  encodeMessage,
  encodeMessages,
  parseHistory,
  type Message,
} from 'golem';
import { cloneMessage } from '../../../../src/core/contract/message';

const compacted: Message = {
  role: 'assistant',
  content: 'The disk is full.',
  responseId: 'resp_1',
  compaction: { provider: 'openai-responses', model: 'gpt-5', id: 'cmp_1', data: 'ENC==' },
  cachePoint: true,
};

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

test('a compaction item round trips, keys in contract order, before cachePoint', () => {
  const text = encodeMessages([{ role: 'user', content: 'Next?' }, compacted]);
  expect(text).toBe(
    '[{"role":"user","content":"Next?"},' +
      '{"role":"assistant","content":"The disk is full.","responseId":"resp_1",' +
      '"compaction":{"provider":"openai-responses","model":"gpt-5","id":"cmp_1","data":"ENC=="},' +
      '"cachePoint":true}]',
  );
  expect(decodeMessages(text)).toEqual([{ role: 'user', content: 'Next?' }, compacted]);
  expect(parseHistory(JSON.parse(text))).toEqual(decodeMessages(text));
});

test('the optional keys may be absent; null, empty and unknown keys read as absent', () => {
  const minimal: Message = { role: 'assistant', compaction: { provider: 'p', data: 'd' } };
  expect(encodeMessage(minimal)).toBe(
    '{"role":"assistant","compaction":{"provider":"p","data":"d"}}',
  );
  const read = decodeMessages(
    '[{"role":"assistant","compaction":{"provider":"p","data":"d","id":null,"model":"","extra":1}},' +
      '{"role":"assistant","content":"x","compaction":null}]',
  );
  expect(read).toEqual([minimal, { role: 'assistant', content: 'x' }]);
  expect(Object.hasOwn(read[1]!, 'compaction')).toBe(false);
});

test('stored history without the field decodes exactly as before', () => {
  const old = '[{"role":"assistant","content":"Hi","responseId":"resp_0","cachePoint":true}]';
  const [message] = decodeMessages(old);
  expect(message).toEqual({
    role: 'assistant',
    content: 'Hi',
    responseId: 'resp_0',
    cachePoint: true,
  });
  expect(Object.hasOwn(message!, 'compaction')).toBe(false);
  expect(encodeMessages(decodeMessages(old))).toBe(old);
});

test.each([
  ['not an object', '"ENC"', 'compaction', 'must be an object'],
  ['an array', '[]', 'compaction', 'must be an object'],
  ['no provider', '{"data":"d"}', 'compaction.provider', 'must be a non-empty string'],
  [
    'an empty provider',
    '{"provider":"","data":"d"}',
    'compaction.provider',
    'must be a non-empty string',
  ],
  ['no data', '{"provider":"p"}', 'compaction.data', 'must be a non-empty string'],
  ['numeric data', '{"provider":"p","data":7}', 'compaction.data', 'must be a string'],
  ['a numeric id', '{"provider":"p","data":"d","id":1}', 'compaction.id', 'must be a string'],
  [
    'an object model',
    '{"provider":"p","data":"d","model":{}}',
    'compaction.model',
    'must be a string',
  ],
])(
  'a compaction item with %s is refused both ways, naming the field',
  (_, item, field, problem) => {
    const stored = `[{"role":"user","content":"a"},{"role":"assistant","compaction":${item}}]`;
    const decoded = caught(() => decodeMessages(stored));
    expect(decoded).toBeInstanceOf(HistoryFormatError);
    expect(decoded).toMatchObject({ index: 1, field, problem });
    expect(caught(() => parseHistory(JSON.parse(stored)))).toMatchObject({ index: 1, field });
    const wrong = JSON.parse(stored) as Message[];
    expect(caught(() => encodeMessages(wrong))).toMatchObject({ index: 1, field, problem });
  },
);

test('any compaction item of non-empty strings round trips (property)', () => {
  const text = fc.string({ minLength: 1 });
  fc.assert(
    fc.property(
      text,
      text,
      fc.option(text, { nil: undefined }),
      fc.option(text, { nil: undefined }),
      (provider, data, id, model) => {
        const message: Message = { role: 'assistant', compaction: { provider, data } };
        if (id !== undefined) message.compaction!.id = id;
        if (model !== undefined) message.compaction!.model = model;
        expect(decodeMessages(encodeMessages([message]))).toEqual([message]);
      },
    ),
  );
});

test('cloneMessage copies the compaction item', () => {
  const copy = cloneMessage(compacted);
  expect(copy).toEqual(compacted);
  expect(copy.compaction).not.toBe(compacted.compaction);
});
