import type { Message } from 'golem';
import {
  checkpointsOf,
  deriveTimeline,
  isErrorResult,
  prettyArgs,
} from '../../src/studio/timeline';

const history: Message[] = [
  { role: 'system', content: 'be brief' },
  { role: 'user', content: 'weather in Paris and Rome?' },
  {
    role: 'assistant',
    content: 'Looking it up.',
    thinking: [{ text: 'two cities' }, { redacted: 'xx' }],
    toolCalls: [
      { id: 'c2', name: 'weather', args: '{"city":"Rome"}' },
      { id: 'c1', name: 'weather', args: '{"city":"Paris"}' },
    ],
  },
  // results in another order than the calls: matched by id
  { role: 'tool', toolCallId: 'c1', toolName: 'weather', content: 'sunny' },
  {
    role: 'tool',
    toolCallId: 'c2',
    toolName: 'weather',
    content:
      'Your tool call was rejected: bad city. Correct the arguments and call the tool again.',
  },
  { role: 'assistant', toolCalls: [{ id: 'c3', name: 'weather', args: 'not json' }] },
  { role: 'tool', toolCallId: 'c3', toolName: 'weather', content: 'rainy' },
  { role: 'assistant', content: 'Paris sunny, Rome rainy.' },
  { role: 'user', content: 'book Rome' },
  {
    role: 'assistant',
    toolCalls: [
      { id: 'p1', name: 'book', args: '{}' },
      { id: 'f1', name: 'charge', args: '{"eur":1}' },
      { id: 'x1', name: 'ship', args: '' },
    ],
  },
];

test('one turn per assistant message, with prompts, text, readable thinking and message indexes', () => {
  const turns = deriveTimeline(history);
  expect(turns.map((t) => t.index)).toEqual([0, 1, 2, 3]);
  expect(turns.map((t) => t.messageIndex)).toEqual([2, 5, 7, 9]);
  expect(turns.map((t) => t.prompt)).toEqual([
    'weather in Paris and Rome?',
    undefined,
    undefined,
    'book Rome',
  ]);
  expect(turns[0]?.text).toBe('Looking it up.');
  expect(turns[0]?.thinking).toEqual(['two cities']);
  expect(turns[1]?.text).toBeUndefined();
  expect(turns[1]?.thinking).toBeUndefined();
  expect(turns[2]?.text).toBe('Paris sunny, Rome rainy.');
  expect(turns[2]?.toolCalls).toEqual([]);
});

test('tool results are matched by toolCallId, errors flagged, args pretty-printed', () => {
  const [first, second] = deriveTimeline(history);
  expect(first?.toolCalls).toEqual([
    {
      id: 'c2',
      name: 'weather',
      args: '{\n  "city": "Rome"\n}',
      result: expect.stringContaining('rejected') as unknown,
      isError: true,
    },
    { id: 'c1', name: 'weather', args: '{\n  "city": "Paris"\n}', result: 'sunny', isError: false },
  ]);
  expect(second?.toolCalls[0]).toEqual({
    id: 'c3',
    name: 'weather',
    args: 'not json',
    result: 'rainy',
    isError: false,
  });
});

test('pending and in-flight calls are marked; a call without a mark stays unanswered', () => {
  const turns = deriveTimeline(history, {
    pending: {
      approvals: [{ callId: 'p1', toolName: 'book', args: '{}', reason: 'confirm' }],
      external: [],
    },
    inFlight: ['f1'],
  });
  expect(turns[3]?.toolCalls).toEqual([
    { id: 'p1', name: 'book', args: '{}', pending: true },
    { id: 'f1', name: 'charge', args: '{\n  "eur": 1\n}', inFlight: true },
    { id: 'x1', name: 'ship', args: '' },
  ]);
});

test('a denial and an output rejection are errors; other texts are not', () => {
  expect(
    isErrorResult('Your tool call was denied. Do not call it again; continue without its result.'),
  ).toBe(true);
  expect(
    isErrorResult('Your result was rejected: x. Correct the arguments and call out again.'),
  ).toBe(true);
  expect(isErrorResult('all good: Your tool call was rejected:')).toBe(false);
  expect(prettyArgs('[1,2]')).toBe('[\n  1,\n  2\n]');
});

test('checkpoints run from 0 to the number of turns; an empty history has one', () => {
  expect(checkpointsOf(deriveTimeline(history))).toEqual([0, 1, 2, 3, 4]);
  expect(deriveTimeline([])).toEqual([]);
  expect(checkpointsOf([])).toEqual([0]);
});

test('an empty user message (where a replay continued after tool results) is not a prompt', () => {
  const turns = deriveTimeline([
    { role: 'user', content: 'ship it' },
    { role: 'assistant', toolCalls: [{ id: 'c1', name: 'ship', args: '{}' }] },
    { role: 'tool', content: 'shipped', toolCallId: 'c1', toolName: 'ship' },
    { role: 'user' },
    { role: 'assistant', content: 'Shipped.' },
  ]);
  expect(turns.map((t) => t.prompt)).toEqual(['ship it', undefined]);
});
