import type { WorkflowStepDeclaration } from '../src/workflows/index';
import type { AnyClass } from './markers';
import { writeOwn } from './metadata';

/** The metadata key `@Workflow` records under. */
export const WORKFLOW_KEY = 'golem:workflow';

/** Options of {@link Workflow}. */
export interface WorkflowDecoratorOptions {
  /** The workflow's stable name (stored runs name it); default the class name. */
  readonly name?: string;
  /** The most step executions one run may make (default 1000, see `defineWorkflow`). */
  readonly maxSteps?: number;
  /**
   * The input DTO class of `run` (`NoArgs` for a workflow without input), validated at start with
   * the strict rules tool arguments use. Required when `run` takes an input: TypeScript records
   * parameter types (`design:paramtypes`) only for decorated methods, and `run` has none.
   */
  readonly input?: new () => object;
  /**
   * Steps that are not `@Step` methods — `wf.sleep`, `wf.waitForEvent`, `wf.runAgent`, `wf.step`
   * called in `run` — declared for the graph (`{ name, kind?, next? }`), after the `@Step` ones.
   * Once the class declares its graph (here or with `@Step({ next })`), every step name `run`
   * calls must be declared: an undeclared one fails the run with `diverged`.
   */
  readonly steps?: readonly WorkflowStepDeclaration[];
}

/** What `@Workflow` records. */
export interface WorkflowRecord {
  readonly options: Readonly<WorkflowDecoratorOptions>;
}

/**
 * Declares a class as a durable workflow. Records `options` only (own metadata under
 * `golem:workflow`); `workflowFromClass(Class, instance)` compiles the class into a
 * `WorkflowDefinition` of `golem/workflows`. The class has an entry method `run(input, wf)`
 * whose input is the DTO class named by `input`; its `@Step` methods called from `run` are
 * checkpointed steps. A subclass inherits its base's options; its own `@Workflow`
 * overrides them option by option.
 *
 * ```ts
 * @Workflow({ name: 'order', input: OrderInput, maxSteps: 100 })
 * class OrderWorkflow {
 *   constructor(private readonly stock: StockService) {}
 *   async run(order: OrderInput, wf: WorkflowContext): Promise<Receipt> {
 *     const reserved = await this.reserve(order);
 *     ...
 *   }
 *   @Step({ retries: 2, output: Reservation })
 *   async reserve(order: OrderInput): Promise<Reservation> { return this.stock.reserve(order); }
 * }
 * ```
 */
export function Workflow(options?: WorkflowDecoratorOptions): (target: AnyClass) => void {
  return (target) => {
    const record: WorkflowRecord = { options: { ...(options ?? {}) } };
    writeOwn(WORKFLOW_KEY, target, record);
  };
}
