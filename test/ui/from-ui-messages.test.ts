/** A client's `UIMessage[]` as run input: history, the new prompt, files and resumes. */
import { fromUIMessages } from 'golem/ui';

const user = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

test('a user message last is the prompt; earlier turns become history, steps split at step-start', () => {
  const turn = fromUIMessages([
    user('u1', 'Weather in Lagos?'),
    {
      id: 'a1',
      role: 'assistant',
      metadata: { runId: 'r1', pending: null },
      parts: [
        { type: 'step-start' },
        { type: 'reasoning', text: 'hidden from history' },
        { type: 'text', text: 'Checking.' },
        {
          type: 'tool-get_weather',
          toolCallId: 'c1',
          state: 'output-available',
          input: { city: 'Lagos' },
          output: 'sunny',
        },
        { type: 'step-start' },
        { type: 'text', text: 'It is sunny.' },
      ],
    },
    user('u2', 'Thanks!'),
  ]);
  expect(turn).toEqual({
    prompt: 'Thanks!',
    parts: [],
    history: [
      { role: 'user', content: 'Weather in Lagos?' },
      {
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [{ id: 'c1', name: 'get_weather', args: '{"city":"Lagos"}' }],
      },
      { role: 'tool', content: 'sunny', toolCallId: 'c1', toolName: 'get_weather' },
      { role: 'assistant', content: 'It is sunny.' },
    ],
  });
});

test('non-string outputs, tool errors and denials become the result texts the model saw', () => {
  const { history } = fromUIMessages([
    user('u1', 'go'),
    {
      id: 'a1',
      role: 'assistant',
      parts: [
        {
          type: 'dynamic-tool',
          toolName: 'count',
          toolCallId: 'c1',
          state: 'output-available',
          input: {},
          output: { n: 2 },
        },
        {
          type: 'tool-fail',
          toolCallId: 'c2',
          state: 'output-error',
          input: undefined,
          rawInput: '{"x":',
          errorText: 'bad args',
        },
        {
          type: 'tool-wipe',
          toolCallId: 'c3',
          state: 'output-denied',
          input: {},
          approval: { id: 'c3', approved: false, reason: 'no' },
        },
      ],
    },
    user('u2', 'next'),
  ]);
  expect(history.slice(1)).toEqual([
    {
      role: 'assistant',
      toolCalls: [
        { id: 'c1', name: 'count', args: '{}' },
        { id: 'c2', name: 'fail', args: '{"x":' },
        { id: 'c3', name: 'wipe', args: '{}' },
      ],
    },
    { role: 'tool', content: '{"n":2}', toolCallId: 'c1', toolName: 'count' },
    { role: 'tool', content: 'bad args', toolCallId: 'c2', toolName: 'fail' },
    {
      role: 'tool',
      content: 'Your tool call was denied: no. Do not call it again; continue without its result.',
      toolCallId: 'c3',
      toolName: 'wipe',
    },
  ]);
});

test('a step marked discarded is dropped from history', () => {
  const { history } = fromUIMessages([
    user('u1', 'hi'),
    {
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        { type: 'text', text: 'Hel' },
        { type: 'tool-x', toolCallId: 'c0', state: 'input-streaming', input: undefined },
        { type: 'data-turn-discarded', data: { turn: 0, attempt: 1 } },
        { type: 'step-start' },
        { type: 'text', text: 'Hello' },
      ],
    },
    user('u2', 'again'),
  ]);
  expect(history).toEqual([
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'Hello' },
  ]);
});

test('file parts become prompt parts: data URLs as bytes, http URLs by reference', () => {
  const turn = fromUIMessages([
    {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'text', text: 'What is this?' },
        { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,AAEC' },
        {
          type: 'file',
          mediaType: 'application/pdf',
          url: 'https://example.com/a.pdf',
          filename: 'a.pdf',
        },
      ],
    },
  ]);
  expect(turn.prompt).toBe('What is this?');
  expect(turn.parts).toEqual([
    { kind: 'image', mediaType: 'image/png', data: new Uint8Array([0, 1, 2]) },
    {
      kind: 'document',
      mediaType: 'application/pdf',
      url: 'https://example.com/a.pdf',
      name: 'a.pdf',
    },
  ]);
});

test('a paused assistant message with decisions and external results is a resume', () => {
  const turn = fromUIMessages([
    user('u1', 'Delete the file and fetch the report'),
    {
      id: 'a1',
      role: 'assistant',
      metadata: { runId: 'run-7', pending: { approvals: ['c1', 'c2'], external: ['c3'] } },
      parts: [
        { type: 'step-start' },
        {
          type: 'tool-delete',
          toolCallId: 'c1',
          state: 'approval-responded',
          input: { path: 'a' },
          approval: { id: 'c1', approved: true },
        },
        {
          type: 'tool-delete',
          toolCallId: 'c2',
          state: 'approval-responded',
          input: { path: 'b' },
          approval: { id: 'c2', approved: false, reason: 'keep b' },
        },
        {
          type: 'tool-report',
          toolCallId: 'c3',
          state: 'output-available',
          input: {},
          output: 'Q3: up',
        },
        {
          type: 'tool-clock',
          toolCallId: 'c4',
          state: 'output-available',
          input: {},
          output: '12:00',
        },
      ],
    },
  ]);
  expect(turn.prompt).toBe('');
  expect(turn.resume).toEqual({
    results: {
      approvals: { c1: { approved: true }, c2: { approved: false, reason: 'keep b' } },
      external: { c3: 'Q3: up' },
    },
    runId: 'run-7',
    messageId: 'a1',
  });
  // The deferred calls stay unanswered in the history; the call that ran keeps its result.
  expect(turn.history.slice(1)).toEqual([
    {
      role: 'assistant',
      toolCalls: [
        { id: 'c1', name: 'delete', args: '{"path":"a"}' },
        { id: 'c2', name: 'delete', args: '{"path":"b"}' },
        { id: 'c3', name: 'report', args: '{}' },
        { id: 'c4', name: 'clock', args: '{}' },
      ],
    },
    { role: 'tool', content: '12:00', toolCallId: 'c4', toolName: 'clock' },
  ]);
});
