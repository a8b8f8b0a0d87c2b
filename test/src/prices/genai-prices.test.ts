import { Agent, ConfigError } from 'golem';
import { genaiPrices } from 'golem/prices';
import { loadDataset } from '../../../src/prices/genai-prices';
import { ScriptedModel, textResponse } from 'golem/testing';

// The maintained dataset (@pydantic/genai-prices 0.1.8, pinned): gpt-4o-mini is $0.15 input,
// $0.075 cached input and $0.60 output per million tokens.

test('prices a run from the dataset, cache reads at the cached rate', async () => {
  const model = new ScriptedModel(
    [textResponse('ok', { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 500 })],
    { name: 'openai:gpt-4o-mini' },
  );
  const result = await new Agent({ model, prices: genaiPrices() }).run('go');
  expect(result.cost?.currency).toBe('USD');
  expect(result.cost?.unpriced).toBe(0);
  expect(result.cost?.input).toBeCloseTo((500 * 0.15 + 500 * 0.075) / 1e6, 12);
  expect(result.cost?.output).toBeCloseTo((100 * 0.6) / 1e6, 12);
});

test('the model the provider names is tried first, then the configured one; unknown models are unpriced', () => {
  const table = genaiPrices();
  const usage = { inputTokens: 1_000_000, outputTokens: 0 };
  expect(
    table.cost(usage, { provider: 'openai', model: 'not-a-model', responseModel: 'gpt-4o-mini' })
      ?.total,
  ).toBeCloseTo(0.15, 9);
  expect(table.cost(usage, { provider: 'openai', model: 'gpt-4o-mini' })?.total).toBeCloseTo(
    0.15,
    9,
  );
  expect(table.cost(usage, { provider: 'acme', model: 'mystery-9000' })).toBeUndefined();
});

test('a missing dataset package is a missing-peer ConfigError naming the install command', () => {
  const missing = () => {
    throw Object.assign(new Error("Cannot find module '@pydantic/genai-prices'"), {
      code: 'MODULE_NOT_FOUND',
    });
  };
  let error: unknown;
  try {
    loadDataset(missing);
  } catch (e) {
    error = e;
  }
  expect(ConfigError.is(error, 'peers')).toBe(true);
  expect((error as ConfigError).command).toBe('npm install @pydantic/genai-prices');
  expect(() => genaiPrices({ load: missing })).toThrow(/npm install @pydantic\/genai-prices/);
});
