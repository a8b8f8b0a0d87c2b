/**
 * The fetch-style route (`chatResponse`) and the Node route's body handling: a body a framework
 * already parsed (`req.body`, as Express's `json()` leaves it), and the raw-body size limit.
 */
import { Agent } from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';
import { chatResponse, pipeChat } from 'golem/ui';
import { foldMessage, parseSseBytes } from './ai-client';
import { serve } from './chat-client';

const hello = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hello' }] };

test('chatResponse answers a useChat body with the UI message stream', async () => {
  const agent = new Agent({ model: new ScriptedModel([textResponse('Hi there.')]) });
  const response = await chatResponse(
    agent,
    { id: 'chat-1', messages: [hello], trigger: 'submit-message' },
    { messageId: 'a1', headers: { 'x-chat': 'yes' } },
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('x-chat')).toBe('yes');
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const chunks = await parseSseBytes(response.body as ReadableStream<Uint8Array>);
  const { message } = await foldMessage(chunks);
  expect(message?.id).toBe('a1');
  expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Hi there.' });
});

test('chatResponse answers a malformed body with HTTP 400 and never calls the model', async () => {
  const model = new ScriptedModel([]);
  const response = await chatResponse(new Agent({ model }), {
    messages: [{ id: 'x', role: 'system', parts: [] }],
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({
    error:
      'messages[0].role: system messages are not accepted from a client; set instructions on the agent',
    path: 'messages[0].role',
  });
  expect((await chatResponse(new Agent({ model }), 'nope')).status).toBe(400);
  expect(model.calls).toBe(0);
});

test('pipeChat uses a body the framework already parsed', async () => {
  const model = new ScriptedModel([textResponse('Parsed.')]);
  const agent = new Agent({ model });
  const server = await serve((req, res) => {
    // What express.json() does: read the body and leave the parsed value on req.body.
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      const parsed = Object.assign(req, {
        body: JSON.parse(Buffer.concat(parts).toString()) as unknown,
      });
      void pipeChat(agent, parsed, res);
    });
  });
  try {
    const response = await fetch(server.url, {
      method: 'POST',
      body: JSON.stringify({ messages: [hello] }),
    });
    const { message } = await foldMessage(
      await parseSseBytes(response.body as ReadableStream<Uint8Array>),
    );
    expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Parsed.' });
  } finally {
    await server.close();
  }
});

test('pipeChat refuses a raw body over maxBodyBytes with HTTP 400', async () => {
  const model = new ScriptedModel([]);
  const server = await serve(
    (req, res) => void pipeChat(new Agent({ model }), req, res, { maxBodyBytes: 64 }),
  );
  try {
    const big = { messages: [{ ...hello, parts: [{ type: 'text', text: 'x'.repeat(200) }] }] };
    const response = await fetch(server.url, { method: 'POST', body: JSON.stringify(big) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'body: the request body is larger than 64 bytes',
      path: 'body',
    });
    expect(model.calls).toBe(0);
  } finally {
    await server.close();
  }
});
