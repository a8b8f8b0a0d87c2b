/**
 * The AWS-typed side of the adapter: the SDK module and the client, as the SDK types them. Kept
 * apart from the public declarations (options, sdk loader, model), which type them by shape so
 * that golem's `.d.ts` files compile without `@aws-sdk/client-bedrock-runtime` installed.
 */
import type {
  BedrockRuntimeClient,
  BedrockRuntimeClientConfig,
  ConverseCommand,
  ConverseStreamCommand,
} from '@aws-sdk/client-bedrock-runtime';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { BedrockOptions } from './options';
import { PROVIDER, type BedrockSdk } from './sdk';

/** The parts of `@aws-sdk/client-bedrock-runtime` the adapter uses, with the SDK's types. */
export interface AwsBedrockSdk {
  BedrockRuntimeClient: typeof BedrockRuntimeClient;
  ConverseCommand: typeof ConverseCommand;
  ConverseStreamCommand: typeof ConverseStreamCommand;
}

/** The loaded SDK with its own types (a loader returns the real module, or a test double of it). */
export function awsSdk(sdk: BedrockSdk): AwsBedrockSdk {
  return sdk as unknown as AwsBedrockSdk;
}

/** A constructed client and whether the adapter owns it. */
export interface ResolvedClient {
  client: BedrockRuntimeClient;
  owned: boolean;
  /** Secret credential values to redact from messages. */
  secrets: string[];
}

/**
 * Uses the given client instance, or builds one from the client configuration plus the
 * adapter's region, credentials and endpoint (`maxAttempts` 1 unless configured). Region,
 * credentials or endpoint next to a client instance is a configuration conflict.
 */
export function resolveClient(options: BedrockOptions, sdk: AwsBedrockSdk): ResolvedClient {
  const given: unknown = options.client;
  if (isClientInstance(given)) {
    if (
      options.region !== undefined ||
      options.credentials !== undefined ||
      options.endpoint !== undefined
    )
      throw modelConfigError(
        PROVIDER,
        'region, credentials and endpoint belong on the BedrockRuntimeClient you pass as `client`, not on the adapter',
      );
    return { client: given, owned: false, secrets: secretsOf(given.config.credentials) };
  }
  const config: BedrockRuntimeClientConfig = {
    maxAttempts: 1,
    ...(given as BedrockRuntimeClientConfig | undefined),
  };
  if (options.region !== undefined) config.region = options.region;
  if (options.credentials !== undefined)
    config.credentials = options.credentials as BedrockRuntimeClientConfig['credentials'];
  if (options.endpoint !== undefined) config.endpoint = options.endpoint;
  return {
    client: new sdk.BedrockRuntimeClient(config),
    owned: true,
    secrets: secretsOf(config.credentials),
  };
}

function isClientInstance(client: unknown): client is BedrockRuntimeClient {
  return typeof (client as { send?: unknown } | undefined)?.send === 'function';
}

function secretsOf(credentials: unknown): string[] {
  if (typeof credentials !== 'object' || credentials === null) return [];
  const { secretAccessKey, sessionToken } = credentials as Record<string, unknown>;
  return [secretAccessKey, sessionToken].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
}
