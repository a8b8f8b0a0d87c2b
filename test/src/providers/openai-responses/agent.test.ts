/**
 * The Responses adapter under a real agent and a loopback server: a tool round trip whose
 * reasoning is replayed statelessly on the next turn, hosted tools offered on every request and
 * their evidence kept in the run's messages (and through the durable codec), streaming, and
 * server-side chaining across runs.
 */
import { Agent, decodeMessages, defineTool, encodeMessages, webSearchTool } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { jsonReply, modelFor, sent, sseReply } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: () => 'sunny, 31°C',
});

test('a tool round trip: the second request replays reasoning, call and output; hosted tools on every request; evidence kept', async () => {
  server.push(jsonReply('response-reasoning-tool.json'), jsonReply('response-web-search.json'));
  const agent = new Agent({
    model: modelFor(server, { model: 'gpt-5' }),
    instructions: 'You are a weather bot.',
    tools: [getWeather],
    hostedTools: [webSearchTool()],
  });
  const result = await agent.run('Weather in Lagos?');
  expect(result.output).toBe('It is 31°C in Lagos today. Take water.');
  expect(result.usage).toEqual({
    inputTokens: 420,
    outputTokens: 110,
    cacheReadTokens: 64,
    reasoningTokens: 70,
  });
  const second = sent(server, 1);
  expect(second.instructions).toBe('You are a weather bot.');
  expect(second.input).toEqual([
    { role: 'user', content: 'Weather in Lagos?' },
    {
      type: 'reasoning',
      id: 'rs_own_01',
      summary: [
        {
          type: 'summary_text',
          text: '**Checking the weather**\n\nThe user wants Lagos.\n\nI should call get_weather.',
        },
      ],
      encrypted_content: 'gAAAAABown-encrypted-reasoning-01==',
    },
    {
      type: 'function_call',
      call_id: 'call_own_01',
      name: 'get_weather',
      arguments: '{"city":"Lagos"}',
    },
    { type: 'function_call_output', call_id: 'call_own_01', output: 'sunny, 31°C' },
  ]);
  for (const body of [sent(server, 0), second])
    expect(body.tools).toEqual([
      expect.objectContaining({ type: 'function', name: 'get_weather' }),
      { type: 'web_search' },
    ]);
  const last = result.messages.at(-1);
  expect(last?.hostedToolCalls?.map((c) => [c.id, c.type])).toEqual([['ws_own_01', 'web_search']]);
  expect(last?.citations?.[0]?.url).toBe('https://weather.example/lagos');
  expect(result.toolCalls).toBe(1); // the hosted search is not a local tool call
  expect(decodeMessages(encodeMessages(result.messages))).toEqual(result.messages);
});

test('runStream: deltas while streaming and the same evidence in the result', async () => {
  server.push(sseReply('reasoning-tool.stream.sse'), sseReply('web-search.stream.sse'));
  const agent = new Agent({ model: modelFor(server, { model: 'o4-mini' }), tools: [getWeather] });
  const stream = agent.runStream('Weather in Lagos?');
  let text = '';
  for await (const delta of stream) text += delta.content ?? '';
  const result = await stream.result;
  expect(text).toBe('It is 31°C in Lagos today.');
  expect(result.output).toBe(text);
  expect(result.messages[1]?.thinking?.[0]).toMatchObject({
    id: 'rs_own_s2',
    provider: 'openai-responses',
  });
  expect(result.messages.at(-1)?.citations).toHaveLength(1);
});

test("previousResponseId 'auto' across runs: the next run sends only its new messages after the stored response", async () => {
  server.push(jsonReply('response-text.json'), jsonReply('response-text.json'));
  const agent = new Agent({
    model: modelFor(server, { previousResponseId: 'auto' }),
    instructions: 'Be brief.',
  });
  const first = await agent.run('How many syllables in a haiku?');
  await agent.run('And in a tanka?', { history: first.messages });
  expect(sent(server, 1)).toEqual({
    model: 'gpt-own',
    instructions: 'Be brief.',
    previous_response_id: 'resp_own_text_01',
    input: [{ role: 'user', content: 'And in a tanka?' }],
    store: true,
  });
});
