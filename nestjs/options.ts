import type { FactoryProvider, ModuleMetadata } from '@nestjs/common';
import { isRecord } from '../src/core/kit/guards';
import type { PriceTable, RunInstrumentation, RunStore, ConfigError } from '../src/core/index';
import { checkedSources, modelStringSettings } from '../src/providers/resolve/wiring';
import { nestError, nestFail } from './errors';
import type { CheckedSource, ModelFactory, ModelSource, ModelStringSettings } from './model-source';
import type { RunOwnerOf } from './run-owner';
import { checkStore } from './run-store';
import { checkMemory } from './memory';
import type { Memory } from '../src/memory/index';
import type { MiddlewareEntry } from '../decorators/index';
import { checkMiddlewareOption } from './middleware';
import type { NestRunnerOptions } from './workflow-runner';

/** Something the module closes on application shutdown: an MCP client, a pool, a store. */
export interface Closable {
  /** Releases the resource; may return a Promise, which shutdown awaits. */
  close(): unknown;
}

/** Options of `GolemModule.forRoot` (and what `forRootAsync`'s factory returns). */
export interface GolemModuleOptions extends ModelStringSettings {
  /**
   * Models by name: `{ default: 'openai:gpt-4o-mini', fast: (ctx) => anthropic({…}), local: new
   * TestModel() }` (see `ModelSource`). Agents pick one with `@Agent({ model })`.
   */
  models?: Readonly<Record<string, ModelSource>>;
  /**
   * The `default` model (shorthand for `models.default`), e.g. `detectDefaultModel(process.env)`:
   * the configured provider, or `'test'` offline.
   */
  defaultModel?: ModelSource;
  /** Closed, in reverse order, when the application shuts down (`app.close()`, a signal). */
  closables?: readonly Closable[];
  /** Traces every agent's runs, e.g. `otelInstrumentation()` from `golem/otel` (one option for the app). */
  instrumentation?: RunInstrumentation;
  /** Prices every agent's responses: `priceTable({...})` from `golem` or `genaiPrices()`. */
  prices?: PriceTable;
  /**
   * The run store every agent `forFeature` builds checkpoints its runs in (durable runs), e.g.
   * `sqliteStore({ path: 'runs.db' })`; injected with `@InjectRunStore()`. A store given to
   * `forRoot` is yours to close (list it in `closables` to have it closed on shutdown); one
   * returned by `forRootAsync`'s factory is the module's, closed on application shutdown.
   */
  store?: RunStore;
  /**
   * Who a request acts for, read from the platform's request — `(request) => request.user?.id` —
   * for `@RunOwner()`, whose value the app passes as `{ owner }` to its runs, resumes and reads.
   */
  runOwner?: RunOwnerOf;
  /**
   * The memory every agent `forFeature` builds runs with (`new Memory({ … })` from `golem/memory`:
   * working memory, semantic recall); injected with `@InjectMemory()`. An agent class with
   * `@WorkingMemory(Dto)` gets it with the DTO as its working memory. Runs need an `owner`: pass
   * the `@RunOwner()` of the request as `{ owner }`.
   */
  memory?: Memory<object>;
  /**
   * App-wide middleware, outermost first (like global interceptors): runs on every agent
   * `forFeature` builds, outside the class's own `@UseMiddleware` — e.g. `[logRequests({ logger:
   * new Logger('Golem') }), redactPii()]` from `golem/middleware`. Classes are created by Nest in
   * the root module's context; `@GolemMiddleware()` providers anywhere in the app follow.
   */
  middleware?: readonly MiddlewareEntry[];
  /**
   * Options of the app's `GolemWorkflowRunner` (`owner`, `leaseMs`, `onEvent`, …); it runs the
   * `@Workflow` classes of every `forFeature` over `store`.
   */
  workflowRunner?: NestRunnerOptions;
}

/** Options of `GolemModule.forRootAsync`: a Nest factory provider producing the options. */
export interface GolemModuleAsyncOptions {
  /** Modules whose exports the factory injects (e.g. `ConfigModule`). */
  imports?: ModuleMetadata['imports'];
  /** What the factory is called with, in order (e.g. `[ConfigService]`). */
  inject?: FactoryProvider['inject'];
  /** Builds the options; may be async. */
  useFactory: (...args: never[]) => GolemModuleOptions | Promise<GolemModuleOptions>;
}

/** Checked options: sources by name, model-string settings and closables. */
export interface CheckedOptions {
  readonly sources: ReadonlyMap<string, CheckedSource>;
  readonly settings: ModelStringSettings;
  readonly closables: readonly Closable[];
  readonly instrumentation: RunInstrumentation | undefined;
  readonly prices: PriceTable | undefined;
  readonly store: RunStore | undefined;
  readonly runOwner: RunOwnerOf | undefined;
  readonly memory: Memory<object> | undefined;
  /** The app-wide middleware entries (objects, or classes Nest creates). */
  readonly middleware: readonly MiddlewareEntry[];
  /** The options of the app's workflow runner. */
  readonly workflowRunner: NestRunnerOptions | undefined;
  /** Whether the module closes `store` on shutdown (it came from `forRootAsync`'s factory). */
  readonly closesStore: boolean;
}

function invalid(where: string, message: string): ConfigError {
  return nestError(`${where}: ${message}`, { reason: 'invalid-options' });
}

/** Validates `forRoot` options (or what a `forRootAsync` factory returned). */
export function checkOptions(options: unknown, where: string): CheckedOptions {
  if (!isRecord(options)) throw invalid(where, 'options must be an object');
  const { models, env, testModel, resolveModelStrings, closables, defaultModel } =
    options as GolemModuleOptions;
  if (models !== undefined && !isRecord(models))
    throw invalid(where, "models must be an object of sources by name, e.g. { default: 'test' }");
  if (env !== undefined && !isRecord(env))
    throw invalid(where, 'env must be an object of variables (e.g. process.env)');
  if (testModel !== undefined && typeof testModel !== 'function')
    throw invalid(where, 'testModel must be a function (name) => model');
  if (resolveModelStrings !== undefined && typeof resolveModelStrings !== 'boolean')
    throw invalid(where, 'resolveModelStrings must be true or false');
  if (closables !== undefined) {
    if (!Array.isArray(closables)) throw invalid(where, 'closables must be an array');
    closables.forEach((item: unknown, index) => {
      if (!isRecord(item) || typeof item.close !== 'function')
        throw invalid(where, `closables[${index}] has no close() method`);
    });
  }
  const { instrumentation, prices } = options as GolemModuleOptions;
  if (
    instrumentation !== undefined &&
    !(isRecord(instrumentation) && typeof instrumentation.startRun === 'function')
  )
    throw invalid(where, 'instrumentation must have startRun(info), e.g. otelInstrumentation()');
  if (prices !== undefined && !(isRecord(prices) && typeof prices.cost === 'function'))
    throw invalid(where, 'prices must be a price table, e.g. priceTable({ ... }) from golem');
  const store = checkStore((options as GolemModuleOptions).store, where);
  const { runOwner } = options as GolemModuleOptions;
  const memory = checkMemory((options as GolemModuleOptions).memory, where);
  const middleware = checkMiddlewareOption((options as GolemModuleOptions).middleware, where);
  if (runOwner !== undefined && typeof runOwner !== 'function')
    throw invalid(where, 'runOwner must be a function (request) => owner, e.g. (r) => r.user?.id');
  const { workflowRunner } = options as GolemModuleOptions;
  if (workflowRunner !== undefined && !isRecord(workflowRunner))
    throw invalid(where, 'workflowRunner must be an object of runner options, e.g. { onEvent }');
  const sources: Map<string, CheckedSource> = checkedSources<ModelFactory>(
    models,
    defaultModel,
    where,
    nestFail,
  );
  const o = options as GolemModuleOptions;
  return {
    sources,
    settings: modelStringSettings(o),
    closables: [...(o.closables ?? [])],
    instrumentation,
    prices,
    store,
    runOwner,
    memory,
    middleware,
    workflowRunner,
    closesStore: false,
  };
}

/** Validates `forRootAsync` options (the factory's result is checked when it resolves). */
export function checkAsyncOptions(options: unknown): GolemModuleAsyncOptions {
  const where = 'GolemModule.forRootAsync';
  if (!isRecord(options)) throw invalid(where, 'options must be an object');
  if (typeof options.useFactory !== 'function')
    throw invalid(where, 'useFactory must be a function returning the forRoot options');
  if (options.inject !== undefined && !Array.isArray(options.inject))
    throw invalid(where, 'inject must be an array of tokens');
  if (options.imports !== undefined && !Array.isArray(options.imports))
    throw invalid(where, 'imports must be an array of modules');
  return options as unknown as GolemModuleAsyncOptions;
}
