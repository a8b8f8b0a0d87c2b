import type { Provider, Type } from '@nestjs/common';
import type { WorkflowClass } from '../decorators/index';
import { workflowFromClass } from '../decorators/index';
import { nestError } from './errors';
import type { FeatureHost } from './feature-host';
import type { AgentClass } from './tokens';
import { GolemWorkflowRunner } from './workflow-runner';
import { getWorkflowToken, workflowDefinitionOf } from './workflow-tokens';

const WHERE = 'GolemModule.forFeature';

/**
 * The providers and exports of the `@Workflow` classes of one `forFeature` call: per class, its
 * `WorkflowDefinition` (`getWorkflowToken`), built on an instance Nest creates in the importing
 * module's context and registered with the app's `GolemWorkflowRunner`.
 */
export function workflowProviders(
  workflows: readonly WorkflowClass[],
  hostToken: symbol,
): { providers: Provider[]; exports: Type<unknown>[] } {
  const seen = new Set<WorkflowClass>();
  for (const target of workflows) {
    const { className } = workflowDefinitionOf(target, WHERE);
    if (seen.has(target))
      throw nestError(`${WHERE}: ${className} is listed twice`, {
        reason: 'invalid-options',
        agent: className,
      });
    seen.add(target);
  }
  const providers: Provider[] = workflows.map((target) => ({
    provide: getWorkflowToken(target),
    inject: [hostToken, { token: GolemWorkflowRunner, optional: true }],
    useFactory: async (host: FeatureHost, runner: GolemWorkflowRunner | undefined) => {
      const instance = await host.create(target as unknown as AgentClass);
      const definition = workflowFromClass(target, instance as InstanceType<WorkflowClass>);
      runner?.register(definition);
      return definition;
    },
  }));
  return { providers, exports: workflows.map((target) => getWorkflowToken(target)) };
}
