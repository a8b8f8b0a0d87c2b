/**
 * FallbackModel across providers, end to end against one loopback replay server: the first model
 * thinks and calls a tool, fails the second turn with a retryable error, and the fallback model's
 * request must carry only reasoning its provider can verify (docs/guides/thinking.md).
 */
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Agent, FallbackModel, defineTool, type Model } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { bedrock, type BedrockModel } from 'golem/providers/bedrock';
import { gemini } from 'golem/providers/gemini';
import { openai } from 'golem/providers/openai';
import { startReplayServer, type Reply, type ReplayServer } from '../../support/replay-server';

const CLAUDE = 'claude-sonnet-4-5-20250929';
const SKIP = 'skip_thought_signature_validator';
let server: ReplayServer;
const bedrocks: BedrockModel[] = [];
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  for (const model of bedrocks.splice(0)) model.destroy();
  await server.close();
});

const claude = (model = CLAUDE) =>
  anthropic({ model, apiKey: 'sk-ant-test-0123456789abcdef', baseURL: server.url });
const gemini3 = () =>
  gemini({
    model: 'gemini-3-pro-preview',
    apiKey: 'test-gemini-key-0123456789',
    baseURL: `${server.url}/v1beta`,
  });
const gpt = () => openai({ model: 'gpt-5', apiKey: 'sk-test', baseURL: server.url });
function onBedrock(model: string): BedrockModel {
  const made = bedrock({
    model,
    region: 'us-east-1',
    endpoint: server.url,
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret-0123456789' },
    client: { requestHandler: new NodeHttpHandler() },
  });
  bedrocks.push(made);
  return made;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** Claude thinks (signed and redacted) and calls the tool. */
const claudeCall = json({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: CLAUDE,
  content: [
    { type: 'thinking', thinking: 'Need the weather.', signature: 'SIG-CLAUDE' },
    { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Lagos' } },
  ],
  stop_reason: 'tool_use',
  usage: { input_tokens: 5, output_tokens: 7 },
});
const claudeOverloaded = json(
  { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
  529,
);
const claudeAnswer = json({
  id: 'msg_2',
  type: 'message',
  role: 'assistant',
  model: CLAUDE,
  content: [{ type: 'text', text: 'Sunny in Lagos.' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 9, output_tokens: 4 },
});

const geminiReply = (parts: unknown[]) =>
  json({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] });
/** Gemini thinks (signed thought) and calls the tool with a signed function call. */
const geminiCall = geminiReply([
  { text: 'Plan: call get_weather.', thought: true, thoughtSignature: 'SIG-GEMINI-THOUGHT' },
  {
    functionCall: { name: 'get_weather', args: { city: 'Lagos' } },
    thoughtSignature: 'SIG-GEMINI',
  },
]);
const geminiUnavailable = json(
  { error: { code: 503, message: 'busy', status: 'UNAVAILABLE' } },
  503,
);

const converseAnswer = json({
  output: { message: { role: 'assistant', content: [{ text: 'Sunny in Lagos.' }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13 },
});

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Weather of a city.',
  schema: { type: 'object', properties: { city: { type: 'string' } } },
  execute: () => 'sunny',
});

/** Runs primary → (fails on turn 2) → fallback; returns the fallback's request body. */
async function fallBack(primary: Model, backup: Model, replies: Reply[]): Promise<unknown> {
  server.push(...replies);
  const agent = new Agent({ model: new FallbackModel([primary, backup]), tools: [getWeather] });
  const result = await agent.run('Weather in Lagos?');
  expect(result.output).toBe('Sunny in Lagos.');
  expect(server.requests).toHaveLength(3);
  return server.requests[2]?.json;
}

test('Anthropic → Gemini: Claude’s thinking is dropped; the call gets the stand-in signature', async () => {
  const body = (await fallBack(claude(), gemini3(), [
    claudeCall,
    claudeOverloaded,
    geminiReply([{ text: 'Sunny in Lagos.' }]),
  ])) as { contents: unknown[] };
  expect(body.contents).toEqual([
    { role: 'user', parts: [{ text: 'Weather in Lagos?' }] },
    {
      role: 'model',
      parts: [
        {
          functionCall: { name: 'get_weather', args: { city: 'Lagos' }, id: 'toolu_1' },
          thoughtSignature: SKIP,
        },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', id: 'toolu_1', response: { result: 'sunny' } } },
      ],
    },
  ]);
  expect(server.requests[2]?.body).not.toMatch(/SIG-CLAUDE|EmwKAhgBEgy3va3pzix|Need the weather/);
});

test('Gemini → Anthropic (streamed): Gemini’s thought and call signatures are dropped', async () => {
  const sse = (...events: Record<string, unknown>[]): Reply => ({
    headers: { 'content-type': 'text/event-stream' },
    body: events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''),
  });
  server.push(
    sse(JSON.parse(String(geminiCall.body)) as Record<string, unknown>),
    geminiUnavailable,
    sse(
      { type: 'message_start', message: { model: CLAUDE, usage: { input_tokens: 9 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: 'Sunny in Lagos.' },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } },
      { type: 'message_stop' },
    ),
  );
  const agent = new Agent({ model: new FallbackModel([gemini3(), claude()]), tools: [getWeather] });
  const stream = agent.runStream('Weather in Lagos?');
  const texts: string[] = [];
  for await (const delta of stream) if (delta.content !== undefined) texts.push(delta.content);
  const result = await stream.result;
  expect(texts.join('')).toBe('Sunny in Lagos.');
  expect(result.output).toBe('Sunny in Lagos.');
  expect(result.messages[1]?.toolCalls?.[0]).toMatchObject({
    signature: 'SIG-GEMINI',
    signatureProvider: 'gemini',
    signatureModel: 'gemini-3-pro-preview',
  });
  const body = server.requests[2]?.json as { messages: unknown[] };
  expect(body.messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'Weather in Lagos?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'get_weather_1', name: 'get_weather', input: { city: 'Lagos' } },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'get_weather_1', content: 'sunny' }],
    },
  ]);
  expect(server.requests[2]?.body).not.toMatch(/SIG-GEMINI|Plan: call/);
});

test('Anthropic → Claude on Bedrock, same model: thinking replayed with its signature', async () => {
  const body = (await fallBack(claude(), onBedrock(`us.anthropic.${CLAUDE}-v1:0`), [
    claudeCall,
    claudeOverloaded,
    converseAnswer,
  ])) as { messages: { content: unknown[] }[] };
  expect(body.messages[1]?.content).toEqual([
    { reasoningContent: { reasoningText: { text: 'Need the weather.', signature: 'SIG-CLAUDE' } } },
    { reasoningContent: { redactedContent: 'EmwKAhgBEgy3va3pzix/LafPsn4a' } },
    { toolUse: { toolUseId: 'toolu_1', name: 'get_weather', input: { city: 'Lagos' } } },
  ]);
});

test('Anthropic → another Bedrock model (Nova): Claude’s reasoning is dropped', async () => {
  const body = (await fallBack(claude(), onBedrock('us.amazon.nova-pro-v1:0'), [
    claudeCall,
    claudeOverloaded,
    converseAnswer,
  ])) as { messages: { content: unknown[] }[] };
  expect(body.messages[1]?.content).toEqual([
    { toolUse: { toolUseId: 'toolu_1', name: 'get_weather', input: { city: 'Lagos' } } },
  ]);
  expect(server.requests[2]?.body).not.toMatch(/SIG-CLAUDE|EmwKAhgBEgy3va3pzix/);
});

test('Anthropic → OpenAI: the assistant turn keeps only its call; no reasoning, no signature', async () => {
  const body = (await fallBack(claude(), gpt(), [
    claudeCall,
    claudeOverloaded,
    json({
      id: 'c',
      object: 'chat.completion',
      model: 'gpt-5',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Sunny in Lagos.' },
          finish_reason: 'stop',
        },
      ],
    }),
  ])) as { messages: unknown[] };
  expect(body.messages[1]).toEqual({
    role: 'assistant',
    tool_calls: [
      {
        id: 'toolu_1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Lagos"}' },
      },
    ],
  });
  expect(server.requests[2]?.body).not.toMatch(/SIG-CLAUDE|EmwKAhgBEgy3va3pzix|Need the weather/);
});

test('Anthropic → Anthropic with another model: the first model’s thinking is dropped', async () => {
  const body = (await fallBack(claude(), claude('claude-opus-4-1-20250805'), [
    claudeCall,
    claudeOverloaded,
    claudeAnswer,
  ])) as { messages: { content: unknown[] }[] };
  expect(body.messages[1]?.content).toEqual([
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Lagos' } },
  ]);
});
