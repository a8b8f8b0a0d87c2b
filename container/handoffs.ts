import type { ResolutionContext } from 'inversify';
import { boundHandoffs, handoffsOf, type HandoffEntry } from '../decorators/index';
import { containerError, nameOf } from './errors';
import { agentOf, type AgentClass } from './tokens';

/**
 * The engine handoffs of the agent class `target` from its `@Handoff` declarations (`undefined`
 * without any). Every target must be one of the agent classes `bound` in the container (else an
 * `unbound-agent` container `ConfigError` naming both classes, when the agent is resolved); its
 * engine agent is resolved from the container when a run first hands off to it, so agents may
 * hand off to each other.
 */
export function handoffsForAgent<Deps>(
  ctx: ResolutionContext,
  target: AgentClass,
  className: string,
  bound: ReadonlySet<unknown>,
): HandoffEntry<Deps>[] | undefined {
  const declarations = handoffsOf(target);
  if (declarations.length === 0) return undefined;
  for (const declaration of declarations) {
    const handoffTarget = declaration.target();
    if (bound.has(handoffTarget)) continue;
    const name = nameOf(handoffTarget);
    throw containerError(
      `${className} hands off to ${name}, which is not bound in this container; add it to golemModule({ agents: [${className}, ${name}] })`,
      { reason: 'unbound-agent', agent: className },
    );
  }
  return boundHandoffs<Deps>(target, (handoffTarget) =>
    ctx.get(agentOf(handoffTarget as AgentClass)),
  );
}
