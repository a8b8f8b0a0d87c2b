import { ConfigError, GolemError } from '../src/core/index';
import { brandGuard } from '../src/core/kit/error-base';
import type { WiringFail } from '../src/providers/resolve/wiring';

/**
 * Why `golem/nestjs` could not do what was asked:
 * - `missing-peer`: `@nestjs/common`, `@nestjs/core` or `rxjs` is not installed, or is too old for
 *   what is asked (`scope: 'request'` agents need `@nestjs/core` 10.3 or newer);
 * - `missing-root`: `GolemModule.forFeature` is used but no module imports `GolemModule.forRoot`
 *   (or `forRootAsync`);
 * - `not-an-agent`: a class without `@Agent` (or something that is not a class) was given as an
 *   agent;
 * - `unregistered-agent`: `@InjectAgent(X)` in a module that neither registers `X` with
 *   `GolemModule.forFeature` nor imports a module that does;
 * - `unbound-model`: an agent (or `GolemModels.get`) asks for a model name nothing binds;
 * - `invalid-model`: a model source produced something that is not a model;
 * - `model-failed`: building a model failed (a model string that cannot be resolved, a factory
 *   that threw); `cause` is the original error;
 * - `request-scoped-dependency`: a singleton agent injects a `REQUEST`-scoped provider;
 * - `invalid-options`: the options of a `GolemModule` function are invalid;
 * - `missing-store`: the injected run store is used, but `GolemModule.forRoot` was given none.
 *
 * Closing the registered closables on shutdown is not configuration: it fails with an internal
 * `ShutdownError` (kind `ShutdownError`).
 */
export type GolemNestErrorReason =
  | 'missing-peer'
  | 'missing-root'
  | 'not-an-agent'
  | 'unregistered-agent'
  | 'unbound-model'
  | 'invalid-model'
  | 'model-failed'
  | 'request-scoped-dependency'
  | 'invalid-options'
  | 'missing-store';

/** Details of a `golem/nestjs` configuration error. */
export interface GolemNestErrorInit {
  reason: GolemNestErrorReason;
  /** The Nest module involved, by class name (`WeatherModule`). */
  module?: string;
  /** The agent class involved, by name. */
  agent?: string;
  /** The model name involved. */
  model?: string;
  /** The entry point that needs the missing packages (`missing-peer`). */
  entryPoint?: string;
  /** The missing packages (`missing-peer`). */
  packages?: readonly string[];
  /** The command that installs them (`missing-peer`). */
  command?: string;
  cause?: unknown;
}

/**
 * `golem/nestjs` cannot build or give what was asked: a {@link ConfigError} of component `nestjs`.
 * `reason` says why; the message names the Nest module, the agent or model, and the fix; `module`,
 * `agent` and `model` are set when one is involved.
 */
export function nestError(message: string, init: GolemNestErrorInit): ConfigError {
  return new ConfigError(message, {
    component: 'nestjs',
    reason: init.reason,
    module: init.module,
    agent: init.agent,
    model: init.model,
    entryPoint: init.entryPoint,
    packages: init.packages === undefined ? undefined : Object.freeze([...init.packages]),
    command: init.command,
    cause: init.cause,
  });
}

/** Whether `value` is a configuration error of `golem/nestjs` (see `nestError`). */
export function isNestError(value: unknown): value is ConfigError {
  return ConfigError.is(value, 'nestjs');
}

const SHUTDOWN_KIND = 'ShutdownError';

/**
 * Closing one or more registered closables on application shutdown failed; `cause` is the only
 * failure, or an `AggregateError` of them all. Internal: reach it with
 * `hasKind(error, 'ShutdownError')`.
 */
export class ShutdownError extends GolemError {
  /** Always `shutdown-failed`. */
  readonly reason = 'shutdown-failed' as const;

  constructor(message: string, options: { cause: unknown }) {
    super(SHUTDOWN_KIND, message, options);
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ShutdownError>(SHUTDOWN_KIND);
}

/** Builds the shared model wiring's errors as `golem/nestjs` configuration errors. */
export const nestFail: WiringFail = (message, init) => nestError(message, init);

/** The display name of a class (or of anything given instead of one), for messages. */
export function nameOf(target: unknown): string {
  if (typeof target !== 'function') return `(${target === null ? 'null' : typeof target})`;
  const name = (target as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : '(anonymous class)';
}
