/**
 * A message's prompt-cache breakpoint (`cachePoint: true`, issue 17) in the durable JSON: an
 * additive key, last of the message's keys, written only when true; `false`, `null` and absence
 * all read as absent; anything else is a `HistoryFormatError` naming the message and the field.
 */
import {
  HistoryFormatError,
  decodeMessages,
  encodeMessage,
  encodeMessages,
  parseHistory,
  type Message,
} from 'golem';

const handbook: Message = { role: 'user', content: 'The handbook: …', cachePoint: true };
const answer: Message = {
  role: 'assistant',
  content: 'Read it.',
  responseId: 'resp_1',
  cachePoint: true,
};

test('cachePoint: true round trips, after every other key of the message', () => {
  const text = encodeMessages([handbook, answer, { role: 'user', content: 'Leave?' }]);
  expect(text).toBe(
    '[{"role":"user","content":"The handbook: …","cachePoint":true},' +
      '{"role":"assistant","content":"Read it.","responseId":"resp_1","cachePoint":true},' +
      '{"role":"user","content":"Leave?"}]',
  );
  expect(decodeMessages(text)).toEqual([handbook, answer, { role: 'user', content: 'Leave?' }]);
  expect(parseHistory(JSON.parse(text))).toEqual(decodeMessages(text));
});

test('false and absent encode alike; false, null and absent decode as absent', () => {
  expect(encodeMessage({ role: 'user', content: 'hi', cachePoint: false })).toBe(
    '{"role":"user","content":"hi"}',
  );
  const read = decodeMessages(
    '[{"role":"user","content":"a","cachePoint":false},{"role":"user","content":"b","cachePoint":null},{"role":"user","content":"c"}]',
  );
  expect(read).toEqual([
    { role: 'user', content: 'a' },
    { role: 'user', content: 'b' },
    { role: 'user', content: 'c' },
  ]);
  for (const message of read) expect(Object.hasOwn(message, 'cachePoint')).toBe(false);
});

test('a cachePoint that is not a boolean is refused both ways, naming the message and field', () => {
  const stored = '[{"role":"user","content":"a"},{"role":"user","content":"b","cachePoint":"yes"}]';
  const decoded: unknown = (() => {
    try {
      return decodeMessages(stored);
    } catch (error) {
      return error;
    }
  })();
  expect(decoded).toBeInstanceOf(HistoryFormatError);
  expect(decoded).toMatchObject({ index: 1, field: 'cachePoint' });
  expect(() => parseHistory([{ role: 'user', content: 'a', cachePoint: 1 }])).toThrow(
    HistoryFormatError,
  );
  const wrong = { role: 'user', content: 'a', cachePoint: 'true' } as unknown as Message;
  expect(() => encodeMessages([wrong])).toThrow('history message 0: cachePoint must be a boolean');
});
