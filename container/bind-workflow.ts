import type { Newable, ResolutionContext } from 'inversify';
import type { WorkflowClass, WorkflowOf } from '../decorators/index';
import { workflowFromClass } from '../decorators/index';
import { checkConstructorMetadata, missingMetadataError } from './constructor-metadata';
import { ensureInjectable } from './injectable';
import type { Binder } from './model-bindings';
import { bindInstance } from './bind-agent';
import { workflowDefinitionOf, workflowOf } from './workflow-tokens';

/** Multi-bound token listing the workflow classes bound in a container (and its parents). */
export const WORKFLOW_REGISTRATIONS: unique symbol = Symbol.for('golem.container.workflows');

/**
 * Binds the `@Workflow` class `target`: the class itself (a singleton, with constructor
 * injection) and `workflowOf(target)`, the `WorkflowDefinition` compiled from it and run on that
 * instance. The class needs no `@injectable()` (it is made injectable here). Without decorator
 * metadata (tsx, esbuild, Vite ≤ 7) every constructor parameter needs `@inject(Token)`; one
 * without is a `missing-metadata` container `ConfigError` here. The container's
 * `WORKFLOW_RUNNER` runs every bound workflow.
 *
 * ```ts
 * new ContainerModule((options) => bindWorkflow(options, OrderWorkflow));
 * container.get(workflowOf(OrderWorkflow)); // WorkflowDefinition<OrderInput, Receipt>
 * ```
 */
export function bindWorkflow(binder: Binder, target: WorkflowClass): void {
  const definition = workflowDefinitionOf(target);
  const concrete = target as unknown as new (...args: never[]) => object;
  ensureInjectable(concrete);
  checkConstructorMetadata(concrete, definition.className);
  bindInstance(binder, concrete, 'Singleton');
  binder
    .bind(workflowOf(target))
    .toDynamicValue((ctx: ResolutionContext): WorkflowOf<WorkflowClass> => {
      let instance: object;
      try {
        instance = ctx.get<object>(target as unknown as Newable<object>);
      } catch (error) {
        throw missingMetadataError(error, definition.className) ?? error;
      }
      return workflowFromClass(target, instance as InstanceType<WorkflowClass>);
    })
    .inSingletonScope();
  binder.bind<WorkflowClass>(WORKFLOW_REGISTRATIONS).toConstantValue(target);
}
