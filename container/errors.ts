import { GolemError, hasKind } from '../src/model/error-base';

/**
 * Why the container could not give you an agent or a model:
 * - `not-an-agent`: a class without `@Agent` (or something that is not a class) was used as an
 *   agent;
 * - `unbound-agent`: the agent class was never bound in this container (`golemModule({ agents })`
 *   or `bindAgent`);
 * - `unbound-model`: an agent asks for a model name that has no binding;
 * - `invalid-model`: a binding produced something that is not a model (a factory returned a
 *   Promise or a non-model, a class was given instead of an instance);
 * - `model-failed`: building a bound model failed (the model string could not be resolved, the
 *   factory threw); `cause` is the original error;
 * - `invalid-options`: the options given to a container function are invalid.
 */
export type ContainerErrorReason =
  | 'not-an-agent'
  | 'unbound-agent'
  | 'unbound-model'
  | 'invalid-model'
  | 'model-failed'
  | 'invalid-options';

/** Details of a {@link ContainerError}. */
export interface ContainerErrorInit {
  reason: ContainerErrorReason;
  /** The agent class involved, by name. */
  agent?: string;
  /** The model binding name involved. */
  model?: string;
  cause?: unknown;
}

/**
 * The container cannot build what was asked for. `reason` says why; the message names the class
 * or binding and the fix. Identity works across copies of the package through
 * {@link ContainerError.is} (a `Symbol.for` brand), not only `instanceof`.
 */
export class ContainerError extends GolemError {
  /** Why (see {@link ContainerErrorReason}). */
  readonly reason: ContainerErrorReason;
  /** The agent class involved, by name, when there is one. */
  readonly agent: string | undefined;
  /** The model binding name involved, when there is one. */
  readonly model: string | undefined;

  constructor(message: string, init: ContainerErrorInit) {
    super('ContainerError', message, init.cause === undefined ? undefined : { cause: init.cause });
    this.reason = init.reason;
    this.agent = init.agent;
    this.model = init.model;
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is ContainerError {
    return hasKind(value, 'ContainerError');
  }
}

/** The display name of a class, for messages. */
export function nameOf(target: unknown): string {
  if (typeof target !== 'function') return `(${target === null ? 'null' : typeof target})`;
  const name = (target as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : '(anonymous class)';
}

/** `error` again, its message prefixed with the agent that needed it (once). */
export function forAgent(error: ContainerError, agent: string): ContainerError {
  if (error.agent !== undefined) return error;
  return new ContainerError(`${agent}: ${error.message}`, {
    reason: error.reason,
    agent,
    ...(error.model !== undefined && { model: error.model }),
    cause: error.cause ?? error,
  });
}
