import { isRecord } from '../../core/kit/guards';
import type { StreamingModel } from '../../core/contract/model';
import type { AnthropicOptions } from '../anthropic';
import type { AzureOptions } from '../azure';
import type { BedrockOptions } from '../bedrock';
import type { GeminiOptions } from '../gemini';
import type { OpenAIOptions, OpenAIPresetName } from '../openai';
import type { OpenAIResponsesOptions } from '../openai-responses';
import type { FetchLike } from '../../core/contract/fetch';
import type { ResolveEnvironment } from './environment';
import { resolutionError } from './errors';
import type { ConfigError } from '../../core/kit/config-error';
import { KNOWN_PROVIDERS, isProviderName } from './providers';
import { closestProvider } from './suggest';

/** Adapter options layered over what the environment gives an OpenAI-compatible preset. */
export type OpenAIOverrides = Partial<Omit<OpenAIOptions, 'model' | 'preset'>>;

/**
 * Adapter options per provider, applied over what `resolveModel` reads from the environment (an
 * override wins; `undefined` values are ignored). The model id always comes from the string. An
 * override that supplies the credential (`apiKey`, Azure `azureADToken` / `getToken`, Gemini
 * `accessToken`) or the Azure `endpoint` / `resourceName` / `apiVersion` makes the matching
 * environment variable unnecessary.
 */
export interface ProviderOverrides extends Partial<Record<OpenAIPresetName, OpenAIOverrides>> {
  readonly azure?: Partial<Omit<AzureOptions, 'deployment'>>;
  readonly anthropic?: Partial<Omit<AnthropicOptions, 'model'>>;
  readonly gemini?: Partial<Omit<GeminiOptions, 'model'>>;
  readonly bedrock?: Partial<Omit<BedrockOptions, 'model'>>;
  readonly 'openai-responses'?: Partial<Omit<OpenAIResponsesOptions, 'model'>>;
}

/**
 * Builds the model for `test` model strings. Providers cannot import `golem/testing` (the lint
 * layering rule), so the caller passes it: `testModel: (name) => new TestModel({ name })`. `name`
 * is the model string as written (`test`, or `test:<label>`).
 */
export type TestModelFactory = (name: string) => StreamingModel;

/** Options of `resolveModel`. */
export interface ResolveModelOptions {
  /** Where keys and endpoints are read from; default `process.env`. Nothing else is read. */
  env?: ResolveEnvironment;
  /** The `fetch` every fetch-based adapter uses (all but Bedrock, which uses the AWS SDK). */
  fetch?: FetchLike;
  /** Adapter options per provider, over the environment's. */
  overrides?: ProviderOverrides;
  /** Builds the model for `test` (see {@link TestModelFactory}); without it `test` fails. */
  testModel?: TestModelFactory;
}

/** Validated options. */
export interface CheckedOptions {
  env: ResolveEnvironment;
  fetch: FetchLike | undefined;
  overrides: ProviderOverrides;
  testModel: TestModelFactory | undefined;
}

function invalid(message: string): ConfigError {
  return resolutionError(`resolveModel: ${message}`, { reason: 'invalid-config' });
}

/** Validates the options of `resolveModel`; throws a `ConfigError` (component `resolve`, reason `invalid-config`). */
export function checkOptions(options: unknown): CheckedOptions {
  if (options === undefined) options = {};
  if (!isRecord(options)) throw invalid('options must be an object');
  const { env, fetch, overrides, testModel } = options;
  if (env !== undefined && !isRecord(env))
    throw invalid('env must be an object of variables (e.g. process.env)');
  if (fetch !== undefined && typeof fetch !== 'function') throw invalid('fetch must be a function');
  if (testModel !== undefined && typeof testModel !== 'function')
    throw invalid(
      'testModel must be a function (name) => model, e.g. (name) => new TestModel({ name })',
    );
  if (overrides !== undefined && !isRecord(overrides))
    throw invalid('overrides must be an object of adapter options by provider');
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (key === 'test')
      throw invalid('overrides.test is not supported: pass testModel to build the test model');
    if (!isProviderName(key)) {
      const closest = closestProvider(key);
      throw invalid(
        `overrides.${key} names no provider${closest === undefined ? '' : `; did you mean overrides.${closest}?`} (known providers: ${KNOWN_PROVIDERS.filter((p) => p !== 'test').join(', ')})`,
      );
    }
    if (value !== undefined && !isRecord(value))
      throw invalid(`overrides.${key} must be an object of ${key} adapter options`);
  }
  return {
    env: (env as ResolveEnvironment | undefined) ?? process.env,
    fetch: fetch as FetchLike | undefined,
    overrides: overrides ?? {},
    testModel: testModel as TestModelFactory | undefined,
  };
}

/** The credential-like string values of every override, to keep them out of messages. */
export function overrideSecrets(overrides: ProviderOverrides): string[] {
  const secrets: string[] = [];
  for (const value of Object.values(overrides)) {
    if (!isRecord(value)) continue;
    for (const field of ['apiKey', 'azureADToken', 'accessToken'])
      if (typeof value[field] === 'string') secrets.push(value[field]);
  }
  return secrets;
}

/** `value` without its `undefined` entries. */
export function defined<T extends object>(value: T | undefined): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, entry] of Object.entries(value ?? {}))
    if (entry !== undefined) (out as Record<string, unknown>)[key] = entry;
  return out;
}
