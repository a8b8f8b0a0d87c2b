/**
 * Request translation of the Anthropic adapter: system hoisting, merging of user-side turns,
 * assistant block order with thinking replay, images, tools, and histories that cannot be
 * encoded faithfully (rejected before anything is sent).
 */
import { type Message, type ModelRequest } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { jsonReply, modelFor, ownFixture } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

async function sentBody(request: Partial<ModelRequest>): Promise<Record<string, unknown>> {
  server.push(jsonReply(ownFixture('message-text.json')));
  await modelFor(server).generate({ messages: [], tools: [], ...request });
  return server.requests.at(-1)?.json as Record<string, unknown>;
}

async function encodingFailure(messages: Message[]): Promise<unknown> {
  const error = await modelFor(server)
    .generate({ messages, tools: [] })
    .catch((e: unknown) => e);
  expect(server.requests).toHaveLength(0);
  return error;
}

test('system messages are joined with a blank line into the top-level system field, wherever they are', async () => {
  const body = await sentBody({
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'system', content: '' },
      { role: 'system', content: 'Answer in French.' },
    ],
  });
  expect([body.system, body.messages]).toEqual([
    'Be brief.\n\nAnswer in French.',
    [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  ]);
});

test('no system field is sent when there is no non-empty system message', async () => {
  const body = await sentBody({ messages: [{ role: 'user', content: 'Hi' }] });
  expect('system' in body).toBe(false);
});

test('a tool round trip: assistant text + tool_use, then one user turn with tool_result blocks first, then the prompt', async () => {
  const body = await sentBody({
    messages: [
      { role: 'user', content: 'Weather in Lagos and Oslo?' },
      {
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [
          { id: 'toolu_1', name: 'weather', args: '{"city":"Lagos"}' },
          { id: 'toolu_2', name: 'weather', args: '{"city": "Oslo"}' },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_1', toolName: 'weather', content: 'sunny' },
      { role: 'user', content: 'Also: be brief.' },
      { role: 'tool', toolCallId: 'toolu_2', toolName: 'weather', content: 'snow' },
    ],
  });
  expect(body.messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'Weather in Lagos and Oslo?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Lagos' } },
        { type: 'tool_use', id: 'toolu_2', name: 'weather', input: { city: 'Oslo' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'snow' },
        { type: 'text', text: 'Also: be brief.' },
      ],
    },
  ]);
});

test('empty args and an empty tool result: input {} and a tool_result without content', async () => {
  const body = await sentBody({
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', toolCalls: [{ id: 't', name: 'ping', args: '  ' }] },
      { role: 'tool', toolCallId: 't', toolName: 'ping', content: '' },
    ],
  });
  expect(body.messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'ping', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't' }] },
  ]);
});

test('consecutive user messages merge into one turn; an empty assistant message is skipped', async () => {
  const body = await sentBody({
    messages: [
      { role: 'user', content: 'one' },
      { role: 'assistant' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'A' },
      { role: 'assistant', content: 'B' },
    ],
  });
  expect(body.messages).toEqual([
    {
      role: 'user',
      content: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B' },
      ],
    },
  ]);
});

test('assistant thinking is replayed first (signed → thinking, redacted → redacted_thinking; unsigned text is not), then text, then calls', async () => {
  const body = await sentBody({
    messages: [
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: 'Let me look.',
        thinking: [
          { text: 'plan', signature: 'sig-1' },
          { redacted: 'ENC==' },
          { text: 'unsigned text cannot be verified by the API' },
          { signature: 'sig-omitted' },
        ],
        toolCalls: [{ id: 'toolu_9', name: 'look', args: '{}', signature: 'gemini-only' }],
      },
      { role: 'tool', toolCallId: 'toolu_9', toolName: 'look', content: 'found' },
    ],
  });
  expect((body.messages as unknown[])[1]).toEqual({
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'plan', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'ENC==' },
      { type: 'thinking', thinking: '', signature: 'sig-omitted' },
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_9', name: 'look', input: {} },
    ],
  });
});

test('images: URL → url source, bytes → base64 source with media type, a data: URL → base64 source', async () => {
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  const body = await sentBody({
    messages: [
      {
        role: 'user',
        content: 'Compare these',
        parts: [
          { kind: 'image', url: 'https://example.com/a.jpg' },
          { kind: 'image', data: bytes, mediaType: 'image/png' },
          { kind: 'image', url: 'data:image/gif;base64,R0lGOD==' },
        ],
      },
    ],
  });
  expect(body.messages).toEqual([
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Compare these' },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw==' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGOD==' } },
      ],
    },
  ]);
});

test('an image-only user message sends only the image block', async () => {
  const body = await sentBody({
    messages: [{ role: 'user', parts: [{ kind: 'image', url: 'https://example.com/x.png' }] }],
  });
  expect(body.messages).toEqual([
    {
      role: 'user',
      content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/x.png' } }],
    },
  ]);
});

test('tools become {name, description, input_schema}; the output flag is not sent; no description → omitted', async () => {
  const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
  const body = await sentBody({
    messages: [{ role: 'user', content: 'x' }],
    tools: [
      { name: 'search', description: 'Search the web.', schema },
      { name: 'final_result', description: '', schema: { type: 'object' }, output: true },
    ],
  });
  expect(body.tools).toEqual([
    { name: 'search', description: 'Search the web.', input_schema: schema },
    { name: 'final_result', input_schema: { type: 'object' } },
  ]);
});

test('stored args that are not valid JSON (a call cut off by max_tokens) are replayed as an empty input object', async () => {
  const body = await sentBody({
    messages: [
      { role: 'user', content: 'x' },
      {
        role: 'assistant',
        toolCalls: [{ id: 'toolu_cut', name: 'make_file', args: '{"filename": "ta' }],
      },
      {
        role: 'tool',
        toolCallId: 'toolu_cut',
        toolName: 'make_file',
        content: 'rejected: not valid JSON',
      },
    ],
  });
  expect(body.messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'x' }] },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_cut', name: 'make_file', input: {} }],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_cut', content: 'rejected: not valid JSON' },
      ],
    },
  ]);
});

test('stored args that are JSON but not an object are replayed as an empty input object', async () => {
  const body = await sentBody({
    messages: [{ role: 'assistant', toolCalls: [{ id: 't', name: 'f', args: '[1,2]' }] }],
  });
  expect(body.messages).toEqual([
    { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
  ]);
});

test('a tool result without toolCallId fails before sending', async () => {
  const error = await encodingFailure([{ role: 'tool', content: 'orphan' }]);
  expect((error as Error).message).toBe(
    'anthropic: protocol error: cannot encode the request: message 0 is a tool result without a toolCallId',
  );
});

test('parts on an assistant message and an invalid part fail before sending', async () => {
  const onAssistant = await encodingFailure([
    { role: 'assistant', content: 'x', parts: [{ kind: 'image', url: 'https://e.com/i.png' }] },
  ]);
  expect((onAssistant as Error).message).toBe(
    'anthropic: protocol error: cannot encode the request: message 0: parts are only supported on user messages',
  );
  const invalid = await encodingFailure([
    { role: 'user', content: 'x', parts: [{ kind: 'image' }] },
  ]);
  expect((invalid as Error).message).toBe(
    'anthropic: protocol error: cannot encode the request: message 0 part 0: image part has neither url nor data; set exactly one',
  );
});

test('the caller request is not mutated by encoding', async () => {
  const messages: Message[] = [
    { role: 'user', content: 'q' },
    { role: 'assistant', toolCalls: [{ id: 't', name: 'f', args: '{"a":1}' }] },
    { role: 'tool', toolCallId: 't', toolName: 'f', content: 'r' },
  ];
  const copy = JSON.parse(JSON.stringify(messages)) as unknown;
  await sentBody({ messages });
  expect(messages).toEqual(copy);
});
