/**
 * Construction-time validation, presets and capability checks (no HTTP needed: every failure here
 * happens before a request could be sent).
 */
import { ConfigError } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import type { ModelRequest } from 'golem';
import {
  OPENAI_PRESETS,
  OPENAI_PRESET_NAMES,
  OpenAIChatModel,
  openai,
  openaiCompatible,
  type OpenAIOptions,
} from 'golem/providers/openai';

function configError(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    if (ConfigError.is(error, 'model')) return error.message;
    throw error;
  }
  throw new Error('expected a model ConfigError');
}

const neverFetch = (): Promise<Response> => Promise.reject(new Error('no request expected'));

test('openai() defaults to the openai preset and names the model openai:<model>', () => {
  const model = openai({ model: 'gpt-4o-mini', apiKey: 'sk-1' });
  expect(model).toBeInstanceOf(OpenAIChatModel);
  expect([model.name, model.provider, model.baseURL]).toEqual([
    'openai:gpt-4o-mini',
    'openai',
    'https://api.openai.com/v1',
  ]);
});

test('a custom baseURL without a preset is a generic compatible server; no key needed', () => {
  const model = openai({ model: 'qwen', baseURL: 'http://10.0.0.2:9000/v1/' });
  expect([model.name, model.baseURL]).toEqual([
    'openai-compatible:qwen',
    'http://10.0.0.2:9000/v1',
  ]);
});

test('hosted presets require apiKey and name the environment variable the CLI reads', () => {
  expect(configError(() => openai({ model: 'gpt-4o' }))).toBe(
    'openai: apiKey is required for OpenAI (the CLI reads it from OPENAI_API_KEY)',
  );
  expect(configError(() => openaiCompatible('groq', { model: 'llama' }))).toBe(
    'groq: apiKey is required for Groq (the CLI reads it from GROQ_API_KEY)',
  );
});

test('Ollama and LM Studio are local presets without a key', () => {
  expect(OPENAI_PRESETS.ollama).toMatchObject({
    baseURL: 'http://localhost:11434/v1',
    requiresKey: false,
  });
  expect(OPENAI_PRESETS.lmstudio).toMatchObject({
    baseURL: 'http://localhost:1234/v1',
    requiresKey: false,
  });
  expect(openaiCompatible('lmstudio', { model: 'qwen2.5-7b' }).baseURL).toBe(
    'http://localhost:1234/v1',
  );
});

test('the preset table lists the twelve named services (vLLM included) plus Ollama and LM Studio', () => {
  expect(OPENAI_PRESET_NAMES).toEqual([
    'openai',
    'groq',
    'openrouter',
    'deepseek',
    'mistral',
    'xai',
    'perplexity',
    'cerebras',
    'fireworks',
    'together',
    'cohere',
    'vllm',
    'ollama',
    'lmstudio',
  ]);
  for (const name of OPENAI_PRESET_NAMES) {
    const preset = OPENAI_PRESETS[name];
    expect(() => new URL(preset.baseURL)).not.toThrow();
    if (preset.requiresKey) expect(preset.apiKeyEnv).toMatch(/^[A-Z_]+_API_KEY$/);
  }
});

test('an unknown preset lists the known ones', () => {
  const options = { model: 'm', preset: 'bogus' } as unknown as OpenAIOptions;
  expect(configError(() => openai(options))).toBe(
    `openai: unknown preset "bogus"; known: ${OPENAI_PRESET_NAMES.join(', ')}`,
  );
});

test.each([
  [{ model: '' }, 'openai: model is required (a non-empty string)'],
  [{ model: 'm', apiKey: '' }, 'openai: apiKey is required (a non-empty string)'],
  [
    { model: 'm', baseURL: 'not a url' },
    'openai-compatible: baseURL is not a valid URL: "not a url"',
  ],
  [{ model: 'm', baseURL: 'ftp://x/v1' }, 'openai-compatible: baseURL must be an http(s) URL'],
  [
    { model: 'm', baseURL: 'http://x/v1?k=1' },
    'openai-compatible: baseURL must not carry a query string or fragment',
  ],
  [{ model: 'm', apiKey: 'k-1', timeout: -1 }, 'openai: timeout must be a whole number ≥ 0'],
  [{ model: 'm', apiKey: 'k-1', fetch: 'x' }, 'openai: fetch must be a function'],
  [
    { model: 'm', apiKey: 'k-1', headers: { a: 1 } },
    'openai: headers must be an object of string values',
  ],
  [
    { model: 'm', apiKey: 'k-1', capabilities: { vision: true } },
    'openai: unknown capability "vision"',
  ],
])('invalid option %j → %s', (options, message) => {
  expect(configError(() => openai(options as unknown as OpenAIOptions))).toBe(message);
});

test('RQ-1 default settings are validated at construction (§23 ranges)', () => {
  const base = { model: 'm', apiKey: 'k-1' };
  expect(configError(() => openai({ ...base, settings: { temperature: 2.01 } }))).toBe(
    'openai: settings.temperature must be between 0 and 2, got 2.01',
  );
  expect(configError(() => openai({ ...base, settings: { topP: 1.5 } }))).toBe(
    'openai: settings.topP must be between 0 and 1, got 1.5',
  );
  expect(configError(() => openai({ ...base, settings: { maxTokens: -1 } }))).toBe(
    'openai: settings.maxTokens must be a whole number ≥ 0, got -1',
  );
  expect(configError(() => openai({ ...base, settings: { presencePenalty: 3 } }))).toBe(
    'openai: settings.presencePenalty must be between -2 and 2, got 3',
  );
  expect(configError(() => openai({ ...base, settings: { temperature: Number.NaN } }))).toBe(
    'openai: settings.temperature must be between 0 and 2, got NaN',
  );
  expect(() =>
    openai({ ...base, settings: { temperature: 0, topP: 0, maxTokens: 0 } }),
  ).not.toThrow();
});

test('strictSchemas on a preset without strict tools is refused unless overridden', () => {
  expect(
    configError(() => openaiCompatible('groq', { model: 'm', apiKey: 'k-1', strictSchemas: true })),
  ).toContain('strictSchemas needs strict function tools');
  expect(() =>
    openaiCompatible('groq', {
      model: 'm',
      apiKey: 'k-1',
      strictSchemas: true,
      capabilities: { strictTools: true },
    }),
  ).not.toThrow();
});

async function requestError(model: OpenAIChatModel, request: ModelRequest): Promise<string> {
  const error: unknown = await model.generate(request).catch((e: unknown) => e);
  if (!ConfigError.is(error, 'model'))
    throw new Error(`expected model ConfigError, got ${String(error)}`);
  return error.message;
}

const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
const tool = { name: 't', description: 'd', schema };

test('native structured output on a service without it points to tool-mode output', async () => {
  const deepseek = openaiCompatible('deepseek', { model: 'm', apiKey: 'k-1', fetch: neverFetch });
  expect(
    await requestError(deepseek, { messages: [userMessage('x')], tools: [], outputSchema: schema }),
  ).toBe(
    'deepseek: this endpoint has no native structured output (response_format json_schema); use tool-mode structured output (Agent `outputTool`) instead',
  );
});

test('structured output together with tools where the service cannot combine them points to tool mode', async () => {
  const groq = openaiCompatible('groq', { model: 'm', apiKey: 'k-1', fetch: neverFetch });
  expect(
    await requestError(groq, { messages: [userMessage('x')], tools: [tool], outputSchema: schema }),
  ).toBe(
    'groq: this endpoint cannot combine native structured output with tools; use tool-mode structured output (Agent `outputTool`) instead',
  );
});

test('tools on a service without function calling fail before any request', async () => {
  const perplexity = openaiCompatible('perplexity', {
    model: 'sonar',
    apiKey: 'k-1',
    fetch: neverFetch,
  });
  expect(await requestError(perplexity, { messages: [userMessage('x')], tools: [tool] })).toBe(
    'perplexity: this endpoint does not support tools (function calling)',
  );
});

test('an output schema strict mode cannot express is refused with the path and the way out', async () => {
  const model = openai({ model: 'm', apiKey: 'k-1', fetch: neverFetch });
  expect(
    await requestError(model, {
      messages: [userMessage('x')],
      tools: [],
      outputSchema: { type: 'object', properties: { tags: { type: 'array' } } },
    }),
  ).toBe(
    'openai: outputSchema: schema at #/properties/tags cannot be used in OpenAI strict mode: an array needs an items schema; use tool-mode structured output (Agent `outputTool`) instead',
  );
});

test('the API key never appears in configuration errors', () => {
  const message = configError(() =>
    openai({ model: 'm', apiKey: 'sk-very-secret', settings: { temperature: 9 } }),
  );
  expect(message).not.toContain('sk-very-secret');
});
