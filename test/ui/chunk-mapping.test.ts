/**
 * The event → chunk mapping on hand-made event sequences (the cases a scripted run cannot easily
 * produce: a discarded attempt, arguments that are not JSON, a run stream that breaks), each
 * checked through the real `ai` parser.
 */
import { RunError } from 'golem';
import {
  createUIMessageStreamResponse,
  toUIMessageStream,
  type UIMessageStreamOptions,
} from 'golem/ui';
import type { RunStreamEvent } from '../../src/core/engine/stream-event-types';
import type { Result } from '../../src/core/engine/result';
import { collect, eventSource, foldMessage, parseSseBytes } from './ai-client';

const usage = { inputTokens: 3, outputTokens: 5 };
const done = (output: string): RunStreamEvent<string> => ({
  type: 'finish',
  // A finished result as the engine makes it (the UI mapping never reads its `state`).
  result: { output, messages: [], usage, requests: 1, toolCalls: 0 } as unknown as Result<string>,
});

async function throughAi(
  events: RunStreamEvent<string>[],
  options?: UIMessageStreamOptions<string>,
) {
  const response = createUIMessageStreamResponse(eventSource(events), options);
  const chunks = await parseSseBytes(response.body as ReadableStream<Uint8Array>);
  return { chunks, ...(await foldMessage(chunks)) };
}

test('a discarded attempt is marked in its own step and the retry streams in the next', async () => {
  const { message } = await throughAi([
    { type: 'turn-start', turn: 0, attempt: 1 },
    { type: 'text-delta', turn: 0, text: 'Hel' },
    { type: 'turn-discarded', turn: 0, attempt: 1, error: new Error('reset') },
    { type: 'turn-start', turn: 0, attempt: 2 },
    { type: 'text-delta', turn: 0, text: 'Hello' },
    done('Hello'),
  ]);
  expect(message?.parts).toEqual([
    { type: 'step-start' },
    { type: 'text', text: 'Hel', state: 'done' },
    { type: 'data-turn-discarded', data: { turn: 0, attempt: 1 } },
    { type: 'step-start' },
    { type: 'text', text: 'Hello', state: 'done' },
  ]);
});

test('tool arguments that are not JSON end the tool part as an input error with the raw text', async () => {
  const { message } = await throughAi([
    { type: 'turn-start', turn: 0, attempt: 1 },
    { type: 'tool-call-start', turn: 0, callId: 'c1', toolName: 'lookup' },
    { type: 'tool-call-delta', turn: 0, callId: 'c1', toolName: 'lookup', argsDelta: '{"q":' },
    { type: 'tool-call-end', turn: 0, callId: 'c1', toolName: 'lookup', args: '{"q":' },
    done(''),
  ]);
  expect(message?.parts[1]).toMatchObject({
    type: 'tool-lookup',
    toolCallId: 'c1',
    state: 'output-error',
    rawInput: '{"q":',
    errorText: 'The arguments of tool "lookup" are not valid JSON.',
  });
});

test('reasoning streams as a reasoning part, or not at all with sendReasoning: false', async () => {
  const events: RunStreamEvent<string>[] = [
    { type: 'turn-start', turn: 0, attempt: 1 },
    { type: 'thinking-delta', turn: 0, text: 'Let me think.' },
    { type: 'text-delta', turn: 0, text: 'Four.' },
    done('Four.'),
  ];
  const withReasoning = await throughAi(events);
  expect(withReasoning.message?.parts.map((p) => p.type)).toEqual([
    'step-start',
    'reasoning',
    'text',
  ]);
  expect(withReasoning.message?.parts[1]).toMatchObject({ text: 'Let me think.', state: 'done' });
  const without = await throughAi(events, { sendReasoning: false });
  expect(without.message?.parts.map((p) => p.type)).toEqual(['step-start', 'text']);
});

test('a run stream that stops without a final event ends with an abort chunk', async () => {
  const { chunks } = await throughAi([
    { type: 'turn-start', turn: 0, attempt: 1 },
    { type: 'text-delta', turn: 0, text: 'Hi' },
  ]);
  expect(chunks.slice(-3)).toEqual([
    { type: 'text-end', id: 'text-1' },
    { type: 'finish-step' },
    { type: 'abort', reason: 'the run stopped before it ended' },
  ]);
});

test('messageId and metadata options reach the start and finish chunks', async () => {
  const { chunks, message } = await throughAi([done('x')], {
    messageId: 'msg-1',
    messageMetadata: (part) => (part.type === 'start' ? { createdAt: 1 } : { model: 'scripted' }),
  });
  expect(chunks[0]).toEqual({
    type: 'start',
    messageId: 'msg-1',
    messageMetadata: { createdAt: 1 },
  });
  expect(message?.id).toBe('msg-1');
  expect(message?.metadata).toEqual({ createdAt: 1, usage, pending: null, model: 'scripted' });
});

test('a failed run sends the error text from errorText, then finish with the stage', async () => {
  const error = new RunError('model', new Error('boom'));
  const { chunks } = await throughAi([{ type: 'error', error }], {
    errorText: (e) => (RunError.is(e) ? `custom ${e.stage}` : 'other'),
  });
  expect(chunks.slice(-2)).toEqual([
    { type: 'error', errorText: 'custom model' },
    { type: 'finish', finishReason: 'error', messageMetadata: { stage: 'model', pending: null } },
  ]);
});

test('cancelling the chunk stream stops the event iteration', async () => {
  const source = eventSource<string>([{ type: 'turn-start', turn: 0, attempt: 1 }]);
  const stream = toUIMessageStream(source);
  const reader = stream.getReader();
  await reader.read();
  await reader.cancel();
  expect(source.returned()).toBe(true);
});

test('bad options are refused with ConfigError', () => {
  const source = eventSource<string>([]);
  expect(() => toUIMessageStream(source, { sendReasoning: 'yes' as unknown as boolean })).toThrow(
    /sendReasoning/,
  );
  expect(() => toUIMessageStream(source, { errorText: 'x' as unknown as () => string })).toThrow(
    /"errorText" must be a function/,
  );
  expect(() => toUIMessageStream(source, { messageId: '' })).toThrow(/messageId/);
});

test('a run that yields no event still opens the message, then aborts it', async () => {
  const chunks = await collect(toUIMessageStream(eventSource<string>([]), { messageId: 'm' }));
  expect(chunks).toEqual([
    { type: 'start', messageId: 'm' },
    { type: 'abort', reason: 'the run stopped before it ended' },
  ]);
});
