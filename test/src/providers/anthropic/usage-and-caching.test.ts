/**
 * Detailed usage and prompt caching on the Messages wire (documented format). `input_tokens`
 * excludes `cache_read_input_tokens` and `cache_creation_input_tokens`, so the neutral input is
 * their sum and cache reads/writes are reported as subsets; the message `id` is kept.
 * `settings.cache` and message `cachePoint`s become `cache_control` breakpoints on the last
 * tool, the system prompt and message blocks — at most 4, the API's limit.
 */
import { type Message, type ModelRequest, type ToolSpec, ConfigError } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { jsonReply, modelFor, sse, sseReply } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const message = (usage: Record<string, number>) =>
  JSON.stringify({
    id: 'msg_own_cache_2',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [{ type: 'text', text: 'Noted.' }],
    stop_reason: 'end_turn',
    usage,
  });

const tools: ToolSpec[] = [
  { name: 'search', description: 'Search the handbook', schema: { type: 'object' } },
  { name: 'cite', description: 'Cite a section', schema: { type: 'object' } },
];

const conversation: Message[] = [
  { role: 'system', content: 'You answer from the handbook.' },
  { role: 'user', content: 'The handbook: …' },
  { role: 'assistant', toolCalls: [{ id: 'toolu_1', name: 'search', args: '{"q":"leave"}' }] },
  { role: 'tool', toolCallId: 'toolu_1', toolName: 'search', content: 'Section 4: 25 days.' },
  { role: 'user', content: 'How many days of leave?' },
];

type Wire = {
  system?: unknown;
  tools?: Record<string, unknown>[];
  messages: { role: string; content: Record<string, unknown>[] }[];
};

async function sent(request: ModelRequest): Promise<Wire> {
  server.push(jsonReply(message({ input_tokens: 1, output_tokens: 1 })));
  await modelFor(server).generate(request);
  return server.requests.at(-1)?.json as Wire;
}

/** Where the body carries cache_control: `tools[i]`, `system[i]`, `messages[i].content[j]`. */
function breakpoints(body: Wire): string[] {
  const out: string[] = [];
  (body.tools ?? []).forEach((t, i) => {
    if (t.cache_control !== undefined) out.push(`tools[${i}] ${JSON.stringify(t.cache_control)}`);
  });
  if (Array.isArray(body.system))
    (body.system as Record<string, unknown>[]).forEach((b, i) => {
      if (b.cache_control !== undefined)
        out.push(`system[${i}] ${JSON.stringify(b.cache_control)}`);
    });
  body.messages.forEach((m, i) => {
    m.content.forEach((b, j) => {
      if (b.cache_control !== undefined)
        out.push(
          `messages[${i}].content[${j}] ${String(b.type)} ${JSON.stringify(b.cache_control)}`,
        );
    });
  });
  return out;
}

test('generate: input counts cache writes and reads; they are also reported apart', async () => {
  server.push(
    jsonReply(
      message({
        input_tokens: 50,
        cache_creation_input_tokens: 1800,
        cache_read_input_tokens: 0,
        output_tokens: 120,
      }),
    ),
  );
  const response = await modelFor(server).generate({ messages: conversation, tools: [] });
  expect(response).toEqual({
    message: { role: 'assistant', content: 'Noted.' },
    usage: { inputTokens: 1850, outputTokens: 120, cacheWriteTokens: 1800 },
    finishReason: 'stop',
    modelName: 'claude-test',
    responseId: 'msg_own_cache_2',
  });
});

test('stream: message_start brings the input and cache counts and the id, message_delta the output', async () => {
  server.push(
    sseReply(
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg_own_cache_3',
            type: 'message',
            role: 'assistant',
            model: 'claude-test',
            content: [],
            usage: {
              input_tokens: 3,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 1800,
              output_tokens: 1,
            },
          },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '25 days.' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } },
        { type: 'message_stop' },
      ),
    ),
  );
  const response = await modelFor(server).stream({ messages: conversation, tools: [] }, () => {});
  expect(response.usage).toEqual({ inputTokens: 1803, outputTokens: 42, cacheReadTokens: 1800 });
  expect(response.responseId).toBe('msg_own_cache_3');
});

test('cache: true puts breakpoints on the last tool, the system prompt and the last message', async () => {
  const body = await sent({ messages: conversation, tools, settings: { cache: true } });
  expect(body.system).toEqual([
    { type: 'text', text: 'You answer from the handbook.', cache_control: { type: 'ephemeral' } },
  ]);
  expect(breakpoints(body)).toEqual([
    'tools[1] {"type":"ephemeral"}',
    'system[0] {"type":"ephemeral"}',
    'messages[2].content[1] text {"type":"ephemeral"}',
  ]);
  // The tool result and the last question share one user turn; the breakpoint ends the question.
  expect(body.messages[2]?.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
});

test('flags, ttl and message markers: instructions only, 1h, and a marked tool result', async () => {
  const marked = conversation.map((m, i) => (i === 3 ? { ...m, cachePoint: true } : m));
  const body = await sent({
    messages: marked,
    tools,
    settings: { cache: { tools: false, messages: false, ttl: '1h' } },
  });
  expect(breakpoints(body)).toEqual([
    'system[0] {"type":"ephemeral","ttl":"1h"}',
    'messages[2].content[0] tool_result {"type":"ephemeral","ttl":"1h"}',
  ]);
});

test('never more than 4 breakpoints: the oldest marked messages are dropped first', async () => {
  const many: Message[] = [{ role: 'system', content: 'Rules.' }];
  for (let i = 0; i < 4; i++) {
    many.push({ role: 'user', content: `document ${i}`, cachePoint: true });
    many.push({ role: 'assistant', content: `read ${i}` });
  }
  many.push({ role: 'user', content: 'question' });
  const body = await sent({ messages: many, tools, settings: { cache: true } });
  expect(breakpoints(body)).toEqual([
    'tools[1] {"type":"ephemeral"}',
    'system[0] {"type":"ephemeral"}',
    'messages[6].content[0] text {"type":"ephemeral"}',
    'messages[8].content[0] text {"type":"ephemeral"}',
  ]);
  expect(body.messages[6]?.content[0]?.text).toBe('document 3');
  // Without `cache`, markers alone are honoured — the 4 most recent.
  const markersOnly = await sent({ messages: many, tools });
  expect(breakpoints(markersOnly)).toEqual([
    'messages[0].content[0] text {"type":"ephemeral"}',
    'messages[2].content[0] text {"type":"ephemeral"}',
    'messages[4].content[0] text {"type":"ephemeral"}',
    'messages[6].content[0] text {"type":"ephemeral"}',
  ]);
});

test('no cache and no marker: the body carries no cache_control at all', async () => {
  const body = await sent({ messages: conversation, tools });
  expect(body.system).toBe('You answer from the handbook.');
  expect(breakpoints(body)).toEqual([]);
});

test('a malformed cache setting is a model ConfigError before anything is sent', async () => {
  const error = await modelFor(server)
    .generate({ messages: conversation, tools, settings: { cache: { ttl: '10m' } as never } })
    .catch((e: unknown) => e);
  expect(ConfigError.is(error, 'model')).toBe(true);
  expect((error as Error).message).toMatch(/settings\.cache\.ttl/);
  expect(server.requests).toHaveLength(0);
});
