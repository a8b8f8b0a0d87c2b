import type { AgentConfig } from '../src/core/index';
import { classNameOf } from './errors';
import { handoffsOf } from './handoff-decorator';
import type { AnyClass } from './markers';

/** One entry of an engine agent's `handoffs`. */
export type HandoffEntry<Deps = unknown, Output = unknown> = NonNullable<
  AgentConfig<Deps, Output>['handoffs']
>[number];

/**
 * The engine `handoffs` of the agent class `agentClass` from its `@Handoff` declarations: each
 * target class is resolved to its engine agent by `resolve` when the run first hands off (so
 * agents may hand off to each other), under the declared name (default the target class name).
 * Target functions are called here. The container and the Nest module pass their resolvers.
 */
export function boundHandoffs<Deps = unknown, Output = unknown>(
  agentClass: object,
  resolve: (target: AnyClass) => unknown,
): HandoffEntry<Deps, Output>[] {
  return handoffsOf(agentClass).map(({ target, options }) => {
    const targetClass = target();
    return {
      agent: () => resolve(targetClass),
      name: options.name ?? classNameOf(targetClass),
      ...(options.description !== undefined && { description: options.description }),
      ...(options.inputFilter !== undefined && { inputFilter: options.inputFilter }),
    } as HandoffEntry<Deps, Output>;
  });
}
