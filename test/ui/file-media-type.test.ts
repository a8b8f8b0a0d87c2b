/**
 * A file part whose `data:` URL names a media type other than the part's declared `mediaType` is
 * refused — by `fromUIMessages` with a `UIMessageError` naming the part's url, and by the chat
 * route with HTTP 400 before any run — never sent on as the declared type.
 */
import { Agent } from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';
import { fromUIMessages, pipeChat, UIMessageError } from 'golem/ui';
import { serve } from './chat-client';

const PDF = 'data:application/pdf;base64,JVBERi0xLjQK';

const withFile = (file: Record<string, unknown>) => [
  {
    id: 'u1',
    role: 'user',
    parts: [
      { type: 'text', text: 'What is this?' },
      { type: 'file', ...file },
    ],
  },
];

function refusal(messages: unknown): UIMessageError {
  try {
    fromUIMessages(messages);
  } catch (error) {
    if (UIMessageError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a UIMessageError');
}

test('a data: URL of another media type than the declared one is refused, naming the part', () => {
  const error = refusal(withFile({ mediaType: 'image/png', url: PDF }));
  expect(error.path).toBe('messages[0].parts[1].url');
  expect(error.message).toBe(
    'messages[0].parts[1].url: the data: URL\'s media type "application/pdf" is not the part\'s mediaType "image/png"',
  );
});

test('a percent-encoded data: URL is held to its media type too', () => {
  const error = refusal(withFile({ mediaType: 'text/plain', url: 'data:text/html,%3Cb%3Ehi' }));
  expect(error.path).toBe('messages[0].parts[1].url');
});

test('the same type with other case or parameters, or a data: URL naming none, is accepted', () => {
  const turn = fromUIMessages([
    {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'file', mediaType: 'image/png', url: 'data:Image/PNG;base64,AAEC' },
        { type: 'file', mediaType: 'text/plain', url: 'data:text/plain;charset=utf-8,hi' },
        { type: 'file', mediaType: 'application/pdf', url: 'data:;base64,JVBE' },
      ],
    },
  ]);
  expect(turn.parts.map((p) => [p.kind, p.mediaType])).toEqual([
    ['image', 'image/png'],
    ['document', 'text/plain'],
    ['document', 'application/pdf'],
  ]);
});

test('the chat route answers a disowned data: URL with HTTP 400 and runs nothing', async () => {
  const model = new ScriptedModel([textResponse('A picture.')]);
  const server = await serve((req, res) => void pipeChat(new Agent({ model }), req, res));
  try {
    const response = await fetch(`${server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: withFile({ mediaType: 'image/png', url: PDF }) }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error:
        'messages[0].parts[1].url: the data: URL\'s media type "application/pdf" is not the part\'s mediaType "image/png"',
      path: 'messages[0].parts[1].url',
    });
    expect(model.calls).toBe(0);
  } finally {
    await server.close();
  }
});
