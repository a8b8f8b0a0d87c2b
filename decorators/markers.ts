/**
 * Type markers: how a decorated class tells the type system what its agent produces and needs.
 * Decorators cannot change a class's type, so the class declares its types once, with `declare`
 * fields that emit nothing at run time:
 *
 * ```ts
 * class WeatherAgent {
 *   declare readonly [OUTPUT_TYPE]: Forecast;   // what result.output is (checked against @Output)
 *   declare readonly [DEPS_TYPE]: User;         // what runs pass as deps (checked against tools)
 * }
 * ```
 *
 * `agentFromClass(new WeatherAgent(), { model })` then returns `Agent<User, Forecast>`.
 */

/** Key of the `declare`d field naming the output type (`@Output`'s DTO class, or `string`). */
export const OUTPUT_TYPE: unique symbol = Symbol.for('golem.decorators.outputType');
/** Key of the `declare`d field naming the type of the run's `deps`. */
export const DEPS_TYPE: unique symbol = Symbol.for('golem.decorators.depsType');
/** Key of the `declare`d field marking an agent with `deferredTools: true` (type `true`). */
export const PAUSABLE_TYPE: unique symbol = Symbol.for('golem.decorators.pausableType');

/** The output type a decorated instance declares (`string`, the text output, when it declares none). */
export type OutputOf<T> = typeof OUTPUT_TYPE extends keyof T ? T[typeof OUTPUT_TYPE] : string;
/** The deps type a decorated instance declares (`unknown` when it declares none). */
export type DepsOf<T> = typeof DEPS_TYPE extends keyof T ? T[typeof DEPS_TYPE] : unknown;
/** Whether a decorated instance declares that its runs may pause. */
export type PausableOf<T> = typeof PAUSABLE_TYPE extends keyof T
  ? T[typeof PAUSABLE_TYPE] extends true
    ? true
    : false
  : false;

/** A class constructor (any constructor arguments). */
export type AnyClass = abstract new (...args: never[]) => object;

/** `true` when `A` and `B` are mutually assignable. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * `unknown` when the class declares `[OUTPUT_TYPE]` as exactly `T`; otherwise a message type
 * that makes the decorator application fail to type-check with an explanation.
 */
export type OutputTypeCheck<
  C extends AnyClass,
  T,
> = typeof OUTPUT_TYPE extends keyof InstanceType<C>
  ? Same<InstanceType<C>[typeof OUTPUT_TYPE], T> extends true
    ? unknown
    : 'the class declares [OUTPUT_TYPE] as a different type than the @Output class'
  : 'add `declare readonly [OUTPUT_TYPE]: <the @Output class>;` to the class';

/**
 * `unknown` unless the options enable `deferredTools` and the class does not declare
 * `[PAUSABLE_TYPE]: true`.
 */
export type PausableTypeCheck<C extends AnyClass, O> = O extends { readonly deferredTools: true }
  ? PausableOf<InstanceType<C>> extends true
    ? unknown
    : 'deferredTools: true makes runs pausable; add `declare readonly [PAUSABLE_TYPE]: true;` to the class'
  : unknown;
