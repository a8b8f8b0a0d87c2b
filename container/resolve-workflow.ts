import type { WorkflowClass, WorkflowOf } from '../decorators/index';
import type { AgentResolver } from './resolve-agent';
import { unboundWorkflow, workflowDefinitionOf, workflowOf } from './workflow-tokens';

/**
 * The `WorkflowDefinition` of the bound `@Workflow` class `target`, typed from its `run` method:
 * the same as `container.get(workflowOf(target))`, with a container `ConfigError` naming the fix
 * when the class is not a workflow or is not bound.
 *
 * ```ts
 * const order = resolveWorkflow(container, OrderWorkflow); // WorkflowDefinition<OrderInput, Receipt>
 * await container.get<WorkflowRunner>(WORKFLOW_RUNNER).start(order, { sku: 'A-1', quantity: 2 });
 * ```
 */
export function resolveWorkflow<C extends WorkflowClass>(
  container: AgentResolver,
  target: C,
): WorkflowOf<C> {
  const token = workflowOf(target);
  if (!container.isBound(token)) throw unboundWorkflow(workflowDefinitionOf(target).className);
  return container.get(token);
}
