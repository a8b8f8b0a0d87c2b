/**
 * End to end: an `Agent` on the Anthropic adapter against the loopback server, through a tool
 * round trip with `run` and with `runStream` (thinking replayed on a continued conversation is in
 * documented-wire.test.ts).
 */
import { Agent, defineTool, type Delta } from 'golem';
import { isRecord } from '../../../../src/core/kit/guards';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { jsonReply, modelFor, sse, sseReply } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) => (isRecord(args) && args.city === 'Lagos' ? 'sunny, 31°C' : 'unknown'),
});

const toolTurn = JSON.stringify({
  type: 'message',
  role: 'assistant',
  model: 'claude-test-1',
  content: [
    { type: 'text', text: 'Let me check.' },
    { type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: { city: 'Lagos' } },
  ],
  stop_reason: 'tool_use',
  usage: { input_tokens: 50, output_tokens: 20 },
});
const answerTurn = JSON.stringify({
  type: 'message',
  role: 'assistant',
  model: 'claude-test-1',
  content: [{ type: 'text', text: 'It is sunny in Lagos.' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 80, output_tokens: 8 },
});

const expectedSecondMessages = [
  { role: 'user', content: [{ type: 'text', text: 'Weather in Lagos?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: { city: 'Lagos' } },
    ],
  },
  {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 'toolu_A', content: 'sunny, 31°C' }],
  },
];

test('Agent.run: a tool round trip; the second request replays the call and carries the result', async () => {
  server.push(jsonReply(toolTurn), jsonReply(answerTurn));
  const agent = new Agent({
    model: modelFor(server),
    instructions: 'You are a weather bot.',
    tools: [weather],
  });
  const result = await agent.run('Weather in Lagos?');
  expect(result.output).toBe('It is sunny in Lagos.');
  expect(result.usage).toEqual({ inputTokens: 130, outputTokens: 28 });
  expect(result.messages.map((m) => m.role)).toEqual([
    'system',
    'user',
    'assistant',
    'tool',
    'assistant',
  ]);
  const second = server.requests[1]?.json as Record<string, unknown>;
  expect(second.system).toBe('You are a weather bot.');
  expect(second.messages).toEqual(expectedSecondMessages);
  expect(second.tools).toEqual([
    {
      name: 'get_weather',
      description: 'Current weather of a city.',
      input_schema: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      },
    },
  ]);
});

test('Agent.runStream: fragments of both turns, the same result and the same second request', async () => {
  const streamedTool = sse(
    { type: 'message_start', message: { model: 'claude-test-1', usage: { input_tokens: 50 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me check.' } },
    { type: 'content_block_stop', index: 0 },
    {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: {} },
    },
    {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"city": ' },
    },
    {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '"Lagos"}' },
    },
    { type: 'content_block_stop', index: 1 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 20 } },
    { type: 'message_stop' },
  );
  const streamedAnswer = sse(
    { type: 'message_start', message: { model: 'claude-test-1', usage: { input_tokens: 80 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'It is sunny' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' in Lagos.' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 8 } },
    { type: 'message_stop' },
  );
  server.push(sseReply(streamedTool), sseReply(streamedAnswer));
  const agent = new Agent({ model: modelFor(server), tools: [weather] });
  const stream = agent.runStream('Weather in Lagos?');
  const deltas: Delta[] = [];
  for await (const delta of stream) deltas.push(delta);
  const result = await stream.result;
  expect(deltas).toEqual([
    { content: 'Let me check.' },
    { toolCalls: [{ index: 0, id: 'toolu_A', name: 'get_weather' }] },
    { toolCalls: [{ index: 0, argsFragment: '{"city": ' }] },
    { toolCalls: [{ index: 0, argsFragment: '"Lagos"}' }] },
    { content: 'It is sunny' },
    { content: ' in Lagos.' },
  ]);
  expect([result.output, result.usage]).toEqual([
    'It is sunny in Lagos.',
    { inputTokens: 130, outputTokens: 28 },
  ]);
  expect(result.toolCalls).toBe(1);
  const second = server.requests[1]?.json as Record<string, unknown>;
  expect([second.stream, second.messages]).toEqual([true, expectedSecondMessages]);
});
