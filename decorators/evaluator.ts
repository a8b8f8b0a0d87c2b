import { ConfigError, describeError } from '../src/core/index';
import type { EvalContext, EvalScore, Evaluator as EvaluatorObject } from '../src/evals/index';
import { agentDefinitionError, classNameOf } from './errors';
import { classChain, readOwn, writeOwn } from './metadata';

/** The metadata key `@Evaluator` records under. */
export const EVALUATOR_KEY = 'golem:evaluator';

/** Options of {@link Evaluator}. */
export interface EvaluatorDecoratorOptions {
  /** Names the evaluator in reports; default the class name. */
  readonly name?: string;
  /** The score at which a numeric result passes, 0–1; default 0.5. */
  readonly threshold?: number;
}

/** What `@Evaluator` records. */
export interface EvaluatorRecord {
  readonly options: Readonly<EvaluatorDecoratorOptions>;
}

/** An instance of an evaluator class: its `evaluate(ctx)` method judges one case run. */
export interface EvaluatorInstance<Input = unknown, Output = unknown, Expected = unknown> {
  evaluate(ctx: EvalContext<Input, Output, Expected>): EvalScore | Promise<EvalScore>;
}

/** A class `@Evaluator` decorates: its instances have an `evaluate(ctx)` method. */
export type EvaluatorClass = abstract new (...args: never[]) => {
  evaluate(ctx: never): unknown;
};

const OPTION_KEYS: ReadonlySet<string> = new Set(['name', 'threshold']);

function checkOptions(options: unknown, className: string): EvaluatorDecoratorOptions {
  if (options === undefined) return {};
  const invalid = (message: string, member?: string): ConfigError =>
    agentDefinitionError('invalid-option', message, {
      className,
      ...(member !== undefined && { member }),
    });
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw invalid('@Evaluator takes an options object ({ name?, threshold? })');
  const record = options as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!OPTION_KEYS.has(key))
      throw invalid(
        `@Evaluator has no option ${JSON.stringify(key)}; its options are name and threshold`,
      );
  const { name, threshold } = record;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === ''))
    throw invalid(`@Evaluator name must be a non-empty string, got ${JSON.stringify(name)}`);
  if (
    threshold !== undefined &&
    (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1)
  )
    throw invalid(
      `@Evaluator threshold must be a number from 0 to 1, got ${JSON.stringify(threshold)}`,
    );
  return {
    ...(name !== undefined && { name }),
    ...(threshold !== undefined && { threshold }),
  };
}

/**
 * Declares a class as an evaluator of `golem/evals`: its `evaluate(ctx)` method judges one case
 * run and returns an `EvalScore` (a boolean, a 0–1 score, or `{ pass, score, reason }`). Records
 * `options` (own metadata under `golem:evaluator`); `evaluatorFromClass(instanceOrClass)` turns
 * the class into an `Evaluator`. A subclass inherits its base's options; its own `@Evaluator`
 * overrides them option by option. Invalid options are a `ConfigError` (component `decorators`)
 * naming the class.
 *
 * ```ts
 * @Evaluator({ name: 'polite', threshold: 0.7 })
 * class Politeness {
 *   constructor(private readonly words = ['please', 'thank you']) {}
 *   evaluate(ctx: EvalContext<string, string>): number {
 *     return this.words.filter((w) => ctx.output.toLowerCase().includes(w)).length / this.words.length;
 *   }
 * }
 * runExperiment({ …, evaluators: [evaluatorFromClass(Politeness)] });
 * ```
 */
export function Evaluator(options?: EvaluatorDecoratorOptions): (target: EvaluatorClass) => void {
  return (target) => {
    const record: EvaluatorRecord = { options: checkOptions(options, classNameOf(target)) };
    writeOwn(EVALUATOR_KEY, target, record);
  };
}

/** The `@Evaluator` options of `ctor` and its bases merged (a subclass's over its bases'), if any. */
function optionsOf(ctor: object): EvaluatorDecoratorOptions | undefined {
  let merged: EvaluatorDecoratorOptions | undefined;
  for (const owner of classChain(ctor)) {
    const record = readOwn(EVALUATOR_KEY, owner) as EvaluatorRecord | undefined;
    if (record !== undefined) merged = { ...merged, ...record.options };
  }
  return merged;
}

/** Whether `value` is a class decorated with `@Evaluator` (or a subclass of one). */
export function isEvaluatorClass(value: unknown): boolean {
  return typeof value === 'function' && optionsOf(value) !== undefined;
}

/**
 * The `Evaluator` of an `@Evaluator` class: give it an instance (built by you or resolved from a
 * container, with its collaborators injected) or the class itself, which is instantiated with no
 * arguments. Its name is the decorator's `name`, else the class name; its `threshold` the
 * decorator's; `evaluate` calls the instance's method. A class that is not decorated, has no
 * `evaluate` method or needs constructor arguments is a `ConfigError` (component `decorators`)
 * naming the class and the fix.
 */
export function evaluatorFromClass<Input = unknown, Output = unknown, Expected = unknown>(
  instanceOrClass:
    | EvaluatorInstance<Input, Output, Expected>
    | (new () => EvaluatorInstance<Input, Output, Expected>),
): EvaluatorObject<Input, Output, Expected> {
  const given: unknown = instanceOrClass;
  if (typeof given !== 'function' && (typeof given !== 'object' || given === null))
    throw new ConfigError(
      `evaluatorFromClass takes an @Evaluator class or an instance of one, got ${given === null ? 'null' : typeof given}`,
      { component: 'decorators', reason: 'invalid-option' },
    );
  const ctor: unknown =
    typeof given === 'function'
      ? given
      : (Object.getPrototypeOf(given) as { constructor?: unknown } | null)?.constructor;
  const className = classNameOf(ctor);
  const options = typeof ctor === 'function' ? optionsOf(ctor) : undefined;
  if (options === undefined)
    throw agentDefinitionError('invalid-option', 'is not an evaluator', {
      className,
      hint: 'decorate the class with @Evaluator() from golem/decorators',
    });
  let instance: object;
  if (typeof given === 'function') {
    if (given.length > 0)
      throw agentDefinitionError(
        'invalid-option',
        `could not be created without constructor arguments (its constructor takes ${String(given.length)})`,
        {
          className,
          hint: 'build the instance (or resolve it from your container) and pass the instance',
        },
      );
    try {
      instance = new (given as new () => object)();
    } catch (error) {
      throw agentDefinitionError(
        'invalid-option',
        `could not be created without constructor arguments (${describeError(error)})`,
        {
          className,
          hint: 'build the instance (or resolve it from your container) and pass the instance',
          cause: error,
        },
      );
    }
  } else {
    instance = given;
  }
  const evaluate: unknown = (instance as { evaluate?: unknown }).evaluate;
  if (typeof evaluate !== 'function')
    throw agentDefinitionError(
      'not-a-method',
      'an @Evaluator class needs an evaluate(ctx) method',
      {
        className,
        member: 'evaluate',
        hint: 'add evaluate(ctx: EvalContext) returning a boolean, a 0–1 score or { pass, score, reason }',
      },
    );
  const name = options.name ?? (className === '(anonymous)' ? undefined : className);
  if (name === undefined)
    throw agentDefinitionError('invalid-option', 'an anonymous evaluator class needs a name', {
      className,
      hint: 'give it one: @Evaluator({ name: "…" })',
    });
  const method = evaluate as EvaluatorInstance<Input, Output, Expected>['evaluate'];
  return Object.freeze({
    name,
    ...(options.threshold !== undefined && { threshold: options.threshold }),
    evaluate: (ctx: EvalContext<Input, Output, Expected>) => method.call(instance, ctx),
  });
}
