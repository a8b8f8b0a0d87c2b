import type { Model, StreamingModel } from '../src/core/index';
import type { ResolveEnvironment } from '../src/providers/resolve/index';
import { ContainerError } from './errors';
import type { Token } from './tokens';

/** What a model factory gets: the binding's name, the environment, and the container. */
export interface ModelFactoryContext {
  /** The binding name the factory is bound to (`'fast'`). */
  readonly name: string;
  /** The environment the container reads (`golemModule({ env })`, default `process.env`). */
  readonly env: ResolveEnvironment;
  /** Resolves a model string with the container's settings (`resolveModel`, env, `testModel`). */
  resolve(spec: string): StreamingModel;
  /** Another binding of the container, e.g. a configuration service. */
  get<T>(token: Token<T> | symbol | string): T;
}

/**
 * A factory building a model lazily, the first time an agent needs it, then kept (called once per
 * binding). It must return the model synchronously.
 */
export type ModelFactory = (context: ModelFactoryContext) => Model;

/**
 * What a model name can be bound to:
 * - a model instance (`new TestModel()`, `openai({ … })`) — used as is;
 * - a factory `(ctx) => model` — called lazily, once;
 * - a model string (`'openai:gpt-4o-mini'`, `'anthropic:claude-sonnet-4-5'`, `'test'`) — resolved
 *   lazily, once, by `resolveModel` with the container's environment;
 * - any other string — the name of another binding (an alias: `default: 'fast'` follows `fast`,
 *   overrides included).
 */
export type ModelSource = Model | ModelFactory | string;

/** A checked {@link ModelSource}. */
export type CheckedSource =
  | { readonly kind: 'instance'; readonly model: Model }
  | { readonly kind: 'factory'; readonly factory: ModelFactory }
  | { readonly kind: 'spec'; readonly spec: string }
  | { readonly kind: 'alias'; readonly target: string };

/** Whether `value` is a model: an object with a `generate` method. */
export function isModel(value: unknown): value is Model {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { generate?: unknown }).generate === 'function'
  );
}

/**
 * Whether `text` is a model string rather than a binding name: `test`, `test:<label>`, or any
 * `provider:model` (a string with a colon).
 */
export function isModelString(text: string): boolean {
  const trimmed = text.trim();
  return trimmed === 'test' || trimmed.includes(':');
}

function isClass(value: (...args: never[]) => unknown): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(value));
}

/** Validates what `name` is bound to; throws `invalid-options` naming the binding and the fix. */
export function checkModelSource(name: string, source: unknown, where: string): CheckedSource {
  const invalid = (detail: string): ContainerError =>
    new ContainerError(`${where}: the model "${name}" ${detail}`, {
      reason: 'invalid-options',
      model: name,
    });
  if (typeof source === 'string') {
    const text = source.trim();
    if (text === '')
      throw invalid("is an empty string; give a model string such as 'openai:gpt-4o-mini'");
    if (isModelString(text)) return { kind: 'spec', spec: text };
    if (text === name) throw invalid('is an alias of itself; bind it to a model or a model string');
    return { kind: 'alias', target: text };
  }
  if (typeof source === 'function') {
    const fn = source as (...args: never[]) => unknown;
    if (isClass(fn)) {
      const className = (fn as { name?: string }).name ?? 'the class';
      throw invalid(
        `is the class ${className}; pass an instance (new ${className}(…)) or a factory (() => new ${className}(…))`,
      );
    }
    return { kind: 'factory', factory: source as ModelFactory };
  }
  if (isModel(source)) return { kind: 'instance', model: source };
  throw invalid(
    `is ${source === null ? 'null' : typeof source}; give a model, a factory (ctx) => model, or a model string such as 'openai:gpt-4o-mini'`,
  );
}
