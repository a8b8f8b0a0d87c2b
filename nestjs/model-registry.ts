import type { Model } from '../src/core/index';
import { checkFactoryModel, factoryFailure, ModelStrings } from '../src/providers/resolve/wiring';
import { TestModel } from '../src/testing/index';
import { nestError, nestFail, isNestError } from './errors';
import {
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
  private readonly strings: ModelStrings;
  private readonly lookup: ModelRegistryInit['lookup'];
  private readonly built = new Map<string, Promise<Model>>();

  /** @internal Built by `GolemModule.forRoot`; inject it rather than constructing one. */
  constructor(init: ModelRegistryInit) {
    this.sources = init.sources;
    this.strings = new ModelStrings(init, {
      testModel: (name) => new TestModel({ name }),
      fail: nestFail,
    });
    this.lookup = init.lookup;
  }

  /** The names bound in `forRoot` (`default` included when a default model is given). */
  names(): string[] {
    return [...this.sources.keys()];
  }

  /**
   * The model bound to `name`, built on first use. Rejects with a `golem/nestjs` `ConfigError`:
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
      if (isModelString(name) && this.strings.resolveUnbound)
        return Promise.resolve(this.strings.resolve(name, name));
      throw this.unbound(name, requester, chain);
    }
    switch (source.kind) {
      case 'instance':
        return Promise.resolve(source.model);
      case 'spec':
        return Promise.resolve(this.strings.resolve(source.spec, name));
      case 'alias':
        if (chain.includes(source.target) || source.target === name) {
          throw nestError(
            `GolemModule: the model aliases ${[...chain, name, source.target].map((n) => `"${n}"`).join(' -> ')} form a cycle; bind one of them to a model or a model string`,
            { reason: 'invalid-options', model: name },
          );
        }
        return this.modelFor(source.target, requester, [...chain, name]);
      case 'factory':
        return this.runFactory(name, source.factory);
    }
  }

  private async runFactory(name: string, factory: ModelFactory): Promise<Model> {
    const context: ModelFactoryContext = {
      name,
      env: this.strings.env,
      resolve: (spec) => this.strings.resolve(spec, name),
      get: (token) => this.lookup(token),
    };
    let value: unknown;
    try {
      value = await factory(context);
    } catch (error) {
      if (isNestError(error)) throw error;
      throw factoryFailure(name, error, nestFail);
    }
    return checkFactoryModel(name, value, nestFail);
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
    return nestError(
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
