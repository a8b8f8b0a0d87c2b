import type { AgentResolver } from './resolve-agent';
import { resolveAgent } from './resolve-agent';
import { containerError } from './errors';
import type { AgentClass, ResolvedAgent } from './tokens';
import { agentOf, definitionOf, unboundAgent } from './tokens';

/**
 * The agents registry of a `golem/queue` worker (`runWorker({ agents })`) for agent classes bound
 * in `container`: each class under its class name — the name `queue.enqueue(WeatherAgent, …)`
 * sends — resolved from the container for every job, so constructor-injected collaborators (a
 * database client, an API) come from the worker's container while the job brings only JSON deps.
 * A class that is not bound fails here, when the worker is configured, not at its first job.
 *
 * ```ts no-check
 * const worker = await runWorker({ connection, store, agents: queueAgents(container,
 * [WeatherAgent]) });
 * ```
 */
export function queueAgents<const C extends readonly AgentClass[]>(
  container: AgentResolver,
  classes: C,
): Record<string, () => ResolvedAgent<C[number]>> {
  const registry: Record<string, () => ResolvedAgent<C[number]>> = {};
  for (const target of classes) {
    const { className } = definitionOf(target);
    if (!container.isBound(agentOf(target))) throw unboundAgent(className);
    const name = target.name;
    if (name in registry)
      throw containerError(
        `two agent classes are named ${name}; a queue addresses agents by class name, so give each class a unique name`,
        { reason: 'invalid-options', agent: name },
      );
    const typed: C[number] = target;
    registry[name] = () => resolveAgent(container, typed);
  }
  return registry;
}
