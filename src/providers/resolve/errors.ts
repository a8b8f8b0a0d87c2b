import { GolemError, hasKind } from '../../core/kit/error-base';

/**
 * Why a model string could not be turned into a model:
 * - `malformed`: not a `provider:model` string (empty, no provider, no model, bad characters);
 * - `unknown-provider`: the provider is not one of `KNOWN_PROVIDERS`;
 * - `missing-env`: a required environment variable (an API key, the Azure endpoint or
 *   api-version) is not set; `variables` names it;
 * - `missing-test-model`: `test` was asked for but no `testModel` factory was given;
 * - `invalid-config`: the options of `resolveModel` are invalid, or the adapter rejected the
 *   configuration built from the environment (`cause` is its `ModelConfigError`).
 */
export type ModelResolutionReason =
  'malformed' | 'unknown-provider' | 'missing-env' | 'missing-test-model' | 'invalid-config';

/** Details of a {@link ModelResolutionError}. */
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
 * resolved to a model. `reason` says why; the message names the fix (the variable to set, the
 * closest provider name). Messages never contain API keys or other secret values from the
 * environment: they are replaced with `[redacted]`.
 */
export class ModelResolutionError extends GolemError {
  /** Why the string could not be resolved. */
  readonly reason: ModelResolutionReason;
  /** The provider the string names (as written), when it got that far. */
  readonly provider: string | undefined;
  /** The environment variables to set (`missing-env`); empty otherwise. */
  readonly variables: readonly string[];
  /** The closest known provider, or a corrected model string, when there is one. */
  readonly suggestion: string | undefined;
  /** The known providers (`unknown-provider`, and a string without a provider); else empty. */
  readonly known: readonly string[];

  constructor(message: string, init: ModelResolutionInit) {
    super('ModelResolutionError', message, { cause: init.cause });
    this.reason = init.reason;
    this.provider = init.provider;
    this.variables = Object.freeze([...(init.variables ?? [])]);
    this.suggestion = init.suggestion;
    this.known = Object.freeze([...(init.known ?? [])]);
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is ModelResolutionError {
    return hasKind(value, 'ModelResolutionError');
  }
}
