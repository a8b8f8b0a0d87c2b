import type { Model, StreamingModel } from '../src/core/index';
import type { ResolveEnvironment } from '../src/providers/resolve/index';
import {
  checkModelSource as checkSource,
  type CheckedSourceOf,
} from '../src/providers/resolve/wiring';
import { containerFail } from './errors';
import type { Token } from './tokens';

export { isModel, isModelString } from '../src/providers/resolve/wiring';

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
export type CheckedSource = CheckedSourceOf<ModelFactory>;

/** Validates what `name` is bound to; throws `invalid-options` naming the binding and the fix. */
export function checkModelSource(name: string, source: unknown, where: string): CheckedSource {
  return checkSource<ModelFactory>(name, source, where, containerFail);
}
