import { modelConfigError } from '../../core/errors/provider-errors';
import { MAX_TIMEOUT_MS } from '../../core/kit/timeouts';
import { DEFAULT_ERROR_BODY_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES } from '../shared/body';
import type { ModelSettings, ThinkingSettings } from '../../core/contract/request';
import { DEFAULT_MAX_FRAME_BYTES } from './frame-guard';
import { PROVIDER, type BedrockSdkLoader } from './sdk';
import { validateSettings } from './settings';

/**
 * Static AWS credentials, as the AWS SDK's `AwsCredentialIdentity`. Typed here by shape, so
 * golem's declarations compile without the SDK's types installed.
 */
export interface BedrockCredentialIdentity {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly expiration?: Date;
  readonly credentialScope?: string;
  readonly accountId?: string;
}

/**
 * AWS credentials as the SDK takes them: static keys or a credential provider function (the
 * SDK's `fromIni()`, `fromNodeProviderChain()`…).
 */
export type BedrockCredentials =
  | BedrockCredentialIdentity
  | ((properties?: Record<string, unknown>) => Promise<BedrockCredentialIdentity>);

/**
 * A `BedrockRuntimeClient` of `@aws-sdk/client-bedrock-runtime`, typed by what the adapter uses
 * of it (golem's declarations do not need the SDK's types).
 */
export interface BedrockClient {
  send(command: never, options?: never): Promise<unknown>;
  destroy(): void;
  readonly config: object;
}

/**
 * A `BedrockRuntimeClientConfig` of `@aws-sdk/client-bedrock-runtime` (`requestHandler`,
 * `maxAttempts`, …), passed to the client the adapter builds. Typed by shape (any object), so
 * golem's declarations compile without the SDK; write `satisfies BedrockRuntimeClientConfig`
 * on it for the SDK's own checking.
 */
export type BedrockClientConfig = object;

/** Configuration of a Bedrock model (Converse / ConverseStream). */
export interface BedrockOptions {
  /** Model id, inference-profile id or ARN, e.g. `us.amazon.nova-micro-v1:0`. */
  model: string;
  /** AWS region, e.g. `us-east-1`. Without it (and without a client) the SDK's region chain decides. */
  region?: string;
  /**
   * A `BedrockRuntimeClient` to use as is (then set region, credentials and endpoint on it), or a
   * client configuration the adapter builds its client from (`maxAttempts` defaults to 1: the
   * agent, not the SDK, retries). Inject `requestHandler` here to change the transport.
   */
  client?: BedrockClient | BedrockClientConfig;
  /** Static credentials or a provider; default: the AWS SDK's standard credential chain. */
  credentials?: BedrockCredentials;
  /** Endpoint override (VPC endpoint, proxy, local test server). */
  endpoint?: string;
  /** `inferenceConfig.maxTokens`; 0 or unset = the model's default. */
  maxTokens?: number;
  /** In [0, 1]. */
  temperature?: number;
  /** In [0, 1]. */
  topP?: number;
  /** `inferenceConfig.stopSequences`. */
  stop?: string[];
  /** Anthropic-on-Bedrock extended thinking, sent as `additionalModelRequestFields.thinking`. */
  thinking?: ThinkingSettings;
  /** Further model-specific fields for `additionalModelRequestFields` (e.g. `top_k`). */
  additionalModelRequestFields?: Record<string, unknown>;
  /** Largest accepted event-stream frame in bytes; default 16 MiB. */
  maxFrameBytes?: number;
  /**
   * Whole-call timeout in ms (request, response and stream); default 5 minutes; 0 disables it.
   * Expiry is a retryable `ModelTransportError`, so `maxAttempts` and `FallbackModel` apply.
   */
  timeout?: number;
  /** Largest accepted Converse (non-streaming) response body in bytes; default 32 MiB. */
  maxResponseBytes?: number;
  /** How long an error response's body may take to arrive, in ms; default 5 s. */
  errorBodyTimeout?: number;
  /** Loads `@aws-sdk/client-bedrock-runtime`; default a lazy `require`. */
  loadSdk?: BedrockSdkLoader;
}

/**
 * Validates everything that can be checked without the network and throws a model `ConfigError`
 * naming the field: model, region, endpoint, credentials shape, settings ranges (spec §23),
 * frame cap.
 */
export function validateOptions(options: BedrockOptions): void {
  const fail = (message: string): never => {
    throw modelConfigError(PROVIDER, message);
  };
  if (typeof (options as Partial<BedrockOptions>).model !== 'string' || options.model.trim() === '')
    fail('model (a Bedrock model id) is required');
  if (options.region !== undefined && !/^[a-z0-9-]+$/.test(options.region))
    fail(`region must look like "us-east-1", got ${JSON.stringify(options.region)}`);
  if (options.endpoint !== undefined && !isHttpUrl(options.endpoint))
    fail(`endpoint must be an http(s) URL, got ${JSON.stringify(options.endpoint)}`);
  const credentials: unknown = options.credentials;
  if (credentials !== undefined && typeof credentials !== 'function') {
    const keys = credentials as { accessKeyId?: unknown; secretAccessKey?: unknown };
    if (!nonEmpty(keys.accessKeyId) || !nonEmpty(keys.secretAccessKey))
      fail('credentials need accessKeyId and secretAccessKey (or pass a credential provider)');
  }
  const frame = options.maxFrameBytes;
  if (frame !== undefined && !(Number.isInteger(frame) && frame >= 16))
    fail(`maxFrameBytes must be an integer >= 16, got ${String(frame)}`);
  for (const key of ['timeout', 'maxResponseBytes', 'errorBodyTimeout'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0 && value <= MAX_TIMEOUT_MS))
      fail(`${key} must be an integer between 0 and ${MAX_TIMEOUT_MS}, got ${String(value)}`);
  }
  if (options.maxResponseBytes === 0) fail('maxResponseBytes must be at least 1');
  validateSettings(settingsOf(options), 'options');
}

/** Default whole-call timeout: 5 minutes. */
export const DEFAULT_TIMEOUT_MS = 300_000;

/** The transport limits of a call, with defaults applied. */
export interface CallLimits {
  timeout: number;
  maxResponseBytes: number;
  errorBodyTimeout: number;
}

/** The configured transport limits. */
export function limitsOf(options: BedrockOptions): CallLimits {
  return {
    timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    errorBodyTimeout: options.errorBodyTimeout ?? DEFAULT_ERROR_BODY_TIMEOUT_MS,
  };
}

/** The adapter-level tuning defaults (request settings override them field by field). */
export function settingsOf(options: BedrockOptions): ModelSettings {
  const settings: ModelSettings = {};
  if (options.maxTokens !== undefined) settings.maxTokens = options.maxTokens;
  if (options.temperature !== undefined) settings.temperature = options.temperature;
  if (options.topP !== undefined) settings.topP = options.topP;
  if (options.stop !== undefined) settings.stop = [...options.stop];
  if (options.thinking !== undefined) settings.thinking = { ...options.thinking };
  return settings;
}

/** The configured frame cap. */
export function maxFrameBytesOf(options: BedrockOptions): number {
  return options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
