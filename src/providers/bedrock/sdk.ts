import { modelConfigError } from '../../core/errors/provider-errors';

/** The provider label used in errors and model names. */
export const PROVIDER = 'bedrock';

/** The npm package that provides the Bedrock client (an optional peer dependency of golem). */
export const SDK_PACKAGE = '@aws-sdk/client-bedrock-runtime';

/**
 * The parts of `@aws-sdk/client-bedrock-runtime` the adapter uses: the module itself satisfies
 * it. Typed by shape, so golem's declarations compile without the SDK's types installed.
 */
export interface BedrockSdk {
  BedrockRuntimeClient: new (config: never) => unknown;
  ConverseCommand: new (input: never) => unknown;
  ConverseStreamCommand: new (input: never) => unknown;
}

/** Loads the SDK module; inject one to bundle it differently or to test a missing install. */
export type BedrockSdkLoader = () => BedrockSdk;

/**
 * The default loader: a lazy `require`, so golem loads without the optional peer installed. It
 * sits inside a `try` so that bundlers (esbuild, and so wrangler for Workers) leave a missing
 * SDK to run time instead of failing the app's build (`golem/providers/resolve` loads this module).
 */
export const requireBedrockSdk: BedrockSdkLoader = () => {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded only when a Bedrock model is built
    return require('@aws-sdk/client-bedrock-runtime') as BedrockSdk;
  } catch (error) {
    throw sdkLoadError(error);
  }
};

/**
 * Runs `loader` and returns the SDK. A missing module (`MODULE_NOT_FOUND`) becomes a
 * a model `ConfigError` with install instructions; any other failure propagates unchanged.
 */
export function loadBedrockSdk(loader: BedrockSdkLoader = requireBedrockSdk): BedrockSdk {
  try {
    return loader();
  } catch (error) {
    throw sdkLoadError(error);
  }
}

/** A missing module as the install hint (a model `ConfigError`); any other failure unchanged. */
function sdkLoadError(error: unknown): unknown {
  if (!isModuleNotFound(error)) return error;
  return modelConfigError(
    PROVIDER,
    `the AWS SDK package ${SDK_PACKAGE} is not installed; it is an optional peer dependency of golem: run \`npm install ${SDK_PACKAGE}\``,
  );
}

function isModuleNotFound(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
}
