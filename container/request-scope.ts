import { Container, type BindToFluentSyntax, type ServiceIdentifier } from 'inversify';
import { AGENT_REGISTRATIONS, bindInstance, type AgentRegistration } from './bind-agent';
import { ScopeTeardownError, nameOf } from './errors';
import { resolveAgent } from './resolve-agent';
import type { AgentClass, ResolvedAgent } from './tokens';

/** A child container remembering the services bound in it, so it can be torn down one by one. */
class RequestScope extends Container {
  readonly boundHere: ServiceIdentifier[] = [];

  override bind<T>(serviceIdentifier: ServiceIdentifier<T>): BindToFluentSyntax<T> {
    this.boundHere.push(serviceIdentifier);
    return super.bind(serviceIdentifier);
  }

  override rebind<T>(serviceIdentifier: ServiceIdentifier<T>): BindToFluentSyntax<T> {
    this.boundHere.push(serviceIdentifier);
    return super.rebind(serviceIdentifier);
  }

  override rebindAsync<T>(serviceIdentifier: ServiceIdentifier<T>): Promise<BindToFluentSyntax<T>> {
    this.boundHere.push(serviceIdentifier);
    return super.rebindAsync(serviceIdentifier);
  }
}

/** Binds the request's own values in a scope: `(scope) => scope.bind(USER).toConstantValue(u)`. */
export type ScopeSetup = (scope: Container) => void;

/**
 * A child container for one request (or one run): bind the request's values in it (`setup`),
 * and every agent class bound in `container` gets a fresh instance in it — one per scope — whose
 * constructor injection sees those values. Models and other services come from `container`
 * (its singletons are shared). Agents resolved from the scope (`resolveAgent(scope, …)`) run
 * with the request's collaborators; agents resolved from `container` never see them.
 *
 * Only agent classes are re-bound: a singleton *service* bound in `container` that injects a
 * request value would keep the first request's — bind such services `Transient` (or bind them
 * in the scope too).
 *
 * ```ts
 * const scope = createRequestScope(container, (s) => s.bind(CURRENT_USER).toConstantValue(user));
 * await resolveAgent(scope, WeatherAgent).run('Forecast for Lagos', { deps });
 * ```
 */
export function createRequestScope(container: Container, setup?: ScopeSetup): Container {
  return newRequestScope(container, setup);
}

function newRequestScope(container: Container, setup?: ScopeSetup): RequestScope {
  const scope = new RequestScope({ parent: container });
  const registrations = container.getAll<AgentRegistration>(AGENT_REGISTRATIONS, {
    chained: true,
    optional: true,
  });
  const bound = new Set<AgentClass>();
  for (const { target, scope: lifetime } of registrations) {
    if (bound.has(target)) continue;
    bound.add(target);
    bindInstance(scope, target, lifetime);
  }
  setup?.(scope);
  return scope;
}

/** Options of {@link runInScope}. */
export interface RunInScopeOptions {
  /**
   * Receives the {@link ScopeTeardownError} whenever tearing the scope down fails — whether it is
   * what `runInScope` rejects with (the run completed) or is attached to the run's own error (the
   * run failed). For logging; an exception it throws is ignored.
   */
  onTeardownError?: (error: ScopeTeardownError) => void;
}

/**
 * Runs `run` with the agent `target` resolved from a fresh request scope (see
 * {@link createRequestScope}), then unbinds the scope, running its `@preDestroy` and deactivation
 * hooks (e.g. closing a request's transaction), even when `run` throws. Services bound in the
 * scope are unbound one at a time, in binding order, so a hook that throws does not stop the
 * others.
 *
 * When a hook fails, the run's own outcome keeps precedence:
 * - the run failed: its error is what rejects, unchanged (`RunError.is` and identity hold); the
 *   {@link ScopeTeardownError} is attached to it as a non-enumerable `suppressed` property (when
 *   the error is an object that accepts one) and passed to `options.onTeardownError`;
 * - the run completed: `runInScope` rejects with the {@link ScopeTeardownError}, whose `result` is
 *   what `run` returned — a request whose cleanup failed (a transaction that did not commit) must
 *   not look successful, and nothing the run produced is lost.
 *
 * ```ts
 * const result = await runInScope(
 *   container,
 *   WeatherAgent,
 *   (scope) => scope.bind(CURRENT_USER).toConstantValue(user),
 *   (agent) => agent.run('Forecast for Lagos', { deps }),
 * );
 * ```
 */
export async function runInScope<C extends AgentClass, R>(
  container: Container,
  target: C,
  setup: ScopeSetup | undefined,
  run: (agent: ResolvedAgent<C>, scope: Container) => R | Promise<R>,
  options: RunInScopeOptions = {},
): Promise<R> {
  const scope = newRequestScope(container, setup);
  let outcome: { completed: true; result: R } | { completed: false; error: unknown };
  try {
    outcome = { completed: true, result: await run(resolveAgent(scope, target), scope) };
  } catch (error) {
    outcome = { completed: false, error };
  }
  const failures = await teardown(scope);
  if (failures.length > 0) {
    const teardownError = new ScopeTeardownError(nameOf(target), failures, outcome);
    try {
      options.onTeardownError?.(teardownError);
    } catch {
      // A reporting callback never changes the outcome.
    }
    if (outcome.completed) throw teardownError;
    attachSuppressed(outcome.error, teardownError);
  }
  if (!outcome.completed) throw outcome.error;
  return outcome.result;
}

/**
 * Unbinds what was bound in `scope`, service by service, collecting every failure. The final sweep
 * (bindings made through container modules or with constraints) runs only when nothing failed, so
 * no hook runs twice.
 */
async function teardown(scope: RequestScope): Promise<unknown[]> {
  const failures: unknown[] = [];
  for (const id of new Set(scope.boundHere)) {
    try {
      // Only this scope's own bindings: unbinding an id bound only in the parent would deactivate
      // the parent's instances.
      if (scope.isCurrentBound(id)) await scope.unbindAsync(id);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) return failures;
  try {
    await scope.unbindAllAsync();
  } catch (error) {
    failures.push(error);
  }
  return failures;
}

/** Attaches `suppressed` to the run's error when it accepts a property; never throws. */
function attachSuppressed(error: unknown, suppressed: ScopeTeardownError): void {
  if ((typeof error !== 'object' || error === null) && typeof error !== 'function') return;
  try {
    if (Object.prototype.hasOwnProperty.call(error, 'suppressed')) return;
    Object.defineProperty(error, 'suppressed', {
      value: suppressed,
      configurable: true,
      writable: true,
      enumerable: false,
    });
  } catch {
    // Frozen, sealed or a hostile proxy: `onTeardownError` still reports the failure.
  }
}
