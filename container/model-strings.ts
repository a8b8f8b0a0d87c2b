import type { StreamingModel } from '../src/core/index';
import { describeError } from '../src/core/index';
import type {
  ProviderOverrides,
  ResolveEnvironment,
  ResolveModelOptions,
  TestModelFactory,
} from '../src/providers/resolve/index';
import { resolveModel } from '../src/providers/resolve/index';
import { TestModel } from '../src/testing/index';
import { ContainerError } from './errors';

/** How a container turns model strings into models. */
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
   * Resolve model names that have no binding but are model strings (`@Agent({ model:
   * 'openai:gpt-4o-mini' })`); default `true`. Set `false` so only bound names resolve (e.g. a
   * test container that must never reach a provider).
   */
  resolveModelStrings?: boolean;
}

/** The container's service token for its {@link ModelStrings}. */
export const MODEL_STRINGS: unique symbol = Symbol.for('golem.container.modelStrings');

const defaultTestModel: TestModelFactory = (name) => new TestModel({ name });

/**
 * One container's model-string resolver: `resolveModel` with the container's environment and
 * options, each string resolved once (the adapter is kept). Bound by `golemModule`.
 */
export class ModelStrings {
  /** The environment model strings and factories read. */
  readonly env: ResolveEnvironment;
  /** Whether unbound names that are model strings resolve by themselves. */
  readonly resolveUnbound: boolean;
  private readonly options: ResolveModelOptions;
  private readonly cache = new Map<string, StreamingModel>();

  constructor(settings: ModelStringSettings = {}) {
    this.env = settings.env ?? process.env;
    this.resolveUnbound = settings.resolveModelStrings ?? true;
    this.options = {
      env: this.env,
      testModel: settings.testModel ?? defaultTestModel,
      ...(settings.fetch !== undefined && { fetch: settings.fetch }),
      ...(settings.overrides !== undefined && { overrides: settings.overrides }),
    };
  }

  /**
   * The model `spec` names, built on first use. `binding` names the binding for messages. Throws
   * a `model-failed` {@link ContainerError} whose cause is the `ModelResolutionError`.
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
      throw new ContainerError(`the model ${which} cannot be built: ${describeError(error)}`, {
        reason: 'model-failed',
        model: binding,
        cause: error,
      });
    }
    this.cache.set(key, model);
    return model;
  }
}

let fallback: ModelStrings | undefined;

/** The resolver of a container without `golemModule`: `process.env` and the default `TestModel`. */
export function defaultModelStrings(): ModelStrings {
  fallback ??= new ModelStrings();
  return fallback;
}
