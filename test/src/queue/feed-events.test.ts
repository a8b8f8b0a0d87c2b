/** What a run event becomes on the cross-process feed: plain JSON, every field a UI needs kept. */
import { feedRunEvent } from '../../../src/queue/feed-events';

test('a denied or external resolution on resume keeps its kind, call and resolution', () => {
  const denied = feedRunEvent({
    kind: 'tool_resolved',
    turn: 0,
    attempt: 0,
    callId: 'c1',
    toolName: 'refund',
    args: '{"amount":5}',
    result: 'denied: not today',
    resolution: 'denied',
  });
  expect(denied).toEqual({
    kind: 'tool_resolved',
    turn: 0,
    attempt: 0,
    callId: 'c1',
    toolName: 'refund',
    args: '{"amount":5}',
    result: 'denied: not today',
    resolution: 'denied',
  });
  expect(JSON.parse(JSON.stringify(denied))).toEqual(denied);
});

test('an event without a resolution carries no resolution field', () => {
  const ended = feedRunEvent({ kind: 'tool_end', turn: 1, attempt: 0, callId: 'c2', result: '3' });
  expect(ended).toEqual({ kind: 'tool_end', turn: 1, attempt: 0, callId: 'c2', result: '3' });
  expect('resolution' in ended).toBe(false);
});

test('an error becomes its description, never the error object', () => {
  const failed = feedRunEvent({
    kind: 'tool_end',
    turn: 1,
    attempt: 0,
    callId: 'c3',
    error: new TypeError('bad input'),
  });
  expect(typeof failed.error).toBe('string');
  expect(failed.error).toContain('bad input');
});
