/**
 * Anthropic and thinking provenance: decoded blocks record the adapter and its configured model
 * (generate and stream); only blocks from the same Claude model (on the Anthropic API or on
 * Bedrock) or unstamped ones are replayed (docs/guides/thinking.md).
 */
import type { Message, ModelRequest, ThinkingBlock } from 'golem';
import { anthropic, type AnthropicModel } from 'golem/providers/anthropic';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';

const MODEL = 'claude-sonnet-4-5-20250929';
let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model(id = MODEL): AnthropicModel {
  return anthropic({ model: id, apiKey: 'sk-ant-test-0123456789abcdef', baseURL: server.url });
}

const body = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  content: [
    { type: 'thinking', thinking: 'Need the weather.', signature: 'sig-a' },
    { type: 'redacted_thinking', data: 'opaque-a' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Lagos' } },
  ],
  stop_reason: 'tool_use',
  usage: { input_tokens: 5, output_tokens: 7 },
};

const events = [
  { type: 'message_start', message: { model: MODEL, usage: { input_tokens: 5 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Need ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'it.' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-s' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'text', text: 'Done.' } },
  { type: 'content_block_stop', index: 1 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
  { type: 'message_stop' },
];

const STAMP = { provider: 'anthropic', model: MODEL };

describe('decoding records provenance', () => {
  test('generate: every thinking block is stamped with the adapter and its configured model', async () => {
    server.push({ body: JSON.stringify(body) });
    const response = await model().generate({
      messages: [{ role: 'user', content: 'q' }],
      tools: [],
    });
    expect(response.message.thinking).toEqual([
      { text: 'Need the weather.', signature: 'sig-a', ...STAMP },
      { redacted: 'opaque-a', ...STAMP },
    ]);
    expect(response.message.toolCalls).toEqual([
      { id: 'toolu_1', name: 'get_weather', args: '{"city":"Lagos"}' },
    ]);
  });

  test('stream: the assembled block is stamped; the deltas carry no provenance', async () => {
    server.push({
      headers: { 'content-type': 'text/event-stream' },
      body: events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''),
    });
    const deltas: unknown[] = [];
    const response = await model().stream(
      { messages: [{ role: 'user', content: 'q' }], tools: [] },
      (delta) => void deltas.push(delta),
    );
    expect(response.message.thinking).toEqual([{ text: 'Need it.', signature: 'sig-s', ...STAMP }]);
    expect(JSON.stringify(deltas)).not.toContain('"provider"');
  });
});

/** The `content` of the replayed assistant turn for history whose assistant message has `thinking`. */
async function replayed(thinking: ThinkingBlock[], target = model()): Promise<unknown> {
  const history: Message[] = [
    { role: 'user', content: 'Weather in Lagos?' },
    {
      role: 'assistant',
      thinking,
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', args: '{"city":"Lagos"}' }],
    },
    { role: 'tool', content: 'sunny', toolCallId: 'toolu_1', toolName: 'get_weather' },
  ];
  server.push({ body: JSON.stringify({ ...body, content: [{ type: 'text', text: 'ok' }] }) });
  const request: ModelRequest = { messages: history, tools: [] };
  await target.generate(request);
  const sent = server.requests.at(-1)?.json as { messages: { content: unknown[] }[] };
  return sent.messages[1]?.content;
}

const toolUse = {
  type: 'tool_use',
  id: 'toolu_1',
  name: 'get_weather',
  input: { city: 'Lagos' },
};

describe('encoding replays only what this model issued', () => {
  test('same provider and model: signed and redacted blocks are replayed byte for byte', async () => {
    expect(
      await replayed([
        { text: 'Need the weather.', signature: 'sig-a', ...STAMP },
        { redacted: 'opaque-a', ...STAMP },
      ]),
    ).toEqual([
      { type: 'thinking', thinking: 'Need the weather.', signature: 'sig-a' },
      { type: 'redacted_thinking', data: 'opaque-a' },
      toolUse,
    ]);
  });

  test('Claude on Bedrock naming the same model: replayed (Claude signatures work across platforms)', async () => {
    const bedrockClaude = { provider: 'bedrock', model: `us.anthropic.${MODEL}-v1:0` };
    expect(await replayed([{ text: 'T', signature: 'sig-b', ...bedrockClaude }])).toEqual([
      { type: 'thinking', thinking: 'T', signature: 'sig-b' },
      toolUse,
    ]);
  });

  test('foreign blocks are left out: another Claude model, Gemini, Bedrock Nova, OpenAI-compatible text', async () => {
    const content = await replayed([
      {
        text: 'other model',
        signature: 'sig-opus',
        provider: 'anthropic',
        model: 'claude-opus-4-1',
      },
      {
        text: 'gemini thought',
        signature: 'sig-gemini',
        provider: 'gemini',
        model: 'gemini-3-pro',
      },
      { redacted: 'bedrock-redacted', provider: 'bedrock', model: 'us.amazon.nova-pro-v1:0' },
      { text: 'deepseek reasoning', provider: 'deepseek', model: 'deepseek-reasoner' },
    ]);
    expect(content).toEqual([toolUse]);
    const sent = server.requests.at(-1)?.body ?? '';
    for (const foreign of ['sig-opus', 'sig-gemini', 'bedrock-redacted', 'deepseek reasoning'])
      expect(sent).not.toContain(foreign);
  });

  test('unstamped blocks (older stored histories) are trusted as this adapter’s own', async () => {
    expect(
      await replayed([{ text: 'old', signature: 'sig-old' }, { redacted: 'old-redacted' }]),
    ).toEqual([
      { type: 'thinking', thinking: 'old', signature: 'sig-old' },
      { type: 'redacted_thinking', data: 'old-redacted' },
      toolUse,
    ]);
  });

  test('the same stamped history sent to another Claude model drops the blocks', async () => {
    const content = await replayed(
      [{ text: 'Need the weather.', signature: 'sig-a', ...STAMP }],
      model('claude-opus-4-1-20250805'),
    );
    expect(content).toEqual([toolUse]);
  });
});
