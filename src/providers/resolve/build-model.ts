import { isRecord } from '../../core/kit/guards';
import type { StreamingModel } from '../../core/contract/model';
import { modelConfigError } from '../../core/errors/provider-errors';
import { ConfigError } from '../../core/kit/config-error';
import { anthropic, type AnthropicModel } from '../anthropic';
import { azure, type AzureChatModel } from '../azure';
import { bedrock, type BedrockModel } from '../bedrock';
import { gemini, type GeminiModel } from '../gemini';
import {
  OPENAI_PRESETS,
  openaiCompatible,
  type OpenAIChatModel,
  type OpenAIPresetName,
} from '../openai';
import { openaiResponses, type OpenAIResponsesModel } from '../openai-responses';
import { redact } from '../../core/kit/redact';
import { ENV, readVariable } from './environment';
import { resolutionError, type ModelResolutionInit } from './errors';
import { defined, type CheckedOptions } from './options';
import type { ModelSpec } from './spec';

/** What one resolution needs: the parsed string, the options and the values to redact. */
export interface Context extends CheckedOptions {
  readonly spec: ModelSpec;
  /** The model string as written (trimmed), quoted for messages. */
  readonly shown: string;
  /** The model string as written (trimmed). */
  readonly text: string;
  readonly secrets: string[];
}

/** A required variable, what to put in it, and the override that replaces it. */
interface Needed {
  readonly variable: string;
  readonly what: string;
  readonly override: string;
}

/** Builds the adapter for the provider the parsed string names. Internal. */
export function build(context: Context): StreamingModel {
  const { provider } = context.spec;
  switch (provider) {
    case 'test':
      return testModel(context);
    case 'anthropic':
      return buildAnthropic(context);
    case 'gemini':
      return buildGemini(context);
    case 'azure':
      return buildAzure(context);
    case 'bedrock':
      return buildBedrock(context);
    case 'openai-responses':
      return buildResponses(context);
    default:
      return buildPreset(context, provider);
  }
}

function fail(context: Context, detail: string, init: ModelResolutionInit): ConfigError {
  return resolutionError(
    redact(`cannot resolve model ${context.shown}: ${detail}`, context.secrets),
    { provider: context.spec.provider, ...init },
  );
}

/** Reads a variable holding a secret, and remembers the value for redaction. */
function readSecret(context: Context, variable: string): string | undefined {
  const value = readVariable(context.env, variable);
  if (value !== undefined) context.secrets.push(value);
  return value;
}

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}

function missing(context: Context, needed: readonly Needed[]): never {
  const wanted = list(needed.map((n) => `${n.variable} (${n.what})`));
  const instead = list(needed.map((n) => n.override));
  throw fail(context, `set ${wanted} in the environment, or pass ${instead}`, {
    reason: 'missing-env',
    variables: needed.map((n) => n.variable),
  });
}

/**
 * Runs an adapter factory; its `ConfigError` (component `model`) becomes an `invalid-config`
 * resolution error.
 */
function construct<M extends StreamingModel>(context: Context, make: () => M): M {
  try {
    return make();
  } catch (error) {
    if (!ConfigError.is(error, 'model')) throw error;
    throw fail(context, error.message, {
      reason: 'invalid-config',
      cause: redacted(error, context),
    });
  }
}

/**
 * The adapter's error, or a copy with the secrets removed when its message holds one (an
 * endpoint variable set to a key, say): the cause is printed with the error.
 */
function redacted(error: ConfigError, context: Context): ConfigError {
  const message = redact(error.message, context.secrets);
  if (message === error.message) return error;
  const provider = error.provider ?? '';
  const prefix = `${provider}: `;
  return modelConfigError(
    provider,
    message.startsWith(prefix) ? message.slice(prefix.length) : message,
  );
}

function fetchOption(context: Context): { fetch?: NonNullable<Context['fetch']> } {
  return context.fetch === undefined ? {} : { fetch: context.fetch };
}

function has(value: object, field: string): boolean {
  return (value as Record<string, unknown>)[field] !== undefined;
}

function testModel(context: Context): StreamingModel {
  const factory = context.testModel;
  if (factory === undefined)
    throw fail(
      context,
      'the test model needs a factory: pass { testModel: (name) => new TestModel({ name }) } with TestModel from golem/testing (providers cannot import golem/testing)',
      { reason: 'missing-test-model' },
    );
  const model: unknown = factory(context.text);
  if (
    !isRecord(model) ||
    typeof model.generate !== 'function' ||
    typeof model.stream !== 'function'
  )
    throw fail(context, 'testModel must return a streaming model (with generate and stream)', {
      reason: 'invalid-config',
    });
  return model as unknown as StreamingModel;
}

function buildAnthropic(context: Context): AnthropicModel {
  const override = defined(context.overrides.anthropic);
  const apiKey = override.apiKey ?? readSecret(context, ENV.anthropicKey);
  if (apiKey === undefined)
    missing(context, [
      {
        variable: ENV.anthropicKey,
        what: 'your Anthropic API key',
        override: 'overrides.anthropic.apiKey',
      },
    ]);
  return construct(context, () =>
    anthropic({ ...fetchOption(context), ...override, apiKey, model: context.spec.model }),
  );
}

function buildGemini(context: Context): GeminiModel {
  const override = defined(context.overrides.gemini);
  const explicit = has(override, 'apiKey') || has(override, 'accessToken');
  const apiKey = explicit
    ? undefined
    : (readSecret(context, ENV.geminiKey) ?? readSecret(context, ENV.googleKey));
  if (!explicit && apiKey === undefined)
    missing(context, [
      {
        variable: ENV.geminiKey,
        what: `your Gemini API key; ${ENV.googleKey} works too`,
        override: 'overrides.gemini.apiKey',
      },
    ]);
  return construct(context, () =>
    gemini({
      ...fetchOption(context),
      ...(apiKey === undefined ? {} : { apiKey }),
      ...override,
      model: context.spec.model,
    }),
  );
}

function buildAzure(context: Context): AzureChatModel {
  const override = defined(context.overrides.azure);
  const needed: Needed[] = [];
  const addressed = has(override, 'endpoint') || has(override, 'resourceName');
  const endpoint = addressed ? undefined : readVariable(context.env, ENV.azureEndpoint);
  if (!addressed && endpoint === undefined)
    needed.push({
      variable: ENV.azureEndpoint,
      what: 'the resource URL, https://<resource>.openai.azure.com',
      override: 'overrides.azure.endpoint',
    });
  const authenticated =
    has(override, 'apiKey') || has(override, 'azureADToken') || has(override, 'getToken');
  const apiKey = authenticated ? undefined : readSecret(context, ENV.azureKey);
  if (!authenticated && apiKey === undefined)
    needed.push({
      variable: ENV.azureKey,
      what: 'the resource key',
      override: 'overrides.azure.apiKey',
    });
  const apiVersion = override.apiVersion ?? readVariable(context.env, ENV.azureApiVersion);
  if (apiVersion === undefined)
    needed.push({
      variable: ENV.azureApiVersion,
      what: 'a dated api-version such as 2024-10-21, or v1',
      override: 'overrides.azure.apiVersion',
    });
  if (needed.length > 0 || apiVersion === undefined) missing(context, needed);
  return construct(context, () =>
    azure({
      ...fetchOption(context),
      ...(endpoint === undefined ? {} : { endpoint }),
      ...(apiKey === undefined ? {} : { apiKey }),
      ...override,
      apiVersion,
      deployment: context.spec.model,
    }),
  );
}

function buildBedrock(context: Context): BedrockModel {
  const override = defined(context.overrides.bedrock);
  const placed = has(override, 'region') || has(override, 'client');
  const region = placed
    ? undefined
    : (readVariable(context.env, ENV.awsRegion) ?? readVariable(context.env, ENV.awsDefaultRegion));
  return construct(context, () =>
    bedrock({
      ...(region === undefined ? {} : { region }),
      ...override,
      model: context.spec.model,
    }),
  );
}

function buildResponses(context: Context): OpenAIResponsesModel {
  const override = defined(context.overrides['openai-responses']);
  const apiKey = override.apiKey ?? readSecret(context, ENV.openaiKey);
  if (apiKey === undefined)
    missing(context, [
      {
        variable: ENV.openaiKey,
        what: 'your OpenAI API key',
        override: "overrides['openai-responses'].apiKey",
      },
    ]);
  return construct(context, () =>
    openaiResponses({ ...fetchOption(context), ...override, apiKey, model: context.spec.model }),
  );
}

function buildPreset(context: Context, provider: OpenAIPresetName): OpenAIChatModel {
  const preset = OPENAI_PRESETS[provider];
  const override = defined(context.overrides[provider]);
  const keyVariable = preset.apiKeyEnv;
  const apiKey =
    override.apiKey ?? (keyVariable === undefined ? undefined : readSecret(context, keyVariable));
  if (apiKey === undefined && preset.requiresKey && keyVariable !== undefined)
    missing(context, [
      {
        variable: keyVariable,
        what: `your ${preset.label} API key`,
        override: `overrides.${provider}.apiKey`,
      },
    ]);
  const local = provider === 'ollama' || provider === 'lmstudio';
  const baseURL = local ? readVariable(context.env, ENV.localBaseURL) : undefined;
  return construct(context, () =>
    openaiCompatible(provider, {
      ...fetchOption(context),
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(baseURL === undefined ? {} : { baseURL }),
      ...override,
      model: context.spec.model,
    }),
  );
}
