import type { EmbeddingModel } from '../../core/contract/embedding';
import type { FetchLike } from '../../core/contract/fetch';
import { ConfigError } from '../../core/kit/config-error';
import { isRecord } from '../../core/kit/guards';
import { redact } from '../../core/kit/redact';
import { azureEmbedding, type AzureEmbeddingOptions } from '../azure';
import { bedrockEmbedding, type BedrockEmbeddingOptions } from '../bedrock';
import { geminiEmbedding, type GeminiEmbeddingOptions } from '../gemini';
import { OPENAI_PRESETS, openaiEmbedding, type OpenAIEmbeddingOptions } from '../openai';
import { EMBEDDING_PRESETS } from '../openai/embedding-presets';
import { ENV, readVariable, secretValues, type ResolveEnvironment } from './environment';
import { resolutionError, type ModelResolutionInit } from './errors';
import { isSpecProblem, parseModelSpec, quote } from './spec';

/** Adapter options per provider that `resolveEmbeddingModel` layers over the environment's. */
export interface EmbeddingOverrides {
  openai?: Partial<Omit<OpenAIEmbeddingOptions, 'model' | 'preset'>>;
  azure?: Partial<Omit<AzureEmbeddingOptions, 'deployment'>>;
  gemini?: Partial<Omit<GeminiEmbeddingOptions, 'model'>>;
  bedrock?: Partial<Omit<BedrockEmbeddingOptions, 'model'>>;
  /** The other OpenAI-compatible presets serving embeddings, by name (`ollama`, `mistral`…). */
  [preset: string]: object | undefined;
}

/** Options of {@link resolveEmbeddingModel}. */
export interface ResolveEmbeddingOptions {
  /** Where keys and endpoints are read from; default `process.env`. Nothing else is read. */
  env?: ResolveEnvironment;
  /** The `fetch` every fetch-based adapter uses (all but Bedrock). */
  fetch?: FetchLike;
  /** Adapter options per provider, over the environment's. */
  overrides?: EmbeddingOverrides;
  /** Builds the model for `test` / `test:<label>` (e.g. `() => new TestEmbeddingModel()`). */
  testModel?: (name: string) => EmbeddingModel;
}

/**
 * Builds the embedding model a `provider:model` string names, reading keys and endpoints from
 * `env` like `resolveModel`: `openai:text-embedding-3-small` (`OPENAI_API_KEY`),
 * `ollama:nomic-embed-text` and the other presets serving embeddings (their key variable;
 * `GOLEM_LOCAL_BASE_URL` for Ollama and LM Studio), `gemini:gemini-embedding-001`
 * (`GEMINI_API_KEY` or `GOOGLE_API_KEY`), `azure:<deployment>` (`AZURE_OPENAI_ENDPOINT`,
 * `AZURE_OPENAI_API_KEY`, `AZURE_OPENAI_API_VERSION`), `bedrock:amazon.titan-embed-text-v2:0`
 * (`AWS_REGION`/`AWS_DEFAULT_REGION`, else the SDK's chain), and `test` through
 * `options.testModel`. Throws `ConfigError` (component `resolve`) with the reasons of
 * `resolveModel`; a provider without embeddings is `invalid-config`. Messages hold no secrets.
 */
export function resolveEmbeddingModel(
  spec: string,
  options: ResolveEmbeddingOptions = {},
): EmbeddingModel {
  const given: unknown = options;
  if (!isRecord(given))
    throw resolutionError('resolveEmbeddingModel: options must be an object', {
      reason: 'invalid-config',
    });
  const env = options.env ?? process.env;
  const secrets = secretValues(env);
  const show = (text: string): string => quote(redact(text, secrets));
  const parsed = parseModelSpec(spec, show);
  if (isSpecProblem(parsed)) throw resolutionError(redact(parsed.message, secrets), parsed.init);
  const { provider, model } = parsed;
  const shown = show(spec.trim());
  const fail = (detail: string, init: ModelResolutionInit): ConfigError =>
    resolutionError(redact(`cannot resolve embedding model ${shown}: ${detail}`, secrets), {
      provider,
      ...init,
    });
  const secret = (variable: string): string | undefined => {
    const value = readVariable(env, variable);
    if (value !== undefined) secrets.push(value);
    return value;
  };
  const need = (variable: string, what: string, override: string): never => {
    throw fail(`set ${variable} (${what}) in the environment, or pass ${override}`, {
      reason: 'missing-env',
      variables: [variable],
    });
  };
  const overrides: EmbeddingOverrides = options.overrides ?? {};
  const over = <T extends object>(name: string): Partial<T> => overrides[name] ?? {};
  const fetch = options.fetch === undefined ? {} : { fetch: options.fetch };
  const construct = (make: () => EmbeddingModel): EmbeddingModel => {
    try {
      return make();
    } catch (error) {
      if (!ConfigError.is(error, 'model')) throw error;
      throw fail(redact(error.message, secrets), { reason: 'invalid-config', cause: error });
    }
  };

  if (provider === 'test') {
    if (options.testModel === undefined)
      throw fail('pass { testModel: () => new TestEmbeddingModel() } (from golem/testing)', {
        reason: 'missing-test-model',
      });
    return options.testModel(spec.trim());
  }
  if (provider === 'gemini') {
    const override = over<GeminiEmbeddingOptions>('gemini');
    const explicit = override.apiKey !== undefined || override.accessToken !== undefined;
    const apiKey = explicit ? undefined : (secret(ENV.geminiKey) ?? secret(ENV.googleKey));
    if (!explicit && apiKey === undefined)
      need(
        ENV.geminiKey,
        `your Gemini API key; ${ENV.googleKey} works too`,
        'overrides.gemini.apiKey',
      );
    return construct(() =>
      geminiEmbedding({
        ...fetch,
        ...(apiKey === undefined ? {} : { apiKey }),
        ...override,
        model,
      }),
    );
  }
  if (provider === 'azure') {
    const override = over<AzureEmbeddingOptions>('azure');
    const addressed = override.endpoint !== undefined || override.resourceName !== undefined;
    const endpoint = addressed ? undefined : readVariable(env, ENV.azureEndpoint);
    if (!addressed && endpoint === undefined)
      need(ENV.azureEndpoint, 'the resource URL', 'overrides.azure.endpoint');
    const authenticated =
      override.apiKey !== undefined ||
      override.azureADToken !== undefined ||
      override.getToken !== undefined;
    const apiKey = authenticated ? undefined : secret(ENV.azureKey);
    if (!authenticated && apiKey === undefined)
      need(ENV.azureKey, 'the resource key', 'overrides.azure.apiKey');
    const apiVersion = override.apiVersion ?? readVariable(env, ENV.azureApiVersion);
    if (apiVersion === undefined)
      return need(ENV.azureApiVersion, 'a dated api-version or v1', 'overrides.azure.apiVersion');
    return construct(() =>
      azureEmbedding({
        ...fetch,
        ...(endpoint === undefined ? {} : { endpoint }),
        ...(apiKey === undefined ? {} : { apiKey }),
        ...override,
        apiVersion,
        deployment: model,
      }),
    );
  }
  if (provider === 'bedrock') {
    const override = over<BedrockEmbeddingOptions>('bedrock');
    const placed = override.region !== undefined || override.client !== undefined;
    const region = placed
      ? undefined
      : (readVariable(env, ENV.awsRegion) ?? readVariable(env, ENV.awsDefaultRegion));
    return construct(() =>
      bedrockEmbedding({ ...(region === undefined ? {} : { region }), ...override, model }),
    );
  }
  if (provider in EMBEDDING_PRESETS) {
    const preset = OPENAI_PRESETS[provider as keyof typeof EMBEDDING_PRESETS];
    const override = over<OpenAIEmbeddingOptions>(provider);
    const variable = preset.apiKeyEnv;
    const apiKey = override.apiKey ?? (variable === undefined ? undefined : secret(variable));
    if (apiKey === undefined && preset.requiresKey && variable !== undefined)
      need(variable, `your ${preset.label} API key`, `overrides.${provider}.apiKey`);
    const local = provider === 'ollama' || provider === 'lmstudio';
    const baseURL = local ? readVariable(env, ENV.localBaseURL) : undefined;
    return construct(() =>
      openaiEmbedding({
        ...fetch,
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(baseURL === undefined ? {} : { baseURL }),
        ...override,
        preset: provider as keyof typeof EMBEDDING_PRESETS,
        model,
      }),
    );
  }
  throw fail(
    `${provider} serves no embeddings through golem; use one of openai, ${Object.keys(
      EMBEDDING_PRESETS,
    )
      .filter((name) => name !== 'openai')
      .join(', ')}, gemini, azure, bedrock or test`,
    { reason: 'invalid-config' },
  );
}
