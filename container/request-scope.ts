import { Container } from 'inversify';
import { AGENT_REGISTRATIONS, bindInstance, type AgentRegistration } from './bind-agent';
import { resolveAgent } from './resolve-agent';
import type { AgentClass, ResolvedAgent } from './tokens';

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
  const scope = new Container({ parent: container });
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

/**
 * Runs `run` with the agent `target` resolved from a fresh request scope (see
 * {@link createRequestScope}), then unbinds the scope (running its `@preDestroy` and
 * deactivation hooks, e.g. closing a request's transaction), even when `run` throws.
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
): Promise<R> {
  const scope = createRequestScope(container, setup);
  try {
    return await run(resolveAgent(scope, target), scope);
  } finally {
    await scope.unbindAllAsync();
  }
}
