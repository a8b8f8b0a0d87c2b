/** `resolveEmbeddingModel`: embedding model strings resolved from the environment. */
import { ConfigError } from 'golem';
import { resolveEmbeddingModel } from 'golem/providers/resolve';
import { AzureEmbeddingModel } from 'golem/providers/azure';
import { BedrockEmbeddingModel } from 'golem/providers/bedrock';
import { OpenAIEmbeddingModel } from 'golem/providers/openai';
import { TestEmbeddingModel } from 'golem/testing';

const KEY = 'sk-resolve-embedding-0123456789';

/** `value` as an instance of `type`; fails the test otherwise. */
function instance<T>(value: unknown, type: abstract new (...args: never[]) => T): T {
  if (value instanceof type) return value;
  throw new Error(`expected an instance of ${type.name}`);
}

function resolutionFailure(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (ConfigError.is(error, 'resolve')) return error;
    throw error;
  }
  throw new Error('expected a resolution error');
}

test('openai:<model> reads OPENAI_API_KEY and sends it on the call', async () => {
  const seen: string[] = [];
  const fetch = (_url: string, init?: RequestInit): Promise<Response> => {
    seen.push(new Headers(init?.headers).get('authorization') ?? '');
    return Promise.resolve(
      Response.json({ data: [{ index: 0, embedding: Array.from({ length: 1536 }, () => 0.1) }] }),
    );
  };
  const model = instance(
    resolveEmbeddingModel('openai:text-embedding-3-small', {
      env: { OPENAI_API_KEY: KEY },
      fetch,
    }),
    OpenAIEmbeddingModel,
  );
  expect([model.name, model.dimensions]).toEqual(['openai:text-embedding-3-small', 1536]);
  await model.embed('hi');
  expect(seen).toEqual([`Bearer ${KEY}`]);
});

test('ollama:<model> needs no key and honours GOLEM_LOCAL_BASE_URL', () => {
  const model = instance(
    resolveEmbeddingModel('ollama:nomic-embed-text', {
      env: { GOLEM_LOCAL_BASE_URL: 'http://10.0.0.5:11434/v1' },
    }),
    OpenAIEmbeddingModel,
  );
  expect([model.name, model.baseURL]).toEqual([
    'ollama:nomic-embed-text',
    'http://10.0.0.5:11434/v1',
  ]);
});

test('azure, gemini and bedrock strings build their adapters', () => {
  const azure = instance(
    resolveEmbeddingModel('azure:embed-small', {
      env: {
        AZURE_OPENAI_ENDPOINT: 'https://golem.openai.azure.com',
        AZURE_OPENAI_API_KEY: 'azure-key-0123456789',
        AZURE_OPENAI_API_VERSION: '2024-10-21',
      },
    }),
    AzureEmbeddingModel,
  );
  expect(azure.url).toBe(
    'https://golem.openai.azure.com/openai/deployments/embed-small/embeddings?api-version=2024-10-21',
  );
  expect(
    resolveEmbeddingModel('gemini:text-embedding-004', {
      env: { GOOGLE_API_KEY: 'AIza-0123456789' },
    }).name,
  ).toBe('gemini:text-embedding-004');
  const bedrock = instance(
    resolveEmbeddingModel('bedrock:amazon.titan-embed-text-v2:0', {
      env: { AWS_REGION: 'eu-west-1' },
    }),
    BedrockEmbeddingModel,
  );
  expect([bedrock.name, bedrock.maxBatch]).toEqual(['bedrock:amazon.titan-embed-text-v2:0', 1]);
  bedrock.destroy();
});

test('test uses the factory; without one it fails with missing-test-model', () => {
  const model = resolveEmbeddingModel('test', { testModel: () => new TestEmbeddingModel() });
  expect(model).toBeInstanceOf(TestEmbeddingModel);
  expect(resolutionFailure(() => resolveEmbeddingModel('test', { env: {} })).reason).toBe(
    'missing-test-model',
  );
});

test('a missing key names the variable; a provider without embeddings is invalid-config', () => {
  const missing = resolutionFailure(() =>
    resolveEmbeddingModel('openai:text-embedding-3-small', { env: {} }),
  );
  expect(missing).toMatchObject({ reason: 'missing-env', variables: ['OPENAI_API_KEY'] });
  const none = resolutionFailure(() =>
    resolveEmbeddingModel('anthropic:claude-sonnet-4-5', { env: {} }),
  );
  expect(none.reason).toBe('invalid-config');
  expect(none.message).toContain('serves no embeddings');
});

test('an adapter ConfigError becomes invalid-config without the key in the message', () => {
  const error = resolutionFailure(() =>
    resolveEmbeddingModel('openai:text-embedding-3-small', {
      env: { OPENAI_API_KEY: KEY },
      overrides: { openai: { maxBatch: 0 } },
    }),
  );
  expect(error.reason).toBe('invalid-config');
  expect(error.message).toContain('maxBatch');
  expect(error.message).not.toContain(KEY);
});
