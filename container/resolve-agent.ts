import type { Container } from 'inversify';
import { agentOf, definitionOf, unboundAgent, type AgentClass, type ResolvedAgent } from './tokens';

/** What `resolveAgent` needs of a container. */
export type AgentResolver = Pick<Container, 'get' | 'isBound'>;

/**
 * The engine agent of the bound agent class `target`, ready to run and typed from the class:
 * the same as `container.get(agentOf(target))`, with a container `ConfigError` naming the fix when
 * the class is not an agent (`not-an-agent`) or is not bound (`unbound-agent`).
 *
 * ```ts
 * const agent = resolveAgent(container, WeatherAgent); // Agent<User, Forecast>
 * const { output } = await agent.run('Forecast for Lagos', { deps: { name: 'Ada' } });
 * ```
 */
export function resolveAgent<C extends AgentClass>(
  container: AgentResolver,
  target: C,
): ResolvedAgent<C> {
  const token = agentOf(target);
  if (!container.isBound(token)) throw unboundAgent(definitionOf(target).className);
  return container.get(token);
}
