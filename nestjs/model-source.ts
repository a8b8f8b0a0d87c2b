import type { Model, StreamingModel } from '../src/core/index';
import type { ResolveEnvironment } from '../src/providers/resolve/index';
import { checkModelSource as checkSource } from '../src/providers/resolve/wiring';
import { nestFail } from './errors';

export type { ModelStringSettings } from '../src/providers/resolve/wiring';
export { isModelString } from '../src/providers/resolve/wiring';

/** What a model factory gets: the name it is bound to, the environment, and Nest's injector. */
export interface ModelFactoryContext {
  /** The model name the factory is bound to (`'fast'`). */
  readonly name: string;
  /** The environment model strings read (`GolemModule.forRoot({ env })`, default `process.env`). */
  readonly env: ResolveEnvironment;
  /** Resolves a model string with the module's settings (`resolveModel`, env, `testModel`). */
  resolve(spec: string): StreamingModel;
  /** A provider of the application, found in any module (`ctx.get(ConfigService)`). */
  get<T>(token: abstract new (...args: never[]) => T): T;
}

/**
 * A factory building a model lazily — the first time an agent (or `GolemModels.get`) needs it —
 * then kept. It may be async (`async (ctx) => openai({ apiKey: await vault.read('openai') })`).
 */
export type ModelFactory = (context: ModelFactoryContext) => Model | Promise<Model>;

/**
 * What a model name can be bound to:
 * - a model instance (`new TestModel()`, `openai({ … })`) — used as is;
 * - a factory `(ctx) => model` (or a Promise of one) — called lazily, once;
 * - a model string (`'openai:gpt-4o-mini'`, `'anthropic:claude-sonnet-4-5'`, `'test'`) — resolved
 *   lazily, once, by `resolveModel` with the module's environment;
 * - any other string — the name of another binding (an alias: `fast: 'default'`).
 */
export type ModelSource = Model | ModelFactory | string;

/** A checked {@link ModelSource}. */
export type CheckedSource =
  | { readonly kind: 'instance'; readonly model: Model }
  | { readonly kind: 'factory'; readonly factory: ModelFactory }
  | { readonly kind: 'spec'; readonly spec: string }
  | { readonly kind: 'alias'; readonly target: string };

/** Validates what `name` is bound to; throws `invalid-options` naming the binding and the fix. */
export function checkModelSource(name: string, source: unknown, where: string): CheckedSource {
  return checkSource<ModelFactory>(name, source, where, nestFail);
}
