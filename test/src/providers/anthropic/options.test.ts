/**
 * Construction of the Anthropic adapter: explicit configuration validated up front
 * (`model` `ConfigError` naming the field), the model name, and the URL it calls.
 */
import { isStreamingModel, ConfigError } from 'golem';
import {
  anthropic,
  AnthropicModel,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_TOKENS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_VERSION,
  type AnthropicOptions,
} from 'golem/providers/anthropic';
import { startReplayServer } from '../../../support/replay-server';
import { API_KEY, jsonReply, ownFixture } from './support';

function configError(options: unknown): string {
  try {
    anthropic(options as AnthropicOptions);
  } catch (error) {
    expect(ConfigError.is(error, 'model')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a model ConfigError');
}

const ok = { model: 'claude-sonnet-4-5', apiKey: API_KEY };

test('the factory and the class build the same streaming model named anthropic:<model>', () => {
  const fromFactory = anthropic(ok);
  const fromClass = new AnthropicModel(ok);
  expect([fromFactory.name, fromClass.name, isStreamingModel(fromFactory)]).toEqual([
    'anthropic:claude-sonnet-4-5',
    'anthropic:claude-sonnet-4-5',
    true,
  ]);
  expect(fromFactory).toBeInstanceOf(AnthropicModel);
});

test('documented defaults', () => {
  expect([DEFAULT_BASE_URL, DEFAULT_VERSION, DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_MS]).toEqual([
    'https://api.anthropic.com',
    '2023-06-01',
    1024,
    300_000,
  ]);
});

test.each([
  [
    'no options',
    undefined,
    'anthropic: options must be an object with at least `model` and `apiKey`',
  ],
  ['missing model', { apiKey: API_KEY }, 'anthropic: `model` must be a non-empty string'],
  ['blank model', { ...ok, model: '  ' }, 'anthropic: `model` must be a non-empty string'],
  ['missing apiKey', { model: 'm' }, 'anthropic: `apiKey` must be a non-empty string'],
  [
    'maxTokens 0',
    { ...ok, maxTokens: 0 },
    'anthropic: `maxTokens` must be a positive integer, got 0',
  ],
  [
    'maxTokens -5',
    { ...ok, maxTokens: -5 },
    'anthropic: `maxTokens` must be a positive integer, got -5',
  ],
  [
    'maxTokens 2.5',
    { ...ok, maxTokens: 2.5 },
    'anthropic: `maxTokens` must be a positive integer, got 2.5',
  ],
  [
    'baseURL not a URL',
    { ...ok, baseURL: 'api.anthropic' },
    'anthropic: `baseURL` is not a valid URL: "api.anthropic"',
  ],
  [
    'baseURL ftp',
    { ...ok, baseURL: 'ftp://x.test' },
    'anthropic: `baseURL` must be an http(s) URL, got "ftp://x.test"',
  ],
  [
    'baseURL query',
    { ...ok, baseURL: 'https://x.test/?a=1' },
    'anthropic: `baseURL` must not carry a query or fragment',
  ],
  ['empty version', { ...ok, version: '' }, 'anthropic: `version` must be a non-empty string'],
  ['betas not an array', { ...ok, betas: 'a,b' }, 'anthropic: `betas` must be an array of strings'],
  [
    'beta with comma',
    { ...ok, betas: ['a,b'] },
    'anthropic: `betas` entries must be non-empty strings without commas',
  ],
  [
    'effort unknown',
    { ...ok, effort: 'extreme' },
    'anthropic: `effort` must be one of low, medium, high, xhigh, max',
  ],
  [
    'negative timeout',
    { ...ok, timeout: -1 },
    'anthropic: `timeout` must be a number of ms >= 0 (0 disables it)',
  ],
  [
    'maxLineBytes 0',
    { ...ok, maxLineBytes: 0 },
    'anthropic: `maxLineBytes` must be a positive integer',
  ],
  ['fetch not a function', { ...ok, fetch: 'x' }, 'anthropic: `fetch` must be a function'],
  [
    'thinking mode',
    { ...ok, thinking: { mode: 'on' } },
    "anthropic: `thinking.mode` must be 'adaptive', 'enabled' or 'disabled'",
  ],
  [
    'thinking without budget',
    { ...ok, thinking: { mode: 'enabled' } },
    "anthropic: `thinking` mode 'enabled' needs `budgetTokens`, a positive integer",
  ],
  [
    'thinking budget 0',
    { ...ok, thinking: { mode: 'adaptive', budgetTokens: 0 } },
    'anthropic: `thinking.budgetTokens` must be a positive integer',
  ],
])('%s → model ConfigError', (_label, options, message) => {
  expect(configError(options)).toBe(message);
});

test('the API key never appears in a configuration error', () => {
  expect(configError({ ...ok, maxTokens: -1 })).not.toContain(API_KEY);
});

test('baseURL trailing slashes are dropped and /v1/messages is appended under its path', async () => {
  const server = await startReplayServer([jsonReply(ownFixture('message-text.json'))]);
  try {
    await anthropic({ ...ok, baseURL: `${server.url}/proxy/anthropic//` }).generate({
      messages: [{ role: 'user', content: 'x' }],
      tools: [],
    });
    expect(server.requests[0]?.url).toBe('/proxy/anthropic/v1/messages');
  } finally {
    await server.close();
  }
});

test('an injected fetch receives the URL and the request; no network is needed', async () => {
  const seen: { url: string; method?: string }[] = [];
  const model = anthropic({
    ...ok,
    fetch: (url, init) => {
      seen.push({ url, method: init.method });
      return Promise.resolve(new Response(ownFixture('message-text.json'), { status: 200 }));
    },
  });
  const response = await model.generate({ messages: [{ role: 'user', content: 'x' }], tools: [] });
  expect(seen).toEqual([{ url: 'https://api.anthropic.com/v1/messages', method: 'POST' }]);
  expect(response.finishReason).toBe('stop');
});
