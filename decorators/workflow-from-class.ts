import { ModelRetry } from '../src/core/index';
import {
  defineWorkflow,
  WorkflowError,
  type StepContext,
  type WorkflowContext,
  type WorkflowDefinition,
} from '../src/workflows/index';
import { compileWorkflowClass } from './compile/compile-workflow';
import type { WorkflowClassDefinition, WorkflowStepInfo } from './compile/workflow-definition';
import { asJson } from './compile/workflow-dto';
import { agentDefinitionError, classNameOf, memberName } from './errors';

/** A `@Workflow` class: its entry method is `run(input, wf)`. */
export type WorkflowClass = abstract new (...args: never[]) => {
  run(input: never, wf: WorkflowContext): Promise<unknown>;
};

/** The input type of the workflow class `C`: its `run` method's first parameter. */
export type WorkflowInputOf<C extends WorkflowClass> = InstanceType<C>['run'] extends (
  input: infer I,
  ...rest: never[]
) => unknown
  ? I
  : never;

/** The output type of the workflow class `C`: what its `run` method resolves to. */
export type WorkflowOutputOf<C extends WorkflowClass> = Awaited<ReturnType<InstanceType<C>['run']>>;

/** The `WorkflowDefinition` a `@Workflow` class compiles into, typed from its `run` method. */
export type WorkflowOf<C extends WorkflowClass> = WorkflowDefinition<
  WorkflowInputOf<C>,
  WorkflowOutputOf<C>
>;

type Method = (this: object, ...args: unknown[]) => unknown;

/** Built definitions by instance, then by class (an instance may be compiled as a base class). */
const built = new WeakMap<object, WeakMap<object, WorkflowDefinition<never>>>();

/**
 * Compiles the `@Workflow` class `target` into a `WorkflowDefinition` of `golem/workflows` that
 * runs on `instance` (built by you or a container, with its collaborators injected), typed from
 * `run`: `WorkflowDefinition<OrderInput, Receipt>`. Each execution calls `run` on a view of the
 * instance whose `@Step` methods are durable steps — `this.reserve(order)` validates its input
 * against the method's DTO class (`invalid-input` `WorkflowError` naming `Class.method`) and runs
 * `wf.step('reserve', …)` with the method's `retries` and `output` DTO; a replayed output comes
 * back as an instance of that DTO, like a fresh one. The method body runs on `instance` itself, so
 * injected services work; called on the plain instance, outside a workflow, a step method is an
 * ordinary method. The workflow input is validated against `run`'s DTO class at start.
 * Built once per instance. Declaration mistakes are `ConfigError`s (component `decorators`).
 *
 * ```ts
 * const order = workflowFromClass(OrderWorkflow, new OrderWorkflow(stock));
 * const runner = new WorkflowRunner({ store, workflows: [order] });
 * const result = await runner.start(order, { sku: 'A-1', quantity: 2 });
 * ```
 */
export function workflowFromClass<C extends WorkflowClass>(
  target: C,
  instance: InstanceType<C>,
): WorkflowOf<C> {
  const definition = compileWorkflowClass(target);
  const given: unknown = instance;
  if (typeof given !== 'object' || given === null || !(given instanceof target))
    throw agentDefinitionError(
      'invalid-option',
      `workflowFromClass got ${given === null ? 'null' : typeof given} instead of an instance of the class`,
      {
        className: definition.className,
        hint: `pass an instance: workflowFromClass(${definition.className}, new ${definition.className}(…))`,
      },
    );
  let byClass = built.get(instance);
  if (byClass === undefined) {
    byClass = new WeakMap();
    built.set(instance, byClass);
  }
  let workflow = byClass.get(target);
  if (workflow === undefined) {
    workflow = build(definition, instance);
    byClass.set(target, workflow);
  }
  return workflow as WorkflowOf<C>;
}

function build(definition: WorkflowClassDefinition, instance: object): WorkflowDefinition<never> {
  const entry = Reflect.get(instance, 'run') as Method;
  const methods = definition.steps.map((step) => ({
    step,
    method: Reflect.get(instance, step.member) as Method,
  }));
  return defineWorkflow({
    name: definition.name,
    ...(definition.maxSteps !== undefined && { maxSteps: definition.maxSteps }),
    ...(definition.inputSchema !== undefined && { input: definition.inputSchema }),
    ...(definition.declared !== undefined && { steps: definition.declared }),
    run(input, wf) {
      const value = parsed(() => definition.parseInput(input), `${definition.className}.run`, wf);
      const view = Object.create(instance) as object;
      for (const { step, method } of methods)
        Object.defineProperty(view, step.member, {
          value: durableStep(definition.className, step, method, instance, wf),
          writable: true,
          configurable: true,
        });
      return Promise.resolve(entry.call(view, value, wf));
    },
  }) as WorkflowDefinition<never>;
}

/** The durable form of one `@Step` method for one execution of the workflow. */
function durableStep(
  className: string,
  step: WorkflowStepInfo,
  method: Method,
  instance: object,
  wf: WorkflowContext,
): (input?: unknown) => Promise<unknown> {
  const where = `${className}.${memberName(step.member)}`;
  const { parseOutput, outputSchema } = step;
  return async (input) => {
    const value = parsed(() => step.parseInput(input), where, wf, step.name);
    const body = async (ctx: StepContext): Promise<unknown> => {
      const output = await method.call(instance, value, ctx);
      return parseOutput === undefined ? output : jsonOrSelf(output);
    };
    const output = await wf.step<unknown>(step.name, body, {
      ...(step.retries !== undefined && { retries: step.retries }),
      ...(outputSchema !== undefined && { output: outputSchema }),
    });
    if (parseOutput === undefined) return output;
    try {
      return parseOutput(output);
    } catch (error) {
      if (!ModelRetry.is(error)) throw error;
      throw new WorkflowError(
        'diverged',
        `${where}: the output of step "${step.name}" does not validate against ${classNameOf(step.output)}: ${error.reason}; the checkpoint was written by other code — fork the run from this step or keep the DTO compatible`,
        { runId: wf.runId, step: step.name, cause: error },
      );
    }
  };
}

/** `parse()`, its `ModelRetry` as an `invalid-input` `WorkflowError` naming `where`. */
function parsed(parse: () => object, where: string, wf: WorkflowContext, step?: string): object {
  try {
    return parse();
  } catch (error) {
    if (!ModelRetry.is(error)) throw error;
    throw new WorkflowError('invalid-input', `${where}: invalid input: ${error.reason}`, {
      runId: wf.runId,
      ...(step !== undefined && { step }),
      cause: error,
    });
  }
}

/** A DTO instance as JSON for the checkpoint; a value JSON cannot hold is left to the runner. */
function jsonOrSelf(value: unknown): unknown {
  try {
    return asJson(value);
  } catch {
    return value;
  }
}
