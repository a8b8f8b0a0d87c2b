import type { StandardSchemaV1 } from '../core/index';
import { ConfigError } from '../core/index';
import { isArrayValue } from '../core/kit/guards';
import type { WorkflowContext } from './context';
import type { WorkflowShape, WorkflowStepDeclaration } from './shape';
import { shapeOf } from './shape';

/** The default bound on step calls per run. */
export const DEFAULT_MAX_STEPS = 1000;

/** What {@link defineWorkflow} takes. */
export interface WorkflowConfig<Input, Output> {
  /** Stable name: stored runs name their workflow by it. */
  name: string;
  /** Validates the input at start (invalid: `WorkflowError` `invalid-input`). */
  input?: StandardSchemaV1<unknown, Input>;
  /** Validates the output at completion. */
  output?: StandardSchemaV1<unknown, Output>;
  /** Bound on step calls per run (default 1000): past it the run fails with `step-limit`. */
  maxSteps?: number;
  /**
   * The steps, declared for `workflowGraph` and checked at run time: calling an undeclared step
   * name then fails the run with `diverged`.
   */
  steps?: readonly WorkflowStepDeclaration[];
  /** The workflow: plain TypeScript over `wf`'s steps, deterministic apart from them. */
  run(input: Input, wf: WorkflowContext): Promise<Output>;
}

/** A workflow: what `WorkflowRunner` runs (frozen; build it with {@link defineWorkflow}). */
export interface WorkflowDefinition<Input = unknown, Output = unknown> {
  /** The stable name stored runs use. */
  readonly name: string;
  /** Bound on step calls per run. */
  readonly maxSteps: number;
  /** Validates the input at start. */
  readonly input?: StandardSchemaV1<unknown, Input>;
  /** Validates the output at completion. */
  readonly output?: StandardSchemaV1<unknown, Output>;
  /** The declared steps, when declared. */
  readonly steps?: readonly WorkflowStepDeclaration[];
  /** The workflow's code, called from the top on every execution. */
  run(input: Input, wf: WorkflowContext): Promise<Output>;
  /** The static shape, when steps are declared. */
  describe?(): WorkflowShape;
}

/** The input type of a workflow definition. */
export type WorkflowInput<W> = W extends WorkflowDefinition<infer I> ? I : never;
/** The output type of a workflow definition. */
export type WorkflowOutput<W> = W extends WorkflowDefinition<never, infer O> ? O : never;

const NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Defines a durable workflow (validated; returned frozen). */
export function defineWorkflow<Input = unknown, Output = unknown>(
  config: WorkflowConfig<Input, Output>,
): WorkflowDefinition<Input, Output> {
  const { name, input, output, maxSteps = DEFAULT_MAX_STEPS, steps } = config;
  const fail = (option: string, message: string): never => {
    throw new ConfigError(`defineWorkflow(${JSON.stringify(name)}): ${message}`, {
      component: 'workflows',
      option,
    });
  };
  if (typeof name !== 'string' || !NAME.test(name))
    fail('name', 'name must be 1-128 letters, digits, `_`, `.`, `:` or `-`');
  if (typeof config.run !== 'function') fail('run', 'run must be a function (input, wf) => output');
  if (!Number.isInteger(maxSteps) || maxSteps < 1)
    fail('maxSteps', 'maxSteps must be a positive integer');
  const declared = steps === undefined ? undefined : declareSteps(steps, fail);
  const definition: WorkflowDefinition<Input, Output> = {
    name,
    maxSteps,
    ...(input !== undefined && { input }),
    ...(output !== undefined && { output }),
    ...(declared !== undefined && {
      steps: declared,
      describe: () => shapeOf(name, declared),
    }),
    run: (value, wf) => config.run(value, wf),
  };
  return Object.freeze(definition);
}

function declareSteps(
  steps: readonly WorkflowStepDeclaration[],
  fail: (option: string, message: string) => never,
): readonly WorkflowStepDeclaration[] {
  if (!isArrayValue(steps)) fail('steps', 'steps must be an array of { name, next?, kind? }');
  const names = new Set<string>();
  for (const step of steps) {
    if (typeof step.name !== 'string' || step.name === '')
      fail('steps', 'every declared step needs a non-empty name');
    if (names.has(step.name)) fail('steps', `step ${JSON.stringify(step.name)} is declared twice`);
    names.add(step.name);
  }
  for (const step of steps)
    for (const next of step.next ?? [])
      if (!names.has(next))
        fail(
          'steps',
          `step ${JSON.stringify(step.name)} names undeclared next step ${JSON.stringify(next)}`,
        );
  return Object.freeze(
    steps.map((s) => Object.freeze({ ...s, ...(s.next && { next: Object.freeze([...s.next]) }) })),
  );
}
