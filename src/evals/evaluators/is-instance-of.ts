import type { Evaluator } from '../evaluator';
import { evaluatorConfigError, evaluatorName, type NamedOptions } from './options';

/** A class (abstract ones included) whose instances an output may be. */
export type AnyClass = abstract new (...args: never[]) => unknown;

function describeFound(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  const ctor = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)
    ?.constructor;
  const name = typeof ctor?.name === 'string' ? ctor.name : '';
  if (name === '' || name === 'Object') return 'a plain object';
  return `an instance of ${name}`;
}

/**
 * Passes when `output instanceof Class` — for an agent whose output decoder yields class
 * instances (an `@Output` class). The reason names the class expected and what was found.
 */
export function isInstanceOf(Class: AnyClass, options: NamedOptions = {}): Evaluator {
  if (typeof Class !== 'function') {
    throw evaluatorConfigError('isInstanceOf: pass a class', 'Class');
  }
  const className = Class.name === '' ? 'the class' : Class.name;
  const name = evaluatorName(options.name, 'isInstanceOf');
  return {
    name,
    evaluate: (ctx) => {
      if (ctx.output instanceof Class) {
        return { pass: true, reason: `output is an instance of ${className}` };
      }
      return {
        pass: false,
        reason: `expected an instance of ${className}, found ${describeFound(ctx.output)}`,
      };
    },
  };
}
