import type { StandardSchemaV1 } from '../../src/core/index';
import type { WorkflowStepDeclaration } from '../../src/workflows/index';

/** A compiled `@Step` method. */
export interface WorkflowStepInfo {
  /** The step's name (its checkpoint key): `options.name`, default the method name. */
  readonly name: string;
  /** The method it runs. */
  readonly member: string | symbol;
  /** The class whose `@Step` declared it (a base class for inherited steps). */
  readonly declaredBy: string;
  /** Retries of a failed attempt, when declared. */
  readonly retries?: number;
  /** The declared successors (for `workflowGraph`), when declared. */
  readonly next?: readonly string[];
  /** The input DTO class; `undefined` for a step without input. */
  readonly input: (new () => object) | undefined;
  /** The output DTO class, when declared. */
  readonly output: (new () => object) | undefined;
  /** Validates a step input (as JSON) into an `input` instance, or throws `ModelRetry`. */
  readonly parseInput: (value: unknown) => object;
  /** Validates an output (as JSON) into an `output` instance, or throws `ModelRetry` (`output` only). */
  readonly parseOutput: ((value: unknown) => object) | undefined;
  /** The Standard Schema the runner checks the output with before it is checkpointed (`output` only). */
  readonly outputSchema: StandardSchemaV1 | undefined;
}

/** A `@Workflow` class, compiled once (frozen, cached per class). */
export interface WorkflowClassDefinition {
  readonly target: abstract new (...args: never[]) => object;
  readonly className: string;
  /** The workflow's name: `@Workflow({ name })`, default the class name. */
  readonly name: string;
  /** `@Workflow({ maxSteps })`, when declared. */
  readonly maxSteps?: number;
  /** The input DTO class of `run`; `undefined` for a workflow without input. */
  readonly input: (new () => object) | undefined;
  /** Validates the workflow input (as JSON) into an `input` instance, or throws `ModelRetry`. */
  readonly parseInput: (value: unknown) => object;
  /** The Standard Schema the runner validates the input with at start (`input` only). */
  readonly inputSchema: StandardSchemaV1 | undefined;
  /** The `@Step` methods, base classes' first, in declaration order. */
  readonly steps: readonly WorkflowStepInfo[];
  /**
   * The declared graph given to `defineWorkflow` (`@Step` methods, then `@Workflow({ steps })`),
   * when the class declares one (a `@Step({ next })` or `@Workflow({ steps })`).
   */
  readonly declared: readonly WorkflowStepDeclaration[] | undefined;
}
