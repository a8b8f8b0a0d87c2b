import { ConfigError } from '../../core/kit/config-error';

/**
 * Why a model string could not be turned into a model:
 * - `malformed`: not a `provider:model` string (empty, no provider, no model, bad characters);
 * - `unknown-provider`: the provider is not one of `KNOWN_PROVIDERS`;
 * - `missing-env`: a required environment variable (an API key, the Azure endpoint or
 *   api-version) is not set; `variables` names it;
 * - `missing-test-model`: `test` was asked for but no `testModel` factory was given;
 * - `invalid-config`: the options of `resolveModel` are invalid, or the adapter rejected the
 *   configuration built from the environment (`cause` is its `ConfigError` of component `model`).
 */
export type ModelResolutionReason =
  'malformed' | 'unknown-provider' | 'missing-env' | 'missing-test-model' | 'invalid-config';

/** Details of a resolution error (see `resolutionError`). */
export interface ModelResolutionInit {
  reason: ModelResolutionReason;
  /** The provider named by the model string, when it got that far. */
  provider?: string;
  /** Environment variables to set (`missing-env`). */
  variables?: readonly string[];
  /** The closest known provider or a corrected model string (`unknown-provider`, `malformed`). */
  suggestion?: string;
  /** The known providers (`unknown-provider`). */
  known?: readonly string[];
  cause?: unknown;
}

/**
 * A model string (`openai:gpt-4o-mini`, `anthropic:claude-sonnet-4-5`, `test`…) could not be
 * resolved to a model: a {@link ConfigError} of component `resolve`. `reason` says why; the
 * message names the fix (the variable to set, the closest provider name). `variables` and `known`
 * are always set (empty when they do not apply). Messages never contain API keys or other secret
 * values from the environment: they are replaced with `[redacted]`.
 */
export function resolutionError(message: string, init: ModelResolutionInit): ConfigError {
  return new ConfigError(message, {
    component: 'resolve',
    reason: init.reason,
    provider: init.provider,
    variables: Object.freeze([...(init.variables ?? [])]),
    suggestion: init.suggestion,
    known: Object.freeze([...(init.known ?? [])]),
    cause: init.cause,
  });
}
