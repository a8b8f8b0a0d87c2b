import type { Model, StreamingModel } from '../src/core/index';
import { describeError } from '../src/core/index';
import type { ResolveModelOptions } from '../src/providers/resolve/index';
import { resolveModel } from '../src/providers/resolve/index';
import { TestModel } from '../src/testing/index';
import { GolemNestError } from './errors';
import {
  isModel,
  isModelString,
  type CheckedSource,
  type ModelFactory,
  type ModelFactoryContext,
  type ModelStringSettings,
} from './model-source';

/** Who asks for a model, for messages: the agent class and its Nest module. */
export interface ModelRequester {
  readonly agent?: string;
  readonly module?: string;
}

/** What a {@link GolemModels} is built from (checked `GolemModule.forRoot` options). */
export interface ModelRegistryInit extends ModelStringSettings {
  /** Checked sources by name. */
  readonly sources: ReadonlyMap<string, CheckedSource>;
  /** Looks up another provider of the application for factories. */
  readonly lookup: <T>(token: abstract new (...args: never[]) => T) => T;
}

const quote = (name: string): string => `'${name.replace(/'/g, "\\'")}'`;

/**
 * The application's models by name, as `GolemModule.forRoot` configured them: instances as
 * given, factories and model strings built lazily (once, on first use) and kept, aliases
 * followed, and names nothing binds resolved by themselves when they are model strings
 * (`'openai:gpt-4o-mini'`, `'test'`). Agents get their model from the Nest token
 * `getModelToken(name)`, which `forFeature` provides from here; inject `GolemModels` to reach a
 * model from your own services: `await models.get('fast')`.
 */
export class GolemModels {
  private readonly sources: ReadonlyMap<string, CheckedSource>;
  private readonly resolveUnbound: boolean;
  private readonly env: NonNullable<ModelStringSettings['env']>;
  private readonly resolveOptions: ResolveModelOptions;
  private readonly lookup: ModelRegistryInit['lookup'];
  private readonly built = new Map<string, Promise<Model>>();
  private readonly specs = new Map<string, StreamingModel>();

  /** @internal Built by `GolemModule.forRoot`; inject it rather than constructing one. */
  constructor(init: ModelRegistryInit) {
    this.sources = init.sources;
    this.resolveUnbound = init.resolveModelStrings ?? true;
    this.env = init.env ?? process.env;
    this.lookup = init.lookup;
    this.resolveOptions = {
      env: this.env,
      testModel: init.testModel ?? ((name) => new TestModel({ name })),
      ...(init.fetch !== undefined && { fetch: init.fetch }),
      ...(init.overrides !== undefined && { overrides: init.overrides }),
    };
  }

  /** The names bound in `forRoot` (`default` included when a default model is given). */
  names(): string[] {
    return [...this.sources.keys()];
  }

  /**
   * The model bound to `name`, built on first use. Rejects with a {@link GolemNestError}:
   * `unbound-model` (nothing binds the name), `model-failed` (a model string cannot be resolved, a
   * factory threw) or `invalid-model` (a factory returned something that is not a model).
   */
  get(name: string): Promise<Model> {
    return this.modelFor(name, {});
  }

  /** @internal `get` with the requester named in errors. */
  modelFor(name: string, requester: ModelRequester, chain: readonly string[] = []): Promise<Model> {
    const cached = this.built.get(name);
    if (cached !== undefined) return cached;
    // A synchronous throw of build() becomes a rejection.
    const pending = new Promise<Model>((resolve) => {
      resolve(this.build(name, requester, chain));
    });
    this.built.set(name, pending);
    pending.catch(() => {
      if (this.built.get(name) === pending) this.built.delete(name);
    });
    return pending;
  }

  private build(name: string, requester: ModelRequester, chain: readonly string[]): Promise<Model> {
    const source = this.sources.get(name);
    if (source === undefined) {
      if (isModelString(name) && this.resolveUnbound)
        return Promise.resolve(this.resolveSpec(name, name));
      throw this.unbound(name, requester, chain);
    }
    switch (source.kind) {
      case 'instance':
        return Promise.resolve(source.model);
      case 'spec':
        return Promise.resolve(this.resolveSpec(source.spec, name));
      case 'alias':
        if (chain.includes(source.target) || source.target === name) {
          throw new GolemNestError(
            `GolemModule: the model aliases ${[...chain, name, source.target].map((n) => `"${n}"`).join(' -> ')} form a cycle; bind one of them to a model or a model string`,
            { reason: 'invalid-options', model: name },
          );
        }
        return this.modelFor(source.target, requester, [...chain, name]);
      case 'factory':
        return this.runFactory(name, source.factory);
    }
  }

  private resolveSpec(spec: string, binding: string): StreamingModel {
    const key = spec.trim();
    const cached = this.specs.get(key);
    if (cached !== undefined) return cached;
    let model: StreamingModel;
    try {
      model = resolveModel(key, this.resolveOptions);
    } catch (error) {
      const which = binding === key ? `"${key}"` : `"${binding}" (${JSON.stringify(key)})`;
      throw new GolemNestError(`the model ${which} cannot be built: ${describeError(error)}`, {
        reason: 'model-failed',
        model: binding,
        cause: error,
      });
    }
    this.specs.set(key, model);
    return model;
  }

  private async runFactory(name: string, factory: ModelFactory): Promise<Model> {
    const context: ModelFactoryContext = {
      name,
      env: this.env,
      resolve: (spec) => this.resolveSpec(spec, name),
      get: (token) => this.lookup(token),
    };
    let value: unknown;
    try {
      value = await factory(context);
    } catch (error) {
      if (GolemNestError.is(error)) throw error;
      throw new GolemNestError(
        `the model factory bound to "${name}" threw: ${describeError(error)}`,
        { reason: 'model-failed', model: name, cause: error },
      );
    }
    if (!isModel(value)) {
      throw new GolemNestError(
        `the model factory bound to "${name}" returned ${value === null ? 'null' : typeof value}, not a model (an object with generate())`,
        { reason: 'invalid-model', model: name },
      );
    }
    return value;
  }

  private unbound(name: string, requester: ModelRequester, chain: readonly string[]): Error {
    const who =
      requester.agent === undefined
        ? ''
        : ` (needed by ${requester.agent}${requester.module === undefined ? '' : ` in ${requester.module}`}${chain.length > 0 ? ` through ${chain.map((n) => `"${n}"`).join(' -> ')}` : ''})`;
    const head = isModelString(name)
      ? `no model is bound to "${name}"${who}, and model strings resolve only when bound (resolveModelStrings: false)`
      : `no model is bound to "${name}"${who}`;
    const bind =
      name === 'default'
        ? "GolemModule.forRoot({ defaultModel: 'openai:gpt-4o-mini' }) (or detectDefaultModel(process.env))"
        : `GolemModule.forRoot({ models: { ${JSON.stringify(name)}: 'openai:gpt-4o-mini' } })`;
    return new GolemNestError(
      `${head}; bind it with ${bind}, or in a test override it: .overrideProvider(getModelToken(${quote(name)})).useValue(new TestModel())`,
      {
        reason: 'unbound-model',
        model: name,
        ...(requester.agent !== undefined && { agent: requester.agent }),
        ...(requester.module !== undefined && { module: requester.module }),
      },
    );
  }
}
