import { ConfigError, GolemError, describeError } from '../src/core/index';
import { brandGuard } from '../src/core/kit/error-base';
import type { WiringFail } from '../src/providers/resolve/wiring';

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
 * - `invalid-options`: the options given to a container function are invalid;
 * - `missing-metadata`: a constructor parameter has nothing to inject it by: no `@inject(Token)`,
 *   and no `design:paramtypes` (tsx, esbuild and Vite ≤ 7 emit none) or a reflected type that
 *   names no class (an interface, a union, a primitive);
 * - `missing-store`: `WORKFLOW_RUNNER` is resolved, but no workflow store is bound to `RUN_STORE`.
 *
 * Tearing a request scope down is not configuration: it fails with a {@link ScopeTeardownError}.
 */
export type ContainerErrorReason =
  | 'not-an-agent'
  | 'unbound-agent'
  | 'unbound-model'
  | 'invalid-model'
  | 'model-failed'
  | 'invalid-options'
  | 'missing-metadata'
  | 'missing-store';

/** Details of a container error. */
export interface ContainerErrorInit {
  reason: ContainerErrorReason;
  /** The agent class involved, by name. */
  agent?: string;
  /** The model binding name involved. */
  model?: string;
  cause?: unknown;
}

/**
 * The container cannot build what was asked for: a {@link ConfigError} of component `container`.
 * `reason` says why; the message names the class or binding and the fix; `agent` and `model` are
 * set when one is involved.
 */
export function containerError(message: string, init: ContainerErrorInit): ConfigError {
  return new ConfigError(message, {
    component: 'container',
    reason: init.reason,
    agent: init.agent,
    model: init.model,
    cause: init.cause,
  });
}

/** Whether `value` is an error of the container (see `containerError`). */
export function isContainerError(value: unknown): value is ConfigError {
  return ConfigError.is(value, 'container');
}

const TEARDOWN_KIND = 'ScopeTeardownError';

/**
 * Tearing down a request scope failed: one or more `@preDestroy` / deactivation hooks threw.
 * `failures` lists every failure in teardown order; `cause` is the only one, or an
 * `AggregateError` of them all. When the work inside the scope completed, `runInScope` rejects
 * with this error and `result` carries what the work returned (`completed` is true), so nothing it
 * produced is lost. When the work failed, its own error is what rejects and this error is attached
 * to it as `suppressed` (see `runInScope`).
 */
export class ScopeTeardownError extends GolemError {
  /** Always `teardown-failed`. */
  readonly reason = 'teardown-failed' as const;
  /** The agent class whose scope was torn down, by name. */
  readonly agent: string;
  /** Every teardown failure, in teardown order. */
  readonly failures: readonly unknown[];
  /** Whether the work inside the scope completed before the teardown failed. */
  readonly completed: boolean;
  /** What the work returned, when it completed; `undefined` otherwise. */
  readonly result: unknown;

  constructor(
    agent: string,
    failures: readonly unknown[],
    outcome: { completed: boolean; result?: unknown },
  ) {
    const first = describeError(failures[0]);
    const count = failures.length === 1 ? 'a teardown hook' : `${failures.length} teardown hooks`;
    super(
      TEARDOWN_KIND,
      `${agent}: request scope teardown failed: ${count} threw (first: ${first}); ` +
        (outcome.completed
          ? 'the run completed and its result is on `result`; '
          : 'the run had already failed and its error is what was thrown; ') +
        'make the @preDestroy and deactivation hooks of request-scoped services handle their own failures',
      {
        cause:
          failures.length === 1
            ? failures[0]
            : new AggregateError(
                failures,
                `${failures.length} request scope teardown hooks failed`,
              ),
      },
    );
    this.agent = agent;
    this.failures = failures;
    this.completed = outcome.completed;
    this.result = outcome.result;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ScopeTeardownError>(TEARDOWN_KIND);
}

/** Builds the shared model wiring's errors as container `ConfigError`s. */
export const containerFail: WiringFail = (message, init) => containerError(message, init);

/** The display name of a class, for messages. */
export function nameOf(target: unknown): string {
  if (typeof target !== 'function') return `(${target === null ? 'null' : typeof target})`;
  const name = (target as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : '(anonymous class)';
}

/** `error` again, its message prefixed with the agent that needed it (once). */
export function forAgent(error: ConfigError, agent: string): ConfigError {
  if (error.agent !== undefined) return error;
  return containerError(`${agent}: ${error.message}`, {
    reason: error.reason as ContainerErrorReason,
    agent,
    ...(error.model !== undefined && { model: error.model }),
    cause: error.cause ?? error,
  });
}
