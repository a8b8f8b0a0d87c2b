import type { Model, StreamingModel } from '../src/core/index';
import type {
  ProviderOverrides,
  ResolveEnvironment,
  ResolveModelOptions,
  TestModelFactory,
} from '../src/providers/resolve/index';
import { GolemNestError } from './errors';

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

/** How model strings become models. */
export interface ModelStringSettings {
  /** Where keys and endpoints are read; default `process.env`. */
  env?: ResolveEnvironment;
  /** Builds the model for `test` strings; default `(name) => new TestModel({ name })`. */
  testModel?: TestModelFactory;
  /** The `fetch` the adapters use (tests, proxies). */
  fetch?: ResolveModelOptions['fetch'];
  /** Adapter options per provider, over the environment's. */
  overrides?: ProviderOverrides;
  /**
   * Resolve model names nothing binds when they are model strings (`@Agent({ model:
   * 'openai:gpt-4o-mini' })`); default `true`. `false` makes only bound names resolve.
   */
  resolveModelStrings?: boolean;
}

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
  const invalid = (detail: string): GolemNestError =>
    new GolemNestError(`${where}: the model "${name}" ${detail}`, {
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
