import type { WorkflowClass, WorkflowClassDefinition, WorkflowOf } from '../decorators/index';
import { compileWorkflowClass, isWorkflowClass } from '../decorators/index';
import type { ConfigError } from '../src/core/index';
import { containerError, nameOf } from './errors';
import type { Token } from './tokens';

/** The token of the `WorkflowDefinition` built for the workflow class `C` (see {@link workflowOf}). */
export type WorkflowToken<C extends WorkflowClass> = Token<WorkflowOf<C>>;

/**
 * The `WorkflowRunner` of the container: it runs every workflow class bound in it and checkpoints
 * in the container's store (`golemModule({ store })`, which must be a workflow store:
 * `memoryStore()`, `sqliteStore()`, `postgresStore()`). Built once, on first use:
 * `container.get<WorkflowRunner>(WORKFLOW_RUNNER)`, or `@inject(WORKFLOW_RUNNER)`.
 */
export const WORKFLOW_RUNNER: unique symbol = Symbol.for('golem.container.workflowRunner');

/** Workflow tokens are shared by every copy of the package loaded in one process. */
const REGISTRY_KEY = Symbol.for('golem.container.workflowTokens');
const registry: WeakMap<object, Token<unknown>> = ((
  globalThis as Record<symbol, WeakMap<object, Token<unknown>> | undefined>
)[REGISTRY_KEY] ??= new WeakMap());

/**
 * The compiled definition of a workflow class; a class without `@Workflow` (or a non-class) is an
 * `invalid-options` container `ConfigError` naming the fix. Other declaration mistakes stay
 * `ConfigError`s of component `decorators`.
 */
export function workflowDefinitionOf(target: unknown): WorkflowClassDefinition {
  if (!isWorkflowClass(target)) {
    const name = nameOf(target);
    throw containerError(
      typeof target === 'function'
        ? `${name} is not a workflow class: it has no @Workflow decorator; decorate it with @Workflow() from golem/decorators`
        : `expected a workflow class, got ${name}; pass the class decorated with @Workflow (an undefined class often means a circular import)`,
      { reason: 'invalid-options', agent: name },
    );
  }
  return compileWorkflowClass(target);
}

/** The error for a workflow class that is not bound in the container. */
export function unboundWorkflow(name: string): ConfigError {
  return containerError(
    `${name} is not bound in this container; add it to golemModule({ workflows: [${name}] }) or call bindWorkflow(container, ${name})`,
    { reason: 'invalid-options', agent: name },
  );
}

/**
 * The typed token of the `WorkflowDefinition` built for the workflow class `target`:
 * `container.get(workflowOf(OrderWorkflow))` is a `WorkflowDefinition<OrderInput, Receipt>` (from
 * the class's `run`), and `@inject(workflowOf(OrderWorkflow))` injects it. Bind the class first
 * (`golemModule({ workflows })` or `bindWorkflow`).
 */
export function workflowOf<C extends WorkflowClass>(target: C): WorkflowToken<C> {
  workflowDefinitionOf(target);
  let token = registry.get(target);
  if (token === undefined) {
    const name = nameOf(target);
    token = makeWorkflowToken(`workflowOf(${name})`, () => unboundWorkflow(name));
    registry.set(target, token);
  }
  return token as WorkflowToken<C>;
}

/** An abstract-looking class standing for a definition; only inversify's `autobind` calls it. */
function makeWorkflowToken(label: string, unbound: () => Error): Token<unknown> {
  const token = class {
    constructor() {
      throw unbound();
    }
  };
  Object.defineProperty(token, 'name', { value: label });
  return token;
}
