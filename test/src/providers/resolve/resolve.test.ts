/**
 * resolveModel: every provider string builds the right adapter, wired with the keys, endpoints
 * and base URLs of the environment it is given (checked on the request each adapter sends through
 * an injected fetch), overrides layered over the environment, and `test` through the injected
 * factory.
 */
import { expectTypeOf } from 'expect-type';
import { Agent, type StreamingModel } from 'golem';
import { AnthropicModel } from 'golem/providers/anthropic';
import { AzureChatModel } from 'golem/providers/azure';
import { BedrockModel } from 'golem/providers/bedrock';
import { GeminiModel } from 'golem/providers/gemini';
import { OPENAI_PRESETS, OPENAI_PRESET_NAMES, OpenAIChatModel } from 'golem/providers/openai';
import { resolveModel } from 'golem/providers/resolve';
import { TestModel } from 'golem/testing';
import { fakeBedrockSdk, firstRequest, recordingFetch, resolutionError } from './support';

const testModel = (name: string): StreamingModel => new TestModel({ name });

describe('OpenAI and the OpenAI-compatible presets', () => {
  test.each(OPENAI_PRESET_NAMES)(
    '%s:<model> builds the preset adapter at its base URL with its key variable',
    async (preset) => {
      const { apiKeyEnv, baseURL } = OPENAI_PRESETS[preset];
      const env = apiKeyEnv === undefined ? {} : { [apiKeyEnv]: `key-for-${preset}` };
      const { fetch, seen } = recordingFetch();
      const model = resolveModel(`${preset}:model-1`, { env, fetch });
      expect(model).toBeInstanceOf(OpenAIChatModel);
      expect([model.name, model.baseURL]).toEqual([`${preset}:model-1`, baseURL]);
      const sent = await firstRequest(model, seen);
      expect(sent.url).toBe(`${baseURL}/chat/completions`);
      expect(sent.body).toMatchObject({ model: 'model-1' });
      expect(sent.headers.authorization).toBe(
        apiKeyEnv === undefined ? undefined : `Bearer key-for-${preset}`,
      );
    },
  );

  test('openai:gpt-4o-mini reads OPENAI_API_KEY', async () => {
    const { fetch, seen } = recordingFetch();
    const model = resolveModel('openai:gpt-4o-mini', { env: { OPENAI_API_KEY: 'sk-1' }, fetch });
    const sent = await firstRequest(model, seen);
    expect([model.name, sent.url, sent.headers.authorization]).toEqual([
      'openai:gpt-4o-mini',
      'https://api.openai.com/v1/chat/completions',
      'Bearer sk-1',
    ]);
  });

  test('vllm works without VLLM_API_KEY (no Authorization header)', async () => {
    const { fetch, seen } = recordingFetch();
    const model = resolveModel('vllm:Qwen/Qwen2.5-7B-Instruct', { env: {}, fetch });
    const sent = await firstRequest(model, seen);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toMatchObject({ model: 'Qwen/Qwen2.5-7B-Instruct' });
  });

  test.each(['ollama', 'lmstudio'] as const)(
    '%s uses its local default without GOLEM_LOCAL_BASE_URL and the variable when set',
    (preset) => {
      expect(resolveModel(`${preset}:llama3.2`, { env: {} }).baseURL).toBe(
        OPENAI_PRESETS[preset].baseURL,
      );
      const env = { GOLEM_LOCAL_BASE_URL: 'http://gpu-box:11434/v1/' };
      expect(resolveModel(`${preset}:llama3.2`, { env }).baseURL).toBe('http://gpu-box:11434/v1');
    },
  );

  test('GOLEM_LOCAL_BASE_URL does not move hosted presets or vllm', () => {
    const env = { GOLEM_LOCAL_BASE_URL: 'http://gpu-box:11434/v1', GROQ_API_KEY: 'gsk-1' };
    expect(resolveModel('groq:llama-3.3-70b-versatile', { env }).baseURL).toBe(
      OPENAI_PRESETS.groq.baseURL,
    );
    expect(resolveModel('vllm:m', { env }).baseURL).toBe(OPENAI_PRESETS.vllm.baseURL);
  });

  test('the model keeps every character after the first colon (ollama tags)', () => {
    const model = resolveModel('ollama:llama3.2:1b', { env: {} });
    expect([model.name, model.model]).toEqual(['ollama:llama3.2:1b', 'llama3.2:1b']);
  });
});

describe('Anthropic, Gemini, Azure, Bedrock', () => {
  test('anthropic:claude-sonnet-4-5 reads ANTHROPIC_API_KEY (x-api-key)', async () => {
    const { fetch, seen } = recordingFetch();
    const model = resolveModel('anthropic:claude-sonnet-4-5', {
      env: { ANTHROPIC_API_KEY: 'sk-ant-1' },
      fetch,
    });
    expect(model).toBeInstanceOf(AnthropicModel);
    const sent = await firstRequest(model, seen);
    expect([model.name, sent.url, sent.headers['x-api-key']]).toEqual([
      'anthropic:claude-sonnet-4-5',
      'https://api.anthropic.com/v1/messages',
      'sk-ant-1',
    ]);
  });

  test.each([
    [{ GEMINI_API_KEY: 'g-1' }, 'g-1'],
    [{ GOOGLE_API_KEY: 'g-2' }, 'g-2'],
    [{ GEMINI_API_KEY: 'g-1', GOOGLE_API_KEY: 'g-2' }, 'g-1'],
    [{ GEMINI_API_KEY: '  ', GOOGLE_API_KEY: 'g-2' }, 'g-2'],
  ])('gemini:gemini-2.5-flash with %j sends x-goog-api-key %s', async (env, key) => {
    const { fetch, seen } = recordingFetch();
    const model = resolveModel('gemini:gemini-2.5-flash', { env, fetch });
    expect(model).toBeInstanceOf(GeminiModel);
    const sent = await firstRequest(model, seen);
    expect([model.name, sent.url, sent.headers['x-goog-api-key']]).toEqual([
      'gemini:gemini-2.5-flash',
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
      key,
    ]);
  });

  const azureEnv = {
    AZURE_OPENAI_ENDPOINT: 'https://contoso.openai.azure.com',
    AZURE_OPENAI_API_KEY: 'az-key-1',
    AZURE_OPENAI_API_VERSION: '2024-10-21',
  };

  test('azure:<deployment> reads endpoint, key and api-version', async () => {
    const { fetch, seen } = recordingFetch();
    const model = resolveModel('azure:gpt-4o-prod', { env: azureEnv, fetch });
    expect(model).toBeInstanceOf(AzureChatModel);
    const sent = await firstRequest(model, seen);
    expect([model.name, sent.url, sent.headers['api-key']]).toEqual([
      'azure:gpt-4o-prod',
      'https://contoso.openai.azure.com/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21',
      'az-key-1',
    ]);
  });

  test('azure with AZURE_OPENAI_API_VERSION=v1 calls the v1 API with the deployment as model', async () => {
    const { fetch, seen } = recordingFetch();
    const env = { ...azureEnv, AZURE_OPENAI_API_VERSION: 'v1' };
    const sent = await firstRequest(resolveModel('azure:gpt-4o-prod', { env, fetch }), seen);
    expect(sent.url).toBe('https://contoso.openai.azure.com/openai/v1/chat/completions');
    expect(sent.body).toMatchObject({ model: 'gpt-4o-prod' });
  });

  test('bedrock:<model id> keeps the colons of the id and takes AWS_REGION', () => {
    const sdk = fakeBedrockSdk();
    const model = resolveModel('bedrock:us.amazon.nova-micro-v1:0', {
      env: { AWS_REGION: 'eu-west-1', AWS_DEFAULT_REGION: 'us-east-1' },
      overrides: { bedrock: { loadSdk: sdk.loadSdk } },
    });
    expect(model).toBeInstanceOf(BedrockModel);
    expect([model.name, model.modelId]).toEqual([
      'bedrock:us.amazon.nova-micro-v1:0',
      'us.amazon.nova-micro-v1:0',
    ]);
    expect(sdk.configs).toEqual([{ maxAttempts: 1, region: 'eu-west-1' }]);
  });

  test.each([
    [{ AWS_DEFAULT_REGION: 'us-east-1' }, { maxAttempts: 1, region: 'us-east-1' }],
    [{}, { maxAttempts: 1 }],
    [{ AWS_REGION: ' ' }, { maxAttempts: 1 }],
  ])(
    'bedrock with %j: AWS_DEFAULT_REGION is the fallback, else the SDK chain decides',
    (env, config) => {
      const sdk = fakeBedrockSdk();
      resolveModel('bedrock:m', { env, overrides: { bedrock: { loadSdk: sdk.loadSdk } } });
      expect(sdk.configs).toEqual([config]);
    },
  );

  test('bedrock: an override region or client wins over AWS_REGION', () => {
    const sdk = fakeBedrockSdk();
    const env = { AWS_REGION: 'eu-west-1' };
    resolveModel('bedrock:m', {
      env,
      overrides: { bedrock: { loadSdk: sdk.loadSdk, region: 'ap-south-1' } },
    });
    resolveModel('bedrock:m', {
      env,
      overrides: { bedrock: { loadSdk: sdk.loadSdk, client: { region: 'us-west-2' } } },
    });
    expect(sdk.configs).toEqual([
      { maxAttempts: 1, region: 'ap-south-1' },
      { maxAttempts: 1, region: 'us-west-2' },
    ]);
  });
});

describe('test', () => {
  test('test builds the injected model with the string as its name', () => {
    const model = resolveModel('test', { testModel });
    expect(model).toBeInstanceOf(TestModel);
    expect(model.name).toBe('test');
    expect(resolveModel('test:fast', { testModel }).name).toBe('test:fast');
  });

  test('the resolved test model runs an agent offline', async () => {
    const agent = new Agent({ model: resolveModel('test', { testModel, env: {} }) });
    const result = await agent.run('hello');
    expect(result.output).toBe('success (no tool calls)');
  });
});

describe('environment and options', () => {
  const saved = process.env.OPENAI_API_KEY;
  afterEach(() => {
    if (saved === undefined) Reflect.deleteProperty(process.env, 'OPENAI_API_KEY');
    else process.env.OPENAI_API_KEY = saved;
  });

  test('only the env passed is read: process.env is ignored when env is given', () => {
    process.env.OPENAI_API_KEY = 'sk-from-process';
    const error = resolutionError(() => resolveModel('openai:gpt-4o-mini', { env: {} }));
    expect([error.reason, error.variables]).toEqual(['missing-env', ['OPENAI_API_KEY']]);
  });

  test('without env, process.env is read', async () => {
    process.env.OPENAI_API_KEY = 'sk-from-process';
    const { fetch, seen } = recordingFetch();
    const sent = await firstRequest(resolveModel('openai:gpt-4o-mini', { fetch }), seen);
    expect(sent.headers.authorization).toBe('Bearer sk-from-process');
  });

  test('values are trimmed; blank values count as unset', async () => {
    const { fetch, seen } = recordingFetch();
    const model = resolveModel('openai:gpt-4o-mini', {
      env: { OPENAI_API_KEY: '  sk-2\n' },
      fetch,
    });
    expect((await firstRequest(model, seen)).headers.authorization).toBe('Bearer sk-2');
    const blank = resolutionError(() =>
      resolveModel('openai:gpt-4o-mini', { env: { OPENAI_API_KEY: ' \t' } }),
    );
    expect(blank.reason).toBe('missing-env');
  });

  test('surrounding whitespace around the string is ignored', () => {
    expect(resolveModel('  ollama:llama3.2 \n', { env: {} }).name).toBe('ollama:llama3.2');
  });

  test('an override key replaces the variable and wins over it', async () => {
    const { fetch, seen } = recordingFetch();
    const noEnv = resolveModel('groq:m', {
      env: {},
      fetch,
      overrides: { groq: { apiKey: 'o-1' } },
    });
    const both = resolveModel('groq:m', {
      env: { GROQ_API_KEY: 'e-1' },
      fetch,
      overrides: { groq: { apiKey: 'o-2' } },
    });
    await firstRequest(noEnv, seen);
    await expect(both.generate({ messages: [], tools: [] })).rejects.toThrow();
    expect(seen.map((s) => s.headers.authorization)).toEqual(['Bearer o-1', 'Bearer o-2']);
  });

  test('undefined override values are ignored; other override options reach the adapter', async () => {
    const { fetch, seen } = recordingFetch();
    const model = resolveModel('anthropic:claude-sonnet-4-5', {
      env: { ANTHROPIC_API_KEY: 'sk-ant-1' },
      fetch,
      overrides: { anthropic: { apiKey: undefined, baseURL: 'http://proxy.local:8080' } },
    });
    const sent = await firstRequest(model, seen);
    expect([sent.url, sent.headers['x-api-key']]).toEqual([
      'http://proxy.local:8080/v1/messages',
      'sk-ant-1',
    ]);
  });

  test('an override fetch wins over options.fetch', async () => {
    const outer = recordingFetch();
    const inner = recordingFetch();
    const model = resolveModel('openai:gpt-4o-mini', {
      env: { OPENAI_API_KEY: 'sk-1' },
      fetch: outer.fetch,
      overrides: { openai: { fetch: inner.fetch } },
    });
    await firstRequest(model, inner.seen);
    expect(outer.seen).toEqual([]);
  });

  test('an override baseURL wins over GOLEM_LOCAL_BASE_URL', () => {
    const model = resolveModel('ollama:llama3.2', {
      env: { GOLEM_LOCAL_BASE_URL: 'http://a:1/v1' },
      overrides: { ollama: { baseURL: 'http://b:2/v1' } },
    });
    expect(model.baseURL).toBe('http://b:2/v1');
  });

  test('azure overrides: resourceName replaces the endpoint variable, getToken the key', async () => {
    const { fetch, seen } = recordingFetch();
    const model = resolveModel('azure:dep', {
      env: { AZURE_OPENAI_ENDPOINT: 'https://ignored.example', AZURE_OPENAI_API_VERSION: 'v1' },
      fetch,
      overrides: { azure: { resourceName: 'contoso', getToken: () => 'entra-token' } },
    });
    const sent = await firstRequest(model, seen);
    expect([sent.url, sent.headers.authorization, sent.headers['api-key']]).toEqual([
      'https://contoso.openai.azure.com/openai/v1/chat/completions',
      'Bearer entra-token',
      undefined,
    ]);
  });

  test('gemini: an accessToken override makes the key variables unnecessary', async () => {
    const { fetch, seen } = recordingFetch();
    const model = resolveModel('gemini:gemini-2.5-flash', {
      env: {},
      fetch,
      overrides: { gemini: { accessToken: 'ya29.token' } },
    });
    const sent = await firstRequest(model, seen);
    expect([sent.headers.authorization, sent.headers['x-goog-api-key']]).toEqual([
      'Bearer ya29.token',
      undefined,
    ]);
  });

  test('the returned type follows the provider of a literal string', () => {
    const env = {
      OPENAI_API_KEY: 'k',
      ANTHROPIC_API_KEY: 'k',
      GEMINI_API_KEY: 'k',
      GROQ_API_KEY: 'k',
    };
    expectTypeOf(
      resolveModel('anthropic:claude-sonnet-4-5', { env }),
    ).toEqualTypeOf<AnthropicModel>();
    expectTypeOf(resolveModel('gemini:gemini-2.5-flash', { env })).toEqualTypeOf<GeminiModel>();
    expectTypeOf(resolveModel('groq:llama', { env })).toEqualTypeOf<OpenAIChatModel>();
    expectTypeOf(resolveModel('openai:gpt-4o', { env })).toEqualTypeOf<OpenAIChatModel>();
    expectTypeOf(resolveModel('test', { testModel })).toEqualTypeOf<StreamingModel>();
    const fromConfig: string = 'openai:gpt-4o';
    expectTypeOf(resolveModel(fromConfig, { env })).toEqualTypeOf<StreamingModel>();
  });
});
