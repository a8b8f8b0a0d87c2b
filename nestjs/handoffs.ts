import { boundHandoffs, handoffsOf, type HandoffEntry } from '../decorators/index';
import { nestError, nameOf } from './errors';
import type { FeatureHost } from './feature-host';
import { getAgentToken, type AgentClass } from './tokens';

/**
 * The engine handoffs of the agent class `target` from its `@Handoff` declarations (`undefined`
 * without any). Every target must be registered by the same `GolemModule.forFeature` call
 * (`registered`), else an `unregistered-agent` `golem/nestjs` `ConfigError` naming both classes
 * and the fix; its engine agent is looked up in the host module when a run first hands off to it,
 * so agents may hand off to each other.
 */
export function handoffsForAgent(
  target: AgentClass,
  name: string,
  registered: ReadonlySet<unknown>,
  host: FeatureHost,
): HandoffEntry[] | undefined {
  const declarations = handoffsOf(target);
  if (declarations.length === 0) return undefined;
  for (const declaration of declarations) {
    const handoffTarget = declaration.target();
    if (registered.has(handoffTarget)) continue;
    const other = nameOf(handoffTarget);
    throw nestError(
      `${name} (registered with GolemModule.forFeature in ${host.moduleName}) hands off to ${other}, which that forFeature call does not register; list both: GolemModule.forFeature([${name}, ${other}])`,
      { reason: 'unregistered-agent', agent: name, module: host.moduleName },
    );
  }
  return boundHandoffs(target, (handoffTarget) =>
    host.ref.get(getAgentToken(handoffTarget as AgentClass), { strict: false }),
  );
}
