import { GolemError } from '../src/core/index';
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
 * - `missing-store`: the injected run store is used, but `GolemModule.forRoot` was given none;
 * - `shutdown-failed`: closing a registered closable failed on application shutdown.
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
  | 'missing-store'
  | 'shutdown-failed';

/** Details of a {@link GolemNestError}. */
export interface GolemNestErrorInit {
  reason: GolemNestErrorReason;
  /** The Nest module involved, by class name (`WeatherModule`). */
  module?: string;
  /** The agent class involved, by name. */
  agent?: string;
  /** The model name involved. */
  model?: string;
  cause?: unknown;
}

const KIND = 'GolemNestError';

/**
 * `golem/nestjs` cannot build or give what was asked. `reason` says why; the message names the
 * Nest module, the agent or model, and the fix. Identity works across copies of the package
 * through {@link GolemNestError.is} (a `Symbol.for` brand), not only `instanceof`.
 */
export class GolemNestError extends GolemError {
  /** Why (see {@link GolemNestErrorReason}). */
  readonly reason: GolemNestErrorReason;
  /** The Nest module involved, by class name, when there is one. */
  readonly module: string | undefined;
  /** The agent class involved, by name, when there is one. */
  readonly agent: string | undefined;
  /** The model name involved, when there is one. */
  readonly model: string | undefined;

  constructor(message: string, init: GolemNestErrorInit) {
    super(KIND, message, init.cause === undefined ? undefined : { cause: init.cause });
    this.reason = init.reason;
    this.module = init.module;
    this.agent = init.agent;
    this.model = init.model;
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is GolemNestError {
    if (!GolemError.isGolemError(value)) return false;
    try {
      return value.kind === KIND;
    } catch {
      return false; // a forged brand on a hostile object
    }
  }
}

/** Builds the shared model wiring's errors as {@link GolemNestError}s. */
export const nestFail: WiringFail = (message, init) => new GolemNestError(message, init);

/** The display name of a class (or of anything given instead of one), for messages. */
export function nameOf(target: unknown): string {
  if (typeof target !== 'function') return `(${target === null ? 'null' : typeof target})`;
  const name = (target as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : '(anonymous class)';
}
