/**
 * The pieces of the client that need no peer: the reason a paused call carries (and reads back),
 * and what the remote model sends for a conversation.
 */
import { pendingA2ATask, pendingReason } from '../../src/a2a/client/pending-task';
import { outgoing } from '../../src/a2a/client/remote-model';

describe('pendingA2ATask', () => {
  test('reads back what pendingReason wrote, ids with quotes and braces included', () => {
    const task = {
      taskId: 'task "1" {x}',
      contextId: 'ctx-1',
      needs: 'authorization' as const,
      question: 'Sign in at\nexample.com',
    };
    const reason = pendingReason(task);
    expect(reason.startsWith('A2A task {"taskId":"task \\"1\\" {x}"')).toBe(true);
    expect(pendingA2ATask({ reason })).toEqual(task);
  });

  test('a question may be empty', () => {
    const reason = pendingReason({ taskId: 't', contextId: '', needs: 'input', question: '' });
    expect(reason).toBe('A2A task {"taskId":"t","contextId":""} needs input');
    expect(pendingA2ATask({ reason })).toEqual({
      taskId: 't',
      contextId: '',
      needs: 'input',
      question: '',
    });
  });

  test.each([
    ['another deferral', 'needs a manager'],
    ['no ids', 'A2A task needs input'],
    ['broken JSON', 'A2A task {"taskId": needs input'],
    ['an empty task id', 'A2A task {"taskId":"","contextId":"c"} needs input'],
    ['a number id', 'A2A task {"taskId":1,"contextId":"c"} needs input'],
  ])('%s is not an A2A pause', (_label, reason) => {
    expect(pendingA2ATask({ reason })).toBeUndefined();
  });
});

describe('outgoing (what the remote agent is sent)', () => {
  test('a first run with one user message sends just that message', () => {
    expect(outgoing([{ role: 'user', content: 'hello' }])).toEqual({
      parts: [{ text: 'hello' }],
      continuation: undefined,
    });
  });

  test('a handoff sends the conversation as a transcript, without tool traffic or system', () => {
    const { parts } = outgoing([
      { role: 'system', content: 'secret instructions' },
      { role: 'user', content: 'I was charged twice' },
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [{ id: 'a', name: 'x', args: '{}' }],
      },
      { role: 'tool', content: 'charged twice', toolCallId: 'a', toolName: 'x' },
      {
        role: 'user',
        content: 'Please refund',
        parts: [{ kind: 'image', url: 'https://x/y.png' }],
      },
    ]);
    expect(parts).toEqual([
      { text: 'The conversation so far:' },
      { text: 'user: I was charged twice' },
      { text: 'assistant: Let me check.' },
      { text: 'user: Please refund' },
      { url: 'https://x/y.png' },
    ]);
  });

  test('after a remote reply only the new user messages go, continuing its context and task', () => {
    const id = 'a2a:{"contextId":"c1","taskId":"t1","state":"TASK_STATE_INPUT_REQUIRED"}';
    expect(
      outgoing([
        { role: 'user', content: 'book' },
        { role: 'assistant', content: 'Which night?', responseId: id },
        { role: 'user', content: 'Friday' },
        {
          role: 'user',
          content: '',
          parts: [{ kind: 'document', data: new Uint8Array([1, 2]), mediaType: 'application/pdf' }],
        },
      ]),
    ).toEqual({
      parts: [{ text: 'Friday' }, { raw: 'AQI=', mediaType: 'application/pdf' }],
      continuation: { contextId: 'c1', taskId: 't1', state: 'TASK_STATE_INPUT_REQUIRED' },
    });
  });

  test('a foreign or malformed responseId starts afresh', () => {
    const { continuation } = outgoing([
      { role: 'assistant', content: 'hi', responseId: 'a2a:{not json' },
      { role: 'assistant', content: 'ho', responseId: 'resp_123' },
      { role: 'user', content: 'x' },
    ]);
    expect(continuation).toBeUndefined();
  });

  test('nothing new to say is an A2A error, not an empty message', () => {
    const id = 'a2a:{"contextId":"c1","taskId":"t1","state":"TASK_STATE_COMPLETED"}';
    expect(() => outgoing([{ role: 'assistant', content: 'done', responseId: id }])).toThrow(
      /no new user message/,
    );
  });
});
