import type { Model, StreamingModel } from '../../core/contract/model';
import { describeError } from '../../core/kit/error-base';
import type { ResolveEnvironment } from './environment';
import type { ProviderOverrides, ResolveModelOptions, TestModelFactory } from './options';
import { resolveModel } from './resolve';

/**
 * The model wiring `golem/container` and `golem/nestjs` share: model sources checked, model
 * strings resolved once per container (or module), factories' results checked. Internal (not
 * re-exported from `golem/providers/resolve`). Every error is built by the integration's `fail`,
 * so each names its own `ConfigError` component (`container`, `nestjs`).
 */

/** The reasons of the wiring's errors; both integrations' components use them. */
export type WiringReason = 'invalid-options' | 'invalid-model' | 'model-failed';

/** Builds an integration's error from a message and its details. */
export type WiringFail = (
  message: string,
  init: { readonly reason: WiringReason; readonly model?: string; readonly cause?: unknown },
) => Error;

/** How model strings become models (`golemModule(…)`, `GolemModule.forRoot(…)`). */
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
   * 'openai:gpt-4o-mini' })`); default `true`. `false` makes only bound names resolve (e.g. a
   * test setup that must never reach a provider).
   */
  resolveModelStrings?: boolean;
}

/** A checked model source; `F` is the integration's factory type. */
export type CheckedSourceOf<F> =
  | { readonly kind: 'instance'; readonly model: Model }
  | { readonly kind: 'factory'; readonly factory: F }
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

/** Throws `invalid-options` unless `name` is a non-empty string. */
export function checkModelName(
  name: unknown,
  where: string,
  fail: WiringFail,
): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw fail(
      `${where}: a model name must be a non-empty string such as 'default', got ${typeof name === 'string' ? '""' : typeof name}`,
      { reason: 'invalid-options' },
    );
  }
}

/** Validates what `name` is bound to; throws `invalid-options` naming the binding and the fix. */
export function checkModelSource<F>(
  name: string,
  source: unknown,
  where: string,
  fail: WiringFail,
): CheckedSourceOf<F> {
  const invalid = (detail: string): Error =>
    fail(`${where}: the model "${name}" ${detail}`, { reason: 'invalid-options', model: name });
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
    return { kind: 'factory', factory: source as F };
  }
  if (isModel(source)) return { kind: 'instance', model: source };
  throw invalid(
    `is ${source === null ? 'null' : typeof source}; give a model, a factory (ctx) => model, or a model string such as 'openai:gpt-4o-mini'`,
  );
}

/**
 * The `models` of an integration's options with `defaultModel` as `default`, each name and
 * source checked, in order: the given sources by name.
 */
export function checkedSources<F>(
  models: Readonly<Record<string, unknown>> | undefined,
  defaultModel: unknown,
  where: string,
  fail: WiringFail,
): Map<string, CheckedSourceOf<F>> {
  const raw = new Map<string, unknown>(Object.entries(models ?? {}));
  if (defaultModel !== undefined) {
    if (raw.has('default'))
      throw fail(`${where}: give the default model once: as defaultModel or as models.default`, {
        reason: 'invalid-options',
      });
    raw.set('default', defaultModel);
  }
  const sources = new Map<string, CheckedSourceOf<F>>();
  for (const [name, source] of raw) {
    checkModelName(name, where, fail);
    sources.set(name, checkModelSource<F>(name, source, where, fail));
  }
  return sources;
}

/** The model-string settings among an integration's options (those given, nothing else). */
export function modelStringSettings(options: ModelStringSettings): ModelStringSettings {
  return {
    ...(options.env !== undefined && { env: options.env }),
    ...(options.testModel !== undefined && { testModel: options.testModel }),
    ...(options.fetch !== undefined && { fetch: options.fetch }),
    ...(options.overrides !== undefined && { overrides: options.overrides }),
    ...(options.resolveModelStrings !== undefined && {
      resolveModelStrings: options.resolveModelStrings,
    }),
  };
}

/**
 * One container's (or module's) model-string resolver: `resolveModel` with its environment and
 * options, each string resolved once (the adapter is kept).
 */
export class ModelStrings {
  /** The environment model strings and factories read. */
  readonly env: ResolveEnvironment;
  /** Whether unbound names that are model strings resolve by themselves. */
  readonly resolveUnbound: boolean;
  private readonly options: ResolveModelOptions;
  private readonly fail: WiringFail;
  private readonly cache = new Map<string, StreamingModel>();

  /** `testModel` is the integration's default for `test` strings; `fail` builds its errors. */
  constructor(
    settings: ModelStringSettings,
    how: { readonly testModel: TestModelFactory; readonly fail: WiringFail },
  ) {
    this.env = settings.env ?? process.env;
    this.resolveUnbound = settings.resolveModelStrings ?? true;
    this.fail = how.fail;
    this.options = {
      env: this.env,
      testModel: settings.testModel ?? how.testModel,
      ...(settings.fetch !== undefined && { fetch: settings.fetch }),
      ...(settings.overrides !== undefined && { overrides: settings.overrides }),
    };
  }

  /**
   * The model `spec` names, built on first use. `binding` names the binding for messages. Throws
   * a `model-failed` error whose cause is the resolution `ConfigError`.
   */
  resolve(spec: string, binding: string = spec): StreamingModel {
    const key = spec.trim();
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    let model: StreamingModel;
    try {
      model = resolveModel(key, this.options);
    } catch (error) {
      const which = binding === key ? `"${key}"` : `"${binding}" (${JSON.stringify(key)})`;
      throw this.fail(`the model ${which} cannot be built: ${describeError(error)}`, {
        reason: 'model-failed',
        model: binding,
        cause: error,
      });
    }
    this.cache.set(key, model);
    return model;
  }
}

/** The `model-failed` error of a factory that threw `error` (an integration's own errors pass as they are). */
export function factoryFailure(name: string, error: unknown, fail: WiringFail): Error {
  return fail(`the model factory bound to "${name}" threw: ${describeError(error)}`, {
    reason: 'model-failed',
    model: name,
    cause: error,
  });
}

/** What the factory bound to `name` returned, when it is a model; else `invalid-model`. */
export function checkFactoryModel(name: string, value: unknown, fail: WiringFail): Model {
  if (!isModel(value)) {
    throw fail(
      `the model factory bound to "${name}" returned ${value === null ? 'null' : typeof value}, not a model (an object with generate())`,
      { reason: 'invalid-model', model: name },
    );
  }
  return value;
}
