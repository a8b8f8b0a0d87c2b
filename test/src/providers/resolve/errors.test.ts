/**
 * resolve ConfigError: malformed strings, unknown providers (the known list and the closest
 * name), missing variables (named, never their values), invalid options and adapter
 * configuration, the missing test-model factory — and that no key value ever appears in an error.
 */
import fc from 'fast-check';
import { GolemError, ModelHTTPError, ConfigError } from 'golem';
import type { BedrockSdk } from 'golem/providers/bedrock';
import { KNOWN_PROVIDERS, resolveModel, type ResolveModelOptions } from 'golem/providers/resolve';
import { resolutionError } from './support';

const KNOWN =
  'openai, anthropic, gemini, azure, bedrock, openai-responses, groq, openrouter, deepseek, mistral, xai, perplexity, cerebras, fireworks, together, cohere, vllm, ollama, lmstudio, test';

function failure(spec: unknown, options: ResolveModelOptions = { env: {} }): ConfigError {
  return resolutionError(() => resolveModel(spec as string, options));
}

describe('identity', () => {
  test('a resolve ConfigError is a branded GolemError', () => {
    const error = failure('nope');
    expect(error).toBeInstanceOf(GolemError);
    expect([error.kind, error.name, error.component]).toEqual([
      'ConfigError',
      'ConfigError',
      'resolve',
    ]);
    expect(ConfigError.is(error, 'resolve')).toBe(true);
    expect(GolemError.isGolemError(error)).toBe(true);
    expect(ConfigError.is(new ModelHTTPError({ status: 500, provider: 'x' }), 'resolve')).toBe(
      false,
    );
    expect(ConfigError.is(new Error('x'), 'resolve')).toBe(false);
  });

  test('the known providers are every adapter, every preset and test', () => {
    expect(KNOWN_PROVIDERS.join(', ')).toBe(KNOWN);
  });
});

describe('malformed strings', () => {
  test.each<[unknown, string]>([
    ['', 'the model string is empty: write "<provider>:<model>", e.g. "openai:gpt-4o-mini"'],
    ['   ', 'the model string is empty: write "<provider>:<model>", e.g. "openai:gpt-4o-mini"'],
    [
      42,
      'a model string must be a string (write "<provider>:<model>", e.g. "openai:gpt-4o-mini"), got number',
    ],
    [
      undefined,
      'a model string must be a string (write "<provider>:<model>", e.g. "openai:gpt-4o-mini"), got undefined',
    ],
    [
      ':gpt-4o',
      'model string ":gpt-4o" has no provider before the colon: write "<provider>:<model>", e.g. "openai:gpt-4o-mini"',
    ],
    ['openai:', 'model string "openai:" has no model after the colon: write "openai:gpt-4o-mini"'],
    [
      'bedrock:  ',
      'model string "bedrock:" has no model after the colon: write "bedrock:us.amazon.nova-micro-v1:0"',
    ],
    [
      'test:',
      'model string "test:" has no model after the colon: write "test" (or "test:<label>")',
    ],
    [
      'openai:gpt 4o',
      'model string "openai:gpt 4o": the model id must not contain whitespace or control characters',
    ],
    [
      'openai:gpt-4o\u0000',
      'model string "openai:gpt-4o\\u0000": the model id must not contain whitespace or control characters',
    ],
    [
      'anthropic',
      'model string "anthropic" names a provider but no model: write "anthropic:claude-sonnet-4-5"',
    ],
    [
      'Groq',
      'model string "Groq" names a provider but no model: write "groq:llama-3.3-70b-versatile"',
    ],
    [
      'gpt-4o-mini',
      'model string "gpt-4o-mini" has no provider: write "<provider>:<model>"; did you mean "openai:gpt-4o-mini"?',
    ],
    [
      'claude-sonnet-4-5',
      'model string "claude-sonnet-4-5" has no provider: write "<provider>:<model>"; did you mean "anthropic:claude-sonnet-4-5"?',
    ],
    [
      'gemini-2.5-flash',
      'model string "gemini-2.5-flash" has no provider: write "<provider>:<model>"; did you mean "gemini:gemini-2.5-flash"?',
    ],
    [
      'llama3.2',
      `model string "llama3.2" has no provider: write "<provider>:<model>", e.g. "openai:gpt-4o-mini"; known providers: ${KNOWN}`,
    ],
  ])('%j → %s', (spec, message) => {
    const error = failure(spec);
    expect([error.reason, error.message]).toEqual(['malformed', message]);
  });

  test('a long string is cut in the message', () => {
    const error = failure(`openai:${'x'.repeat(300)} y`);
    expect(error.message).toBe(
      `model string "openai:${'x'.repeat(93)}…": the model id must not contain whitespace or control characters`,
    );
  });

  test('a bare model id carries the corrected string as its suggestion', () => {
    expect(failure('gpt-4o').suggestion).toBe('openai:gpt-4o');
  });
});

describe('unknown providers', () => {
  test.each([
    ['opnai:gpt-4o', 'opnai', 'openai', '; did you mean "openai"?'],
    ['antropic:claude-sonnet-4-5', 'antropic', 'anthropic', '; did you mean "anthropic"?'],
    [
      'OpenAI:gpt-4o',
      'OpenAI',
      'openai',
      '; did you mean "openai" (provider names are lower case)?',
    ],
    ['google:gemini-2.5-flash', 'google', 'gemini', '; did you mean "gemini"?'],
    ['claude:claude-sonnet-4-5', 'claude', 'anthropic', '; did you mean "anthropic"?'],
    ['aws:us.amazon.nova-micro-v1:0', 'aws', 'bedrock', '; did you mean "bedrock"?'],
    ['lm-studio:qwen', 'lm-studio', 'lmstudio', '; did you mean "lmstudio"?'],
    ['grok:grok-4', 'grok', 'xai', '; did you mean "xai"?'],
    ['olama:llama3.2', 'olama', 'ollama', '; did you mean "ollama"?'],
    ['open:gpt-4o', 'open', 'openai', '; did you mean "openai"?'],
    [
      'us.amazon.nova-micro-v1:0',
      'us.amazon.nova-micro-v1',
      'bedrock:us.amazon.nova-micro-v1:0',
      '; did you mean "bedrock:us.amazon.nova-micro-v1:0"?',
    ],
    ['huggingface:zephyr', 'huggingface', undefined, ''],
  ])('%s: names %s, suggests %s, lists the known providers', (spec, provider, suggestion, hint) => {
    const error = failure(spec);
    expect(error.reason).toBe('unknown-provider');
    expect(error.message).toBe(
      `unknown provider "${provider}" in model string "${spec}"${hint} (known providers: ${KNOWN})`,
    );
    expect([error.provider, error.suggestion, error.known]).toEqual([
      provider,
      suggestion,
      KNOWN_PROVIDERS,
    ]);
  });
});

describe('missing environment variables', () => {
  test.each([
    [
      'openai:gpt-4o-mini',
      ['OPENAI_API_KEY'],
      'set OPENAI_API_KEY (your OpenAI API key) in the environment, or pass overrides.openai.apiKey',
    ],
    [
      'anthropic:claude-sonnet-4-5',
      ['ANTHROPIC_API_KEY'],
      'set ANTHROPIC_API_KEY (your Anthropic API key) in the environment, or pass overrides.anthropic.apiKey',
    ],
    [
      'gemini:gemini-2.5-flash',
      ['GEMINI_API_KEY'],
      'set GEMINI_API_KEY (your Gemini API key; GOOGLE_API_KEY works too) in the environment, or pass overrides.gemini.apiKey',
    ],
    [
      'groq:llama-3.3-70b-versatile',
      ['GROQ_API_KEY'],
      'set GROQ_API_KEY (your Groq API key) in the environment, or pass overrides.groq.apiKey',
    ],
    [
      'cohere:command-a-03-2025',
      ['COHERE_API_KEY'],
      'set COHERE_API_KEY (your Cohere (compatibility API) API key) in the environment, or pass overrides.cohere.apiKey',
    ],
    [
      'azure:gpt-4o-prod',
      ['AZURE_OPENAI_ENDPOINT', 'AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_API_VERSION'],
      'set AZURE_OPENAI_ENDPOINT (the resource URL, https://<resource>.openai.azure.com), AZURE_OPENAI_API_KEY (the resource key) and AZURE_OPENAI_API_VERSION (a dated api-version such as 2024-10-21, or v1) in the environment, or pass overrides.azure.endpoint, overrides.azure.apiKey and overrides.azure.apiVersion',
    ],
  ])('%s without its variables names %j', (spec, variables, detail) => {
    const error = failure(spec);
    expect(error.message).toBe(`cannot resolve model "${spec}": ${detail}`);
    expect([error.reason, error.provider, error.variables]).toEqual([
      'missing-env',
      spec.slice(0, spec.indexOf(':')),
      variables,
    ]);
  });

  test('every hosted preset names its own key variable', () => {
    const others = ['anthropic', 'gemini', 'azure', 'bedrock', 'openai-responses', 'test'];
    for (const preset of KNOWN_PROVIDERS) {
      if ([...others, 'vllm', 'ollama', 'lmstudio'].includes(preset)) continue;
      const error = failure(`${preset}:m`);
      expect([error.reason, error.variables]).toEqual([
        'missing-env',
        [`${preset.toUpperCase()}_API_KEY`],
      ]);
    }
  });

  test('openai-responses reads OPENAI_API_KEY, or overrides["openai-responses"].apiKey', () => {
    const error = failure('openai-responses:gpt-5');
    expect([error.reason, error.variables, error.message]).toEqual([
      'missing-env',
      ['OPENAI_API_KEY'],
      `cannot resolve model "openai-responses:gpt-5": set OPENAI_API_KEY (your OpenAI API key) in the environment, or pass overrides['openai-responses'].apiKey`,
    ]);
  });

  test('azure names only what is missing', () => {
    const error = failure('azure:dep', {
      env: { AZURE_OPENAI_ENDPOINT: 'https://contoso.openai.azure.com', AZURE_OPENAI_API_KEY: 'k' },
    });
    expect(error.message).toBe(
      'cannot resolve model "azure:dep": set AZURE_OPENAI_API_VERSION (a dated api-version such as 2024-10-21, or v1) in the environment, or pass overrides.azure.apiVersion',
    );
    expect(error.variables).toEqual(['AZURE_OPENAI_API_VERSION']);
  });

  test('local and self-hosted presets and bedrock need no variable', () => {
    const loadSdk = (): BedrockSdk => {
      throw Object.assign(new Error('not installed'), { code: 'MODULE_NOT_FOUND' });
    };
    expect(resolveModel('ollama:llama3.2', { env: {} }).name).toBe('ollama:llama3.2');
    expect(resolveModel('lmstudio:qwen', { env: {} }).name).toBe('lmstudio:qwen');
    expect(resolveModel('vllm:m', { env: {} }).name).toBe('vllm:m');
    // Bedrock resolves its credentials later, through the SDK chain: only the SDK is needed now.
    expect(failure('bedrock:m', { env: {}, overrides: { bedrock: { loadSdk } } }).reason).toBe(
      'invalid-config',
    );
  });
});

describe('invalid configuration', () => {
  test('an adapter rejection becomes invalid-config with the model ConfigError as cause', () => {
    const error = failure('ollama:llama3.2', { env: { GOLEM_LOCAL_BASE_URL: 'localhost:11434' } });
    expect(error.reason).toBe('invalid-config');
    expect(error.message).toBe(
      'cannot resolve model "ollama:llama3.2": ollama: baseURL must be an http(s) URL',
    );
    expect(ConfigError.is(error.cause, 'model')).toBe(true);
  });

  test('a malformed Azure api-version is the adapter’s message', () => {
    const error = failure('azure:dep', {
      env: {
        AZURE_OPENAI_ENDPOINT: 'https://contoso.openai.azure.com',
        AZURE_OPENAI_API_KEY: 'k',
        AZURE_OPENAI_API_VERSION: 'latest',
      },
    });
    expect(error.message).toBe(
      'cannot resolve model "azure:dep": azure: apiVersion "latest" is neither "v1" nor a dated version like "2024-10-21" or "2025-04-01-preview"',
    );
  });

  test('a missing Bedrock SDK is reported with its install command', () => {
    const loadSdk = (): BedrockSdk => {
      throw Object.assign(new Error('Cannot find module'), { code: 'MODULE_NOT_FOUND' });
    };
    const error = failure('bedrock:m', { env: {}, overrides: { bedrock: { loadSdk } } });
    expect(error.message).toBe(
      'cannot resolve model "bedrock:m": bedrock: the AWS SDK package @aws-sdk/client-bedrock-runtime is not installed; it is an optional peer dependency of golem: run `npm install @aws-sdk/client-bedrock-runtime`',
    );
  });

  test.each<[unknown, string]>([
    ['nope', 'resolveModel: options must be an object'],
    [{ env: 'x' }, 'resolveModel: env must be an object of variables (e.g. process.env)'],
    [{ fetch: 1 }, 'resolveModel: fetch must be a function'],
    [
      { testModel: 'TestModel' },
      'resolveModel: testModel must be a function (name) => model, e.g. (name) => new TestModel({ name })',
    ],
    [{ overrides: [] }, 'resolveModel: overrides must be an object of adapter options by provider'],
    [
      { overrides: { opnai: {} } },
      'resolveModel: overrides.opnai names no provider; did you mean overrides.openai? (known providers: openai, anthropic, gemini, azure, bedrock, openai-responses, groq, openrouter, deepseek, mistral, xai, perplexity, cerebras, fireworks, together, cohere, vllm, ollama, lmstudio)',
    ],
    [
      { overrides: { test: {} } },
      'resolveModel: overrides.test is not supported: pass testModel to build the test model',
    ],
    [
      { overrides: { groq: 'key' } },
      'resolveModel: overrides.groq must be an object of groq adapter options',
    ],
  ])('options %j → %s', (options, message) => {
    const error = failure('ollama:llama3.2', options as ResolveModelOptions);
    expect([error.reason, error.message]).toEqual(['invalid-config', message]);
  });
});

describe('test', () => {
  test('test without a factory names the fix', () => {
    const error = failure('test');
    expect([error.reason, error.provider, error.message]).toEqual([
      'missing-test-model',
      'test',
      'cannot resolve model "test": the test model needs a factory: pass { testModel: (name) => new TestModel({ name }) } with TestModel from golem/testing (providers cannot import golem/testing)',
    ]);
  });

  test('a factory that returns no streaming model is invalid-config', () => {
    const error = failure('test', {
      testModel: () => ({ generate: () => Promise.reject(new Error('x')) }) as never,
    });
    expect([error.reason, error.message]).toEqual([
      'invalid-config',
      'cannot resolve model "test": testModel must return a streaming model (with generate and stream)',
    ]);
  });
});

describe('secrets', () => {
  /** Every failing resolution the environment can produce, with `key` in every secret place. */
  function failures(key: string): ConfigError[] {
    const env = {
      OPENAI_API_KEY: key,
      ANTHROPIC_API_KEY: key,
      GEMINI_API_KEY: key,
      AZURE_OPENAI_API_KEY: key,
      GROQ_API_KEY: key,
      AZURE_OPENAI_ENDPOINT: `not a url ${key}`,
      AZURE_OPENAI_API_VERSION: key,
      GOLEM_LOCAL_BASE_URL: `ftp://${key}`,
    };
    const runs: (() => unknown)[] = [
      () => resolveModel(key, { env }),
      () => resolveModel(`${key}:model`, { env }),
      () => resolveModel(`openai:${key} x`, { env }),
      () => resolveModel('azure:dep', { env }),
      () => resolveModel('azure:dep', { env: { ...env, AZURE_OPENAI_API_VERSION: 'v1' } }),
      () => resolveModel('ollama:m', { env }),
      () => resolveModel('mistral:m', { env }),
      () => resolveModel('test', { env }),
      () => resolveModel(`gemini:${key}/x`, { env }),
      () => resolveModel(`anthropic:m`, { env, overrides: { anthropic: { maxTokens: -1 } } }),
      () =>
        resolveModel(`openai:m`, { env: {}, overrides: { openai: { apiKey: key, baseURL: key } } }),
    ];
    return runs.map((run) => resolutionError(run));
  }

  test('no key value appears in any error message, field or cause message', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/), (key) => {
        for (const error of failures(key)) {
          const cause = error.cause instanceof Error ? error.cause.message : '';
          const text = [error.message, String(error), JSON.stringify(error), cause].join('\n');
          expect(text).not.toContain(key);
        }
      }),
      { numRuns: 60 },
    );
  });

  test('a key passed by mistake as the model string is redacted', () => {
    const error = failure('sk-proj-abcdef123456', {
      env: { OPENAI_API_KEY: 'sk-proj-abcdef123456' },
    });
    expect(error.message).toBe(
      'model string "[redacted]" has no provider: write "<provider>:<model>", e.g. "openai:gpt-4o-mini"; known providers: ' +
        KNOWN,
    );
  });

  test('a secret-looking variable the resolver does not read is redacted too', () => {
    const error = failure('openai:gpt-4o-mini', {
      env: { SOME_SERVICE_TOKEN: 'gpt-4o-mini-but-secret' },
    });
    expect(error.message).toContain('"openai:gpt-4o-mini"');
    const leaked = failure('openai:gpt-4o-mini-but-secret', {
      env: { SOME_SERVICE_TOKEN: 'gpt-4o-mini-but-secret' },
    });
    expect(leaked.message).toBe(
      'cannot resolve model "openai:[redacted]": set OPENAI_API_KEY (your OpenAI API key) in the environment, or pass overrides.openai.apiKey',
    );
  });
});

describe('the optional AWS SDK', () => {
  test('the resolver loads without it; only bedrock strings need it', () => {
    jest.isolateModules(() => {
      jest.doMock('@aws-sdk/client-bedrock-runtime', (): never => {
        throw Object.assign(new Error("Cannot find module '@aws-sdk/client-bedrock-runtime'"), {
          code: 'MODULE_NOT_FOUND',
        });
      });
      const fresh =
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module registry with the SDK mocked away
        require('golem/providers/resolve') as typeof import('golem/providers/resolve');
      expect(fresh.resolveModel('ollama:llama3.2', { env: {} }).name).toBe('ollama:llama3.2');
      const error = resolutionError(() => fresh.resolveModel('bedrock:m', { env: {} }));
      expect([error.reason, error.message]).toEqual([
        'invalid-config',
        'cannot resolve model "bedrock:m": bedrock: the AWS SDK package @aws-sdk/client-bedrock-runtime is not installed; it is an optional peer dependency of golem: run `npm install @aws-sdk/client-bedrock-runtime`',
      ]);
    });
  });
});
