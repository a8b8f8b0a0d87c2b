/**
 * Request tuning of the Anthropic adapter (spec §23, §20): ranges, unset fields never sent, the
 * max_tokens default, thinking and effort, stop sequences, extraBody, the output schema and the
 * configured headers.
 */
import { type ModelRequest, type ModelSettings, ConfigError } from 'golem';
import type { AnthropicOptions } from 'golem/providers/anthropic';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { jsonReply, modelFor, ownFixture } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const base: ModelRequest = { messages: [{ role: 'user', content: 'x' }], tools: [] };

async function bodyFor(
  settings: ModelSettings | undefined,
  options: Partial<AnthropicOptions> = {},
  extra: Partial<ModelRequest> = {},
): Promise<Record<string, unknown>> {
  server.push(jsonReply(ownFixture('message-text.json')));
  await modelFor(server, options).generate({ ...base, settings, ...extra });
  return server.requests.at(-1)?.json as Record<string, unknown>;
}

async function rejected(settings: ModelSettings): Promise<string> {
  const sent = server.requests.length;
  const error = await modelFor(server)
    .generate({ ...base, settings })
    .catch((e: unknown) => e);
  expect(ConfigError.is(error, 'model')).toBe(true);
  expect(server.requests).toHaveLength(sent);
  return (error as Error).message;
}

test.each([
  [
    'temperature 1.5',
    { temperature: 1.5 },
    'anthropic: `settings.temperature` must be a number in [0, 1] for Anthropic, got 1.5',
  ],
  [
    'temperature -0.1',
    { temperature: -0.1 },
    'anthropic: `settings.temperature` must be a number in [0, 1] for Anthropic, got -0.1',
  ],
  [
    'topP 2',
    { topP: 2 },
    'anthropic: `settings.topP` must be a number in [0, 1] for Anthropic, got 2',
  ],
  [
    'topP NaN',
    { topP: Number.NaN },
    'anthropic: `settings.topP` must be a number in [0, 1] for Anthropic, got NaN',
  ],
  [
    'maxTokens -1',
    { maxTokens: -1 },
    'anthropic: `settings.maxTokens` must be an integer >= 0, got -1',
  ],
  [
    'maxTokens 1.5',
    { maxTokens: 1.5 },
    'anthropic: `settings.maxTokens` must be an integer >= 0, got 1.5',
  ],
])(
  'RQ-1 %s is rejected with model ConfigError before any request',
  async (_label, settings, message) => {
    expect(await rejected(settings)).toBe(message);
  },
);

test('RQ-2 unset fields are absent from the body; temperature 0 and topP 0 are sent as 0', async () => {
  const unset = await bodyFor(undefined);
  expect(Object.keys(unset).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream']);
  const zeros = await bodyFor({ temperature: 0, topP: 0 });
  expect([zeros.temperature, zeros.top_p]).toEqual([0, 0]);
});

test('RQ-3 maxTokens 0 sends the default 1024; unset too; a positive value is sent as is', async () => {
  expect((await bodyFor({ maxTokens: 0 })).max_tokens).toBe(1024);
  expect((await bodyFor({})).max_tokens).toBe(1024);
  expect((await bodyFor({ maxTokens: 77 })).max_tokens).toBe(77);
});

test('RQ-3 maxTokens 0 falls back to the adapter maxTokens option', async () => {
  expect((await bodyFor({ maxTokens: 0 }, { maxTokens: 8192 })).max_tokens).toBe(8192);
});

test('stop → stop_sequences; an empty list is not sent; seed and penalties have no equivalent', async () => {
  const body = await bodyFor({
    stop: ['END', '\n\n'],
    seed: 7,
    presencePenalty: 1,
    frequencyPenalty: 1,
  });
  expect(body.stop_sequences).toEqual(['END', '\n\n']);
  expect(['seed', 'presence_penalty', 'frequency_penalty'].filter((k) => k in body)).toEqual([]);
  expect('stop_sequences' in (await bodyFor({ stop: [] }))).toBe(false);
});

test.each([
  [
    { mode: 'enabled', budgetTokens: 2048 },
    { type: 'enabled', budget_tokens: 2048 },
  ],
  [{ mode: 'adaptive' }, { type: 'adaptive' }],
  [{ mode: 'disabled' }, { type: 'disabled' }],
  [
    { mode: 'adaptive', includeThoughts: true },
    { type: 'adaptive', display: 'summarized' },
  ],
  [
    { mode: 'enabled', budgetTokens: 1024, includeThoughts: false },
    { type: 'enabled', budget_tokens: 1024, display: 'omitted' },
  ],
] as const)('settings.thinking %j → thinking %j', async (thinking, wire) => {
  expect((await bodyFor({ thinking })).thinking).toEqual(wire);
});

test('thinking: the request setting overrides the adapter default, which applies when unset', async () => {
  const options = { thinking: { mode: 'adaptive' as const } };
  expect((await bodyFor({}, options)).thinking).toEqual({ type: 'adaptive' });
  expect((await bodyFor({ thinking: { mode: 'disabled' } }, options)).thinking).toEqual({
    type: 'disabled',
  });
});

test("thinking mode 'enabled' without budgetTokens is rejected", async () => {
  expect(await rejected({ thinking: { mode: 'enabled' } })).toBe(
    "anthropic: `settings.thinking` mode 'enabled' needs `budgetTokens`, a positive integer",
  );
});

test.each([
  ['minimal', 'low'],
  ['low', 'low'],
  ['medium', 'medium'],
  ['high', 'high'],
] as const)('reasoningEffort %s → output_config.effort %s', async (effort, wire) => {
  expect((await bodyFor({ reasoningEffort: effort })).output_config).toEqual({ effort: wire });
});

test('the adapter effort option applies when the request sets none; the request wins otherwise', async () => {
  expect((await bodyFor({}, { effort: 'max' })).output_config).toEqual({ effort: 'max' });
  expect((await bodyFor({ reasoningEffort: 'low' }, { effort: 'max' })).output_config).toEqual({
    effort: 'low',
  });
});

test('outputSchema → output_config.format json_schema (compiled), next to the effort', async () => {
  const schema = {
    type: 'object',
    properties: { n: { type: 'integer', minimum: 1 } },
    required: ['n'],
  };
  const body = await bodyFor({ reasoningEffort: 'high' }, {}, { outputSchema: schema });
  expect(body.output_config).toEqual({
    effort: 'high',
    format: {
      type: 'json_schema',
      schema: {
        type: 'object',
        properties: { n: { type: 'integer', description: '{minimum: 1}' } },
        required: ['n'],
        additionalProperties: false,
      },
    },
  });
});

test('outputSchema combines with tools (the API supports both in one request)', async () => {
  const body = await bodyFor(
    undefined,
    {},
    {
      outputSchema: { type: 'object', properties: {}, additionalProperties: false },
      tools: [{ name: 't', description: 'd', schema: { type: 'object' } }],
    },
  );
  expect([Array.isArray(body.tools), (body.output_config as { format?: unknown }).format]).toEqual([
    true,
    {
      type: 'json_schema',
      schema: { type: 'object', properties: {}, additionalProperties: false },
    },
  ]);
});

test('extraBody is merged last (top_k, metadata); model, messages and stream cannot be replaced', async () => {
  const body = await bodyFor({ extraBody: { top_k: 5, metadata: { user_id: 'u-1' } } });
  expect([body.top_k, body.metadata]).toEqual([5, { user_id: 'u-1' }]);
  expect(await rejected({ extraBody: { stream: true } })).toBe(
    'anthropic: `settings.extraBody` cannot set "stream"; the adapter owns it',
  );
});

test('betas are sent comma-separated in anthropic-beta; version sets anthropic-version', async () => {
  await bodyFor(undefined, { betas: ['a-2025-01-01', 'b-2025-02-02'], version: '2099-01-01' });
  const headers = server.requests[0]?.headers;
  expect([headers?.['anthropic-beta'], headers?.['anthropic-version']]).toEqual([
    'a-2025-01-01,b-2025-02-02',
    '2099-01-01',
  ]);
});
