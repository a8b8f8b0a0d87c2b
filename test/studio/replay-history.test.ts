import type { Message } from 'golem';
import { replayStart } from '../../src/studio/replay-history';

const history: Message[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'first', parts: [{ kind: 'image', url: 'https://x/y.png' }] },
  { role: 'assistant', toolCalls: [{ id: 'a', name: 't', args: '{}' }] },
  { role: 'tool', toolCallId: 'a', toolName: 't', content: 'A' },
  { role: 'assistant', content: 'done one' },
  { role: 'user', content: 'second' },
  { role: 'assistant', toolCalls: [{ id: 'b', name: 't', args: '{}' }] },
  { role: 'tool', toolCallId: 'b', toolName: 't', content: 'B' },
  { role: 'assistant', content: 'done two' },
];

test('turn 0 keeps what preceded the first assistant message; its user message becomes the prompt', () => {
  const start = replayStart(history, { fromTurn: 0 });
  expect(start).toEqual({
    history: [],
    prompt: 'first',
    parts: [{ kind: 'image', url: 'https://x/y.png' }],
    ignored: [],
  });
});

test('a turn after tool results keeps them; the prompt is empty; a changed result replaces one', () => {
  const start = replayStart(history, { fromTurn: 1, toolResults: { a: 'changed', zz: 'x' } });
  if ('refused' in start) throw new Error(start.refused);
  expect(start.prompt).toBe('');
  expect(start.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  expect(start.history[2]?.content).toBe('changed');
  expect(start.ignored).toEqual(['zz']);
  expect(history[3]?.content).toBe('A'); // the input is not changed
});

test('prompt replaces the last kept user message, which starts the replay', () => {
  const start = replayStart(history, { fromTurn: 2, prompt: 'other' });
  if ('refused' in start) throw new Error(start.refused);
  expect(start.prompt).toBe('other');
  expect(start.history.map((m) => m.content)).toEqual(['first', undefined, 'A', 'done one']);
  expect(history[5]?.content).toBe('second');
});

test('a prompt change on a history ending in results changes the earlier user message', () => {
  const start = replayStart(history, { fromTurn: 3, prompt: 'edited' });
  if ('refused' in start) throw new Error(start.refused);
  expect(start.prompt).toBe('');
  expect(start.history.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
    'first',
    'edited',
  ]);
});

test('fromTurn = turns keeps everything; out of range and fractional turns are refused', () => {
  const all = replayStart(history, { fromTurn: 4 });
  if ('refused' in all) throw new Error(all.refused);
  expect(all.history).toHaveLength(8);
  expect(replayStart(history, { fromTurn: 5 })).toEqual({
    refused: expect.stringContaining('from 0 to 4') as unknown,
  });
  expect('refused' in replayStart(history, { fromTurn: -1 })).toBe(true);
  expect('refused' in replayStart(history, { fromTurn: 1.5 })).toBe(true);
  expect('refused' in replayStart([], { fromTurn: 0, prompt: 'x' })).toBe(true);
});
