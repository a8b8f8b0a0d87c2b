/** What a run event becomes on the cross-process feed: its JSON form, every field a UI needs kept. */
import { expectTypeOf } from 'expect-type';
import type { JsonValue } from '../../../src/core/kit/json';
import type { FeedRunEvent } from 'golem/queue';
import { feedRunEvent } from '../../../src/queue/feed-events';

test('a denied or external resolution on resume keeps its kind, call and resolution', () => {
  const denied = feedRunEvent({
    kind: 'tool_resolved',
    turn: 0,
    callId: 'c1',
    toolName: 'refund',
    args: '{"amount":5}',
    result: 'denied: not today',
    resolution: 'denied',
  });
  expect(denied).toEqual({
    kind: 'tool_resolved',
    turn: 0,
    callId: 'c1',
    toolName: 'refund',
    args: '{"amount":5}',
    result: 'denied: not today',
    resolution: 'denied',
  });
  expect(JSON.parse(JSON.stringify(denied))).toEqual(denied);
});

test('an event without a resolution carries no resolution field', () => {
  const ended = feedRunEvent({
    kind: 'tool_end',
    turn: 1,
    callId: 'c2',
    toolName: 'sum',
    args: '{}',
    result: '3',
  });
  expect(ended).toEqual({
    kind: 'tool_end',
    turn: 1,
    callId: 'c2',
    toolName: 'sum',
    args: '{}',
    result: '3',
  });
  expect('resolution' in ended).toBe(false);
});

test('an error becomes its description, never the error object', () => {
  const failed = feedRunEvent({
    kind: 'tool_end',
    turn: 1,
    callId: 'c3',
    toolName: 'sum',
    args: '{}',
    error: new TypeError('bad input'),
  });
  if (failed.kind !== 'tool_end') throw new Error('kind changed');
  expect(typeof failed.error).toBe('string');
  expect(failed.error).toContain('bad input');
});

test('model events keep every field but the request; a model_end keeps its answer, ids and cost', () => {
  const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
  expect(
    feedRunEvent({ kind: 'model_start', turn: 0, attempt: 1, model: 'openai:m', request }),
  ).toEqual({ kind: 'model_start', turn: 0, attempt: 1, model: 'openai:m' });
  const answered = feedRunEvent({
    kind: 'model_end',
    turn: 0,
    attempt: 1,
    model: 'openai:m',
    usage: { inputTokens: 3, outputTokens: 1 },
    message: { role: 'assistant', content: 'hello' },
    responseId: 'r1',
    responseModel: 'm-2025',
    finishReason: 'stop',
    cost: { total: 2, input: 1, output: 1, currency: 'USD' },
  });
  expect(answered).toEqual({
    kind: 'model_end',
    turn: 0,
    attempt: 1,
    model: 'openai:m',
    usage: { inputTokens: 3, outputTokens: 1 },
    message: { role: 'assistant', content: 'hello' },
    responseId: 'r1',
    responseModel: 'm-2025',
    finishReason: 'stop',
    cost: { total: 2, input: 1, output: 1, currency: 'USD' },
  });
  const fallback = feedRunEvent({
    kind: 'fallback',
    turn: 0,
    attempt: 1,
    model: 'a',
    nextModel: 'b',
    error: new Error('down'),
  });
  expect(fallback).toEqual({
    kind: 'fallback',
    turn: 0,
    attempt: 1,
    model: 'a',
    nextModel: 'b',
    error: expect.stringContaining('down') as unknown,
  });
});

test('a guardrail keeps its check; a tool log keeps its data as JSON (null when it is not JSON)', () => {
  const check = {
    name: 'pii',
    phase: 'tool_input' as const,
    outcome: 'trip' as const,
    reason: 'x',
  };
  expect(
    feedRunEvent({ kind: 'guardrail', turn: 2, callId: 'c1', toolName: 'pay', guardrail: check }),
  ).toEqual({ kind: 'guardrail', turn: 2, callId: 'c1', toolName: 'pay', guardrail: check });
  const at = { turn: 0, callId: 'c1', toolName: 'fetch' };
  expect(
    feedRunEvent({
      kind: 'tool_log',
      ...at,
      update: { kind: 'log', level: 'info', data: { n: 1 } },
    }),
  ).toEqual({ kind: 'tool_log', ...at, update: { kind: 'log', level: 'info', data: { n: 1 } } });
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  expect(
    feedRunEvent({
      kind: 'tool_log',
      ...at,
      update: { kind: 'log', level: 'warn', data: circular },
    }),
  ).toEqual({ kind: 'tool_log', ...at, update: { kind: 'log', level: 'warn', data: null } });
});

test('FeedRunEvent is the JSON form of the RunEvent union: narrowed by kind, errors as text', () => {
  const narrow = (event: FeedRunEvent): void => {
    switch (event.kind) {
      case 'model_start':
        expectTypeOf(event).toEqualTypeOf<{
          kind: 'model_start';
          turn: number;
          attempt: number;
          model?: string;
          contextTokens?: number;
        }>();
        return;
      case 'model_end':
        if (event.message === undefined) expectTypeOf(event.error).toEqualTypeOf<string>();
        else expectTypeOf(event.error).toEqualTypeOf<undefined>();
        return;
      case 'tool_end':
        expectTypeOf(event.callId).toEqualTypeOf<string>();
        return;
      case 'tool_log':
        expectTypeOf(event.update.data).toEqualTypeOf<JsonValue>();
        return;
      case 'output_rejected':
        expectTypeOf(event.error).toEqualTypeOf<string>();
        // @ts-expect-error output_rejected has no turn (turns restart with the round)
        expect(event.turn).toBeUndefined();
        return;
      default:
        return;
    }
  };
  narrow(feedRunEvent({ kind: 'output_rejected', attempt: 1, error: new Error('no') }));
});
