/**
 * Detailed usage and prompt caching on the chat-completions wire (documented format):
 * `prompt_tokens` already includes `prompt_tokens_details.cached_tokens` and `completion_tokens`
 * already includes `completion_tokens_details.reasoning_tokens`, so input/output keep their
 * meaning and the details are subsets; the response `id` is kept; `settings.cache` sends
 * `prompt_cache_key` and `prompt_cache_retention`.
 */
import { type ModelRequest, ConfigError } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { openai } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { sse } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const model = () =>
  openai({ model: 'gpt-own', preset: 'openai', apiKey: 'sk-own-test', baseURL: server.url });
const ask = (more: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [userMessage('Summarise the handbook.')],
  tools: [],
  ...more,
});

const usage = {
  prompt_tokens: 2006,
  completion_tokens: 300,
  total_tokens: 2306,
  prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
  completion_tokens_details: {
    reasoning_tokens: 192,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  },
};

test('generate: cached and reasoning tokens are reported as subsets; the response id is kept', async () => {
  server.push({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'chatcmpl-cache-1',
      object: 'chat.completion',
      model: 'gpt-own-2025-01-01',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'It is about safety.' },
          finish_reason: 'stop',
        },
      ],
      usage,
    }),
  });
  const response = await model().generate(ask());
  expect(response).toEqual({
    message: { role: 'assistant', content: 'It is about safety.' },
    usage: { inputTokens: 2006, outputTokens: 300, cacheReadTokens: 1920, reasoningTokens: 192 },
    finishReason: 'stop',
    modelName: 'gpt-own-2025-01-01',
    responseId: 'chatcmpl-cache-1',
  });
});

test('stream: the details come from the final usage-only chunk', async () => {
  const chunk = (delta: object, finish: string | null = null) => ({
    id: 'chatcmpl-cache-2',
    object: 'chat.completion.chunk',
    model: 'gpt-own-2025-01-01',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  server.push({
    headers: { 'content-type': 'text/event-stream' },
    body: sse([
      chunk({ role: 'assistant', content: 'Safety ' }),
      chunk({ content: 'first.' }),
      chunk({}, 'stop'),
      { id: 'chatcmpl-cache-2', object: 'chat.completion.chunk', choices: [], usage },
    ]),
  });
  const response = await model().stream(ask(), () => undefined);
  expect(response.usage).toEqual({
    inputTokens: 2006,
    outputTokens: 300,
    cacheReadTokens: 1920,
    reasoningTokens: 192,
  });
  expect(response.responseId).toBe('chatcmpl-cache-2');
});

test('zero cached and reasoning tokens leave the usage without details', async () => {
  server.push({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'chatcmpl-3',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 9,
        completion_tokens: 2,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    }),
  });
  expect((await model().generate(ask())).usage).toEqual({ inputTokens: 9, outputTokens: 2 });
});

test('DeepSeek reports cache hits as prompt_cache_hit_tokens (part of prompt_tokens)', async () => {
  server.push({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'ds-1',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 5,
        prompt_cache_hit_tokens: 64,
        prompt_cache_miss_tokens: 36,
      },
    }),
  });
  expect((await model().generate(ask())).usage).toEqual({
    inputTokens: 100,
    outputTokens: 5,
    cacheReadTokens: 64,
  });
});

test('settings.cache sends prompt_cache_key and prompt_cache_retention; breakpoint flags add nothing', async () => {
  const reply = {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    }),
  };
  server.push(reply, reply);
  await model().generate(
    ask({ settings: { cache: { key: 'handbook-v3', retention: '24h', ttl: '1h' } } }),
  );
  await model().generate(
    ask({
      messages: [{ role: 'user', content: 'Summarise.', cachePoint: true }],
      settings: { cache: true },
    }),
  );
  expect(server.requests[0]?.json).toEqual({
    model: 'gpt-own',
    messages: [{ role: 'user', content: 'Summarise the handbook.' }],
    prompt_cache_key: 'handbook-v3',
    prompt_cache_retention: '24h',
  });
  expect(server.requests[1]?.json).toEqual({
    model: 'gpt-own',
    messages: [{ role: 'user', content: 'Summarise.' }],
  });
});

test('a malformed cache setting is a model ConfigError naming the field, before anything is sent', async () => {
  const bad = [
    { key: '' },
    { retention: 'forever' },
    { ttl: '2h' },
    { tools: 'yes' },
    { keep: 1 },
    'on',
  ];
  for (const cache of bad) {
    const error = await model()
      .generate(ask({ settings: { cache: cache as never } }))
      .catch((e: unknown) => e);
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toMatch(/settings\.cache/);
  }
  expect(server.requests).toHaveLength(0);
});
