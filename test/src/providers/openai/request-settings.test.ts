/**
 * Request tuning on the wire (spec §23): settings fields, defaults, ranges, extraBody, the
 * max-tokens field and streaming options.
 */
import { ConfigError } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import type { ModelRequest } from 'golem';
import { openai, openaiCompatible, type OpenAIOptions } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { completion } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model(options: Partial<OpenAIOptions> = {}) {
  return openai({
    model: 'gpt-4o-mini',
    preset: 'openai',
    apiKey: 'sk-test',
    baseURL: server.url,
    ...options,
  });
}

async function sent(request: ModelRequest, options: Partial<OpenAIOptions> = {}): Promise<unknown> {
  server.push({ body: JSON.stringify(completion({ content: 'ok' })) });
  await model(options).generate(request);
  return server.requests.at(-1)?.json;
}

const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };

test('RQ-2 unset settings are absent; 0 is sent as 0; maxTokens 0 is omitted', async () => {
  const body = await sent({ ...hi, settings: { temperature: 0, topP: 0, maxTokens: 0 } });
  expect(body).toEqual({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'hi' }],
    temperature: 0,
    top_p: 0,
  });
});

test('every setting maps to its wire field; extraBody is merged last and may override', async () => {
  const body = await sent(
    {
      ...hi,
      settings: {
        temperature: 0.7,
        topP: 0.9,
        maxTokens: 256,
        stop: ['END'],
        seed: 42,
        presencePenalty: -0.5,
        frequencyPenalty: 1.5,
        reasoningEffort: 'low',
        thinking: { mode: 'enabled', budgetTokens: 100 },
        extraBody: { user: 'u-1', temperature: 0.1 },
      },
    },
    { maxTokensField: 'max_tokens' },
  );
  expect(body).toEqual({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'hi' }],
    temperature: 0.1,
    top_p: 0.9,
    max_tokens: 256,
    stop: ['END'],
    seed: 42,
    presence_penalty: -0.5,
    frequency_penalty: 1.5,
    reasoning_effort: 'low',
    user: 'u-1',
  });
});

test('the openai preset sends maxTokens as max_completion_tokens; other presets as max_tokens', async () => {
  const openaiBody = await sent({ ...hi, settings: { maxTokens: 50 } });
  expect(openaiBody).toMatchObject({ max_completion_tokens: 50 });
  expect(openaiBody).not.toHaveProperty('max_tokens');
  server.push({ body: JSON.stringify(completion({ content: 'ok' })) });
  await openaiCompatible('groq', { model: 'm', apiKey: 'k-123', baseURL: server.url }).generate({
    ...hi,
    settings: { maxTokens: 50 },
  });
  expect(server.requests.at(-1)?.json).toMatchObject({ max_tokens: 50 });
});

test('adapter default settings apply; request settings override them field by field', async () => {
  const body = await sent(
    { ...hi, settings: { temperature: 1, extraBody: { b: 2 } } },
    { settings: { temperature: 0.2, seed: 7, extraBody: { a: 1 } } },
  );
  expect(body).toEqual({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'hi' }],
    temperature: 1,
    seed: 7,
    a: 1,
    b: 2,
  });
});

test('RQ-1 out-of-range request settings fail before any request', async () => {
  for (const settings of [
    { temperature: 2.5 },
    { topP: -0.1 },
    { maxTokens: -1 },
    { maxTokens: 1.5 },
  ]) {
    const error: unknown = await model()
      .generate({ ...hi, settings })
      .catch((e: unknown) => e);
    expect(ConfigError.is(error, 'model')).toBe(true);
  }
  expect(server.requests).toHaveLength(0);
});

test('streaming requests carry stream:true and stream_options.include_usage', async () => {
  server.push({ headers: { 'content-type': 'text/event-stream' }, body: 'data: [DONE]\n\n' });
  await model()
    .stream(hi, () => undefined)
    .catch(() => undefined);
  expect(server.requests[0]?.json).toEqual({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    stream_options: { include_usage: true },
  });
});

test('presets without stream usage support get no stream_options', async () => {
  server.push({ headers: { 'content-type': 'text/event-stream' }, body: 'data: [DONE]\n\n' });
  await openaiCompatible('mistral', {
    model: 'mistral-small',
    apiKey: 'k-123',
    baseURL: server.url,
  })
    .stream(hi, () => undefined)
    .catch(() => undefined);
  expect(server.requests[0]?.json).toEqual({
    model: 'mistral-small',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
});
