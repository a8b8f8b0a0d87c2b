import { Inject, type Type } from '@nestjs/common';
import type { WorkflowClass, WorkflowClassDefinition, WorkflowOf } from '../decorators/index';
import { compileWorkflowClass, isWorkflowClass } from '../decorators/index';
import { nestError, nameOf } from './errors';
import { makeToken } from './tokens';

/** Workflow tokens are shared by every copy of the package loaded in one process. */
const REGISTRY_KEY = Symbol.for('golem.nestjs.workflowTokens');
const registry: WeakMap<object, Type<unknown>> = ((
  globalThis as Record<symbol, WeakMap<object, Type<unknown>> | undefined>
)[REGISTRY_KEY] ??= new WeakMap());

/**
 * The compiled definition of a workflow class; a class without `@Workflow` (or a non-class) is an
 * `invalid-options` `golem/nestjs` `ConfigError` naming the fix. Other declaration mistakes stay
 * `ConfigError`s of component `decorators`.
 */
export function workflowDefinitionOf(target: unknown, where: string): WorkflowClassDefinition {
  if (!isWorkflowClass(target)) {
    const name = nameOf(target);
    throw nestError(
      typeof target === 'function'
        ? `${where}: ${name} is not a workflow class: it has no @Workflow decorator; decorate it with @Workflow() from golem/decorators`
        : `${where}: expected a workflow class, got ${name}; pass the class decorated with @Workflow (an undefined class usually means a circular import between files: move the workflow to its own file)`,
      { reason: 'invalid-options', agent: name },
    );
  }
  return compileWorkflowClass(target);
}

/**
 * The Nest injection token of the `WorkflowDefinition` built for the `@Workflow` class `target`,
 * typed from its `run` method: `moduleRef.get(getWorkflowToken(OrderWorkflow))` is a
 * `WorkflowDefinition<OrderInput, Receipt>`. Provided (and exported) by the
 * `GolemModule.forFeature([OrderWorkflow])` that registers the class.
 */
export function getWorkflowToken<C extends WorkflowClass>(target: C): Type<WorkflowOf<C>> {
  workflowDefinitionOf(target, 'getWorkflowToken');
  let token = registry.get(target);
  if (token === undefined) {
    token = makeToken(`GolemWorkflow(${nameOf(target)})`);
    registry.set(target, token);
  }
  return token as Type<WorkflowOf<C>>;
}

/**
 * Injects the `WorkflowDefinition` of the `@Workflow` class `target` (a constructor parameter or
 * a property): `constructor(@InjectWorkflow(OrderWorkflow) private readonly order:
 * WorkflowOf<typeof OrderWorkflow>)`. The module must import
 * `GolemModule.forFeature([OrderWorkflow])`, or a module that does (forFeature exports it). Run it
 * with the injected `GolemWorkflowRunner`.
 */
export function InjectWorkflow(target: WorkflowClass): PropertyDecorator & ParameterDecorator {
  return Inject(getWorkflowToken(target));
}
