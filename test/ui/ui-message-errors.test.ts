/** What `fromUIMessages` refuses, with a `UIMessageError` naming the culprit. */
import fc from 'fast-check';
import { fromUIMessages, UIMessageError } from 'golem/ui';

const user = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

function refusal(messages: unknown): UIMessageError {
  try {
    fromUIMessages(messages);
  } catch (error) {
    if (UIMessageError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a UIMessageError');
}

test.each([
  ['not an array', { messages: [] }, 'messages', /array of UI messages/],
  ['an empty list', [], 'messages', /no message to answer/],
  ['a message without id', [{ role: 'user', parts: [] }], 'messages[0].id', /non-empty string id/],
  ['an unknown role', [{ id: 'x', role: 'tool', parts: [] }], 'messages[0].role', /role must be/],
  [
    'a system message',
    [{ id: 's', role: 'system', parts: [] }, user('u', 'hi')],
    'messages[0].role',
    /set instructions on the agent/,
  ],
  [
    'an empty new message',
    [{ id: 'u', role: 'user', parts: [{ type: 'text', text: ' ' }] }],
    'messages[0]',
    /no text and no files/,
  ],
  [
    'an unknown user part',
    [{ id: 'u', role: 'user', parts: [{ type: 'video', url: 'x' }] }],
    'messages[0].parts[0]',
    /"video" is not accepted/,
  ],
  [
    'an unknown assistant part',
    [user('u', 'a'), { id: 'a', role: 'assistant', parts: [{ type: 'widget' }] }, user('v', 'b')],
    'messages[1].parts[0]',
    /unknown part type "widget"/,
  ],
  [
    'a part without type',
    [{ id: 'u', role: 'user', parts: [{ text: 'x' }] }],
    'messages[0].parts[0]',
    /string type/,
  ],
  [
    'a bad file url',
    [
      {
        id: 'u',
        role: 'user',
        parts: [{ type: 'file', mediaType: 'image/png', url: 'file:///etc/passwd' }],
      },
    ],
    'messages[0].parts[0].url',
    /data: or http/,
  ],
])('refuses %s with a UIMessageError naming the culprit', (_name, input, path, problem) => {
  const error = refusal(input);
  expect(error.path).toBe(path);
  expect(error.message).toMatch(problem);
});

test.each([
  ['input-streaming', {}, /still streaming its arguments/],
  ['approval-requested', { approval: { id: 'c1' } }, /awaits an approval decision/],
  ['approval-responded', { approval: { id: 'c1', approved: true } }, /never resumed/],
  ['exploded', {}, /unknown tool part state "exploded"/],
])('a tool part in state %s cannot be history', (state, extra, problem) => {
  const error = refusal([
    user('u1', 'go'),
    {
      id: 'a1',
      role: 'assistant',
      parts: [{ type: 'tool-x', toolCallId: 'c1', state, input: {}, ...extra }],
    },
    user('u2', 'again'),
  ]);
  expect(error.path).toMatch(/^messages\[1\]\.parts\[0\]/);
  expect(error.message).toMatch(problem);
});

test('an assistant message last without any decision has nothing to resume', () => {
  const error = refusal([
    user('u1', 'hi'),
    { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Hello' }] },
  ]);
  expect(error.message).toMatch(/no decision or result to resume with/);
});

test('malformed resume metadata is refused', () => {
  const paused = (metadata: unknown) => [
    user('u1', 'go'),
    {
      id: 'a1',
      role: 'assistant',
      metadata,
      parts: [
        {
          type: 'tool-x',
          toolCallId: 'c1',
          state: 'approval-responded',
          input: {},
          approval: { id: 'c1', approved: true },
        },
      ],
    },
  ];
  expect(refusal(paused({ runId: 7 })).path).toBe('messages[1].metadata.runId');
  expect(refusal(paused({ pending: { external: 'c1' } })).path).toBe(
    'messages[1].metadata.pending.external',
  );
  expect(refusal(paused('meta')).path).toBe('messages[1].metadata');
});

test('any JSON input either converts or is refused with UIMessageError, never anything else', () => {
  const part = fc.oneof(
    fc.record(
      {
        type: fc.constantFrom(
          'text',
          'file',
          'step-start',
          'tool-x',
          'dynamic-tool',
          'reasoning',
          'data-y',
        ),
        text: fc.anything(),
        state: fc.anything(),
        toolCallId: fc.anything(),
        url: fc.anything(),
        mediaType: fc.anything(),
        approval: fc.anything(),
      },
      { requiredKeys: ['type'] },
    ),
    fc.anything(),
  );
  const message = fc.record(
    {
      id: fc.oneof(fc.string(), fc.anything()),
      role: fc.constantFrom('user', 'assistant', 'system', 'x'),
      parts: fc.oneof(fc.array(part, { maxLength: 4 }), fc.anything()),
      metadata: fc.anything(),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(fc.oneof(fc.array(message, { maxLength: 4 }), fc.anything()), (input) => {
      try {
        fromUIMessages(input);
      } catch (error) {
        if (!UIMessageError.is(error)) throw error;
      }
    }),
    { numRuns: 300 },
  );
});
