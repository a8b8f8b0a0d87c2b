/**
 * The chat-completions wire of reasoning models, refusals and errors on our own fixtures written
 * from the documented format (test/src/providers/openai/fixtures): `reasoning_content` (DeepSeek,
 * xAI; with a tool call; streamed), a refusal, and 400/404/429 error bodies. The same features on
 * recorded third-party traffic run in `npm run test:recorded`.
 */
import { ModelHTTPError } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import type { ModelRequest } from 'golem';
import { openai, openaiCompatible } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { wireResponse } from '../../../support/wire-response';
import { collector, ownFixture } from './support';

const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const model = () =>
  openai({ model: 'gpt-own', preset: 'openai', apiKey: 'sk-own-test', baseURL: server.url });
const ask = (text: string, more: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [userMessage(text)],
  tools: [],
  ...more,
});
const reply = (file: string, status = 200) => ({
  status,
  headers: JSON_TYPE,
  body: ownFixture('openai', file),
});
const streamReply = (file: string) => ({ headers: SSE, body: ownFixture('openai', file) });

test('reasoning_content (DeepSeek preset) becomes one thinking block before the text', async () => {
  server.push(reply('completion-reasoning.json'));
  const deepseek = openaiCompatible('deepseek', {
    model: 'reasoner-own-test',
    apiKey: 'sk-own-test',
    baseURL: server.url,
  });
  const response = await deepseek.generate(ask('Two dozen eggs?'));
  expect(wireResponse(response)).toEqual({
    message: {
      role: 'assistant',
      content: 'Twelve eggs make a dozen, so two dozen is 24.',
      thinking: [
        { text: 'The user wants two dozen. A dozen is twelve; twice twelve is twenty-four.' },
      ],
    },
    usage: { inputTokens: 15, outputTokens: 60, reasoningTokens: 41 },
    finishReason: 'stop',
    modelName: 'reasoner-own-test',
    responseId: 'own-reasoning-0001',
  });
});

test('reasoning_content with a tool call (xAI preset): thinking, the call, no empty content', async () => {
  server.push(reply('completion-reasoning-tool.json'));
  const xai = openaiCompatible('xai', {
    model: 'reasoner-own-mini',
    apiKey: 'sk-own-test',
    baseURL: server.url,
  });
  const response = await xai.generate(ask('When is the Louvre open?'));
  expect(wireResponse(response).message).toEqual({
    role: 'assistant',
    thinking: [
      { text: 'I need the opening hours, so I should call the museum tool for the Louvre.' },
    ],
    toolCalls: [{ id: 'call_own_museum_1', name: 'museum_hours', args: '{"museum":"Louvre"}' }],
  });
  // xAI counts reasoning apart (total 400 = 210 + 19 + 171): the output includes it here.
  expect(response.usage).toEqual({
    inputTokens: 210,
    outputTokens: 190,
    cacheReadTokens: 180,
    reasoningTokens: 171,
  });
});

test('reasoning stream: reasoning deltas precede the tool call; usage from the finishing chunk', async () => {
  server.push(streamReply('reasoning-tool.stream.sse'));
  const c = collector();
  const response = await model().stream(ask('Tide in Brest tomorrow?'), c.onDelta);
  const kinds = c.deltas.map((d) => (d.thinking ? 'thinking' : d.toolCalls ? 'tool' : 'text'));
  expect(kinds.indexOf('tool')).toBeGreaterThan(kinds.lastIndexOf('thinking'));
  expect(wireResponse(response)).toEqual({
    message: {
      role: 'assistant',
      thinking: [{ text: "The user asks for tomorrow's tide; I will call the tide tool." }],
      toolCalls: [{ id: 'call_own_tide_1', name: 'tide', args: '{"port":"Brest","day":1}' }],
    },
    usage: { inputTokens: 300, outputTokens: 52, cacheReadTokens: 256, reasoningTokens: 30 },
    finishReason: 'tool_calls',
    modelName: 'reasoner-own-test',
    responseId: 'own-reasoning-stream-03',
  });
});

test('a refusal with no content becomes the content with finish reason "refusal"', async () => {
  server.push(reply('completion-refusal.json'));
  const response = await model().generate(ask('Open this lock.'));
  expect([response.message, response.finishReason]).toEqual([
    { role: 'assistant', content: "I can't help with picking that lock." },
    'refusal',
  ]);
});

test.each([
  [
    'error-400.json',
    400,
    'invalid_value',
    "Invalid value for 'temperature': expected a number between 0 and 2.",
  ],
  [
    'error-404.json',
    404,
    'model_not_found',
    'The model `gpt-own-missing` does not exist or you do not have access to it.',
  ],
])(
  '%s: ModelHTTPError with status, code and API message; not retryable',
  async (file, status, code, text) => {
    server.push(reply(file, status));
    const error: unknown = await model()
      .generate(ask('x'))
      .catch((e: unknown) => e);
    if (!ModelHTTPError.is(error))
      throw new Error(`expected a ModelHTTPError, got ${String(error)}`);
    expect([error.status, error.code, error.retryable, error.message]).toEqual([
      status,
      code,
      false,
      `openai: HTTP ${status}: ${text}`,
    ]);
  },
);

test('an OpenRouter 429 whose error code is a number: retryable, code "429"', async () => {
  server.push(reply('error-429-numeric-code.json', 429));
  const router = openaiCompatible('openrouter', {
    model: 'own/upstream-model',
    apiKey: 'sk-or-own-test',
    baseURL: server.url,
  });
  const error: unknown = await router.generate(ask('A joke?')).catch((e: unknown) => e);
  if (!ModelHTTPError.is(error)) throw new Error(`expected a ModelHTTPError, got ${String(error)}`);
  expect([error.status, error.code, error.retryable, error.provider, error.message]).toEqual([
    429,
    '429',
    true,
    'openrouter',
    'openrouter: HTTP 429: Upstream provider is rate limited',
  ]);
});
