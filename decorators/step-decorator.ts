import type { StepContext } from '../src/workflows/index';
import { appendOwn, ownerOf } from './metadata';

/** The metadata key `@Step` records under. */
export const STEP_KEY = 'golem:steps';

/** Options of {@link Step}. */
export interface StepDecoratorOptions {
  /** The step's stable name (its checkpoint key); default the method name. */
  readonly name?: string;
  /** How many times a failed attempt is retried (default 0). */
  readonly retries?: number;
  /** The step names that may follow this one, for `workflowGraph` (declares the step). */
  readonly next?: readonly string[];
  /**
   * The output DTO class: the value is validated before it is checkpointed, and a value replayed
   * from a checkpoint comes back as an instance of this class, like a fresh one.
   */
  readonly output?: new () => object;
  /**
   * The input DTO class, for toolchains that emit no `design:paramtypes` (tsx, esbuild, Vite ≤ 7).
   * With `emitDecoratorMetadata` it is read from the first parameter's type.
   */
  readonly input?: new () => object;
}

/** What `@Step` records. */
export interface StepRecord {
  readonly member: string | symbol;
  readonly options: Readonly<StepDecoratorOptions>;
  /** Whether it decorated a static member (a definition error). */
  readonly isStatic: boolean;
}

/**
 * What a `@Step()` method may be: async, taking its input (a DTO, validated before the step
 * runs) and the step's context. Declare the context optional (`ctx?: StepContext`) so `run` can
 * call `this.reserve(order)`; inside a workflow it is always given.
 */
export type StepMethod = (input: never, ctx: StepContext) => Promise<unknown>;

/**
 * Declares a method of a `@Workflow` class as a durable step. Records `options` only. Called
 * from `run` (through `this`), the method runs as `wf.step(name, …)`: its input is validated
 * against its DTO class, its output is checkpointed, and after a crash a completed step is
 * replayed from its checkpoint instead of running again. Called on the plain instance, outside
 * a workflow, it is an ordinary method call.
 *
 * ```ts
 * @Step({ retries: 2, next: ['charge'] })
 * async reserve(order: OrderInput, ctx?: StepContext): Promise<Reservation> { ... }
 * ```
 */
export function Step(
  options?: StepDecoratorOptions,
): <M extends StepMethod>(
  target: object,
  member: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void {
  return (target, member) => {
    const { ctor, isStatic } = ownerOf(target);
    const record: StepRecord = { member, options: { ...(options ?? {}) }, isStatic };
    appendOwn(STEP_KEY, ctor, record);
  };
}
