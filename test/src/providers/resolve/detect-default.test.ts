/**
 * detectDefaultModel: the first configured provider in the order OPENAI_API_KEY →
 * ANTHROPIC_API_KEY → GEMINI_API_KEY (or GOOGLE_API_KEY) → GOLEM_LOCAL_BASE_URL, else `test`;
 * and every string it returns resolves with the same environment.
 */
import type { StreamingModel } from 'golem';
import { detectDefaultModel, resolveModel } from 'golem/providers/resolve';
import { DEFAULT_MODEL_IDS } from '../../../../src/providers/resolve/providers';
import { TestModel } from 'golem/testing';

const ALL = {
  OPENAI_API_KEY: 'sk-1',
  ANTHROPIC_API_KEY: 'sk-ant-1',
  GEMINI_API_KEY: 'g-1',
  GOLEM_LOCAL_BASE_URL: 'http://localhost:11434/v1',
};

test.each<[Record<string, string>, string]>([
  [ALL, 'openai:gpt-4o-mini'],
  [{ ...ALL, OPENAI_API_KEY: '' }, 'anthropic:claude-sonnet-4-5'],
  [
    { GEMINI_API_KEY: 'g-1', GOLEM_LOCAL_BASE_URL: 'http://localhost:11434/v1' },
    'gemini:gemini-2.5-flash',
  ],
  [
    { GOOGLE_API_KEY: 'g-1', GOLEM_LOCAL_BASE_URL: 'http://localhost:11434/v1' },
    'gemini:gemini-2.5-flash',
  ],
  [{ GOLEM_LOCAL_BASE_URL: 'http://localhost:1234/v1' }, 'ollama:llama3.2'],
  [{}, 'test'],
  [
    { OPENAI_API_KEY: ' ', ANTHROPIC_API_KEY: '\n', GEMINI_API_KEY: '', GOLEM_LOCAL_BASE_URL: '' },
    'test',
  ],
  [{ AZURE_OPENAI_API_KEY: 'k', GROQ_API_KEY: 'k', AWS_REGION: 'us-east-1' }, 'test'],
])('%j → %s', (env, spec) => {
  expect(detectDefaultModel(env)).toBe(spec);
});

test.each<[Record<string, string>, string]>([
  [{ OPENAI_API_KEY: 'k', OPENAI_MODEL: 'gpt-4.1' }, 'openai:gpt-4.1'],
  [{ ANTHROPIC_API_KEY: 'k', ANTHROPIC_MODEL: 'claude-haiku-4-5' }, 'anthropic:claude-haiku-4-5'],
  [{ GEMINI_API_KEY: 'k', GEMINI_MODEL: 'gemini-2.5-pro' }, 'gemini:gemini-2.5-pro'],
  [{ GOLEM_LOCAL_BASE_URL: 'http://h:1/v1', GOLEM_LOCAL_MODEL: 'qwen2.5:7b' }, 'ollama:qwen2.5:7b'],
  [{ OPENAI_API_KEY: 'k', ANTHROPIC_MODEL: 'claude-haiku-4-5' }, 'openai:gpt-4o-mini'],
])('the provider’s model variable picks the model: %j → %s', (env, spec) => {
  expect(detectDefaultModel(env)).toBe(spec);
});

test('the default models are the documented ones', () => {
  expect(DEFAULT_MODEL_IDS).toEqual({
    openai: 'gpt-4o-mini',
    anthropic: 'claude-sonnet-4-5',
    gemini: 'gemini-2.5-flash',
    ollama: 'llama3.2',
  });
});

test('without an argument it reads process.env', () => {
  const names = [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_MODEL',
    'GEMINI_API_KEY',
    'GOOGLE_API_KEY',
    'GOLEM_LOCAL_BASE_URL',
  ];
  const saved = names.map((name) => [name, process.env[name]] as const);
  try {
    for (const name of names) Reflect.deleteProperty(process.env, name);
    expect(detectDefaultModel()).toBe('test');
    process.env.ANTHROPIC_API_KEY = 'sk-ant-1';
    expect(detectDefaultModel()).toBe('anthropic:claude-sonnet-4-5');
  } finally {
    for (const [name, value] of saved)
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
  }
});

test.each([
  ALL,
  { ANTHROPIC_API_KEY: 'k' },
  { GOOGLE_API_KEY: 'k' },
  { GOLEM_LOCAL_BASE_URL: 'http://localhost:1234/v1' },
  {},
])('the detected string resolves with the same environment: %j', (env) => {
  const testModel = (name: string): StreamingModel => new TestModel({ name });
  const spec = detectDefaultModel(env);
  expect(resolveModel(spec, { env, testModel }).name).toBe(spec);
});

test('the local default resolves at GOLEM_LOCAL_BASE_URL', () => {
  const env = { GOLEM_LOCAL_BASE_URL: 'http://localhost:1234/v1' };
  const model = resolveModel(detectDefaultModel(env), { env });
  expect(model.name).toBe('ollama:llama3.2');
  expect((model as unknown as { baseURL: string }).baseURL).toBe('http://localhost:1234/v1');
});
