/**
 * Response normalisation of the Anthropic adapter beyond the recorded fixtures: finish reasons,
 * usage with cache tokens, server tool evidence, omitted thinking, and odd shapes.
 */
import { type ModelRequest } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { jsonReply, modelFor, ownFixture } from './support';
import { ModelProtocolError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

async function decode(body: Record<string, unknown>): Promise<unknown> {
  server.push(jsonReply(JSON.stringify({ type: 'message', role: 'assistant', ...body })));
  return modelFor(server)
    .generate(request)
    .catch((e: unknown) => e);
}

test('refusal → content_filter; input counts cache writes and reads (7 + 100 + 2000)', async () => {
  server.push(jsonReply(ownFixture('cache-usage-refusal.json')));
  const response = await modelFor(server).generate(request);
  expect(response).toEqual({
    message: { role: 'assistant', content: "I can't help with that." },
    usage: { inputTokens: 2107, outputTokens: 9, cacheReadTokens: 2000, cacheWriteTokens: 100 },
    finishReason: 'content_filter',
    modelName: 'claude-own-fixture',
    responseId: 'msg_own_cache',
  });
});

test('server tool blocks become hosted tool calls; text blocks around citations are concatenated and cited by span', async () => {
  server.push(jsonReply(ownFixture('server-tool-citations.json')));
  const response = await modelFor(server).generate(request);
  expect(response.message).toEqual({
    role: 'assistant',
    content: 'It is sunny in Lagos.',
    hostedToolCalls: [
      {
        id: 'srvtoolu_own',
        type: 'web_search',
        provider: 'anthropic',
        status: 'completed',
        input: '{"query":"weather"}',
        output: '[]',
      },
    ],
    citations: [
      { type: 'url', url: 'https://example.com', title: 'x', quote: 'sunny', start: 0, end: 11 },
    ],
  });
});

test.each([
  ['end_turn', 'stop'],
  ['stop_sequence', 'stop'],
  ['max_tokens', 'length'],
  ['model_context_window_exceeded', 'length'],
  ['tool_use', 'tool_calls'],
  ['refusal', 'content_filter'],
  ['pause_turn', 'pause_turn'],
  ['Something_New', 'something_new'],
])('stop_reason %s → finishReason %s', async (stopReason, finish) => {
  const response = await decode({ content: [], stop_reason: stopReason });
  expect((response as { finishReason?: string }).finishReason).toBe(finish);
});

test('no stop_reason and no usage: finishReason absent, usage zeros, empty message', async () => {
  expect(await decode({ content: [] })).toEqual({
    message: { role: 'assistant' },
    usage: { inputTokens: 0, outputTokens: 0 },
  });
});

test('a thinking block with omitted text keeps its signature; empty redacted data is dropped', async () => {
  const response = await decode({
    content: [
      { type: 'thinking', thinking: '', signature: 'sig-only' },
      { type: 'redacted_thinking', data: '' },
      { type: 'text', text: 'ok' },
    ],
  });
  expect((response as { message: unknown }).message).toEqual({
    role: 'assistant',
    content: 'ok',
    thinking: [{ signature: 'sig-only', provider: 'anthropic', model: 'claude-test' }],
  });
});

test('a tool_use without input has args {}; input keys keep their order and values', async () => {
  const response = await decode({
    content: [
      { type: 'tool_use', id: 'a', name: 'f' },
      { type: 'tool_use', id: 'b', name: 'g', input: { z: 1, a: [true, null], u: 'é' } },
    ],
  });
  expect((response as { message: unknown }).message).toEqual({
    role: 'assistant',
    toolCalls: [
      { id: 'a', name: 'f', args: '{}' },
      { id: 'b', name: 'g', args: '{"z":1,"a":[true,null],"u":"é"}' },
    ],
  });
});

test.each([
  [
    'content is not an array',
    { content: 'text' },
    'the response body has no `content` array; it is not a message',
  ],
  ['a block is not an object', { content: [7] }, 'content[0] is not an object'],
  [
    'text is not a string',
    { content: [{ type: 'text', text: 1 }] },
    'content[0].text is not a string',
  ],
  [
    'tool_use id missing',
    { content: [{ type: 'tool_use', name: 'f', input: {} }] },
    'content[0].id is not a string',
  ],
  [
    'tool_use input is an array',
    { content: [{ type: 'tool_use', id: 'a', name: 'f', input: [1] }] },
    'content[0].input is not an object',
  ],
])('%s → ModelProtocolError', async (_label, body, message) => {
  const error = await decode(body);
  expect(ModelProtocolError.is(error)).toBe(true);
  expect((error as Error).message).toBe(`anthropic: protocol error: ${message}`);
});
