import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import type { RunStore } from '../src/core/index';
import { ModuleRef, ModulesContainer } from '@nestjs/core';
import { diagnosticsModule } from './diagnostics';
import { featureModule, type AgentEntry, type GolemFeatureOptions } from './feature';
import { GolemLifecycle } from './lifecycle';
import { GolemModels } from './model-registry';
import { GolemObservability } from './observability';
import { GolemRunOwner } from './run-owner';
import { getRunStoreToken, noRunStore } from './run-store';
import { getMemoryToken } from './memory';
import { appMiddleware, GolemAppMiddleware } from './middleware';
import { GolemWorkflowRunner } from './workflow-runner';
import {
  checkAsyncOptions,
  checkOptions,
  type CheckedOptions,
  type GolemModuleAsyncOptions,
  type GolemModuleOptions,
} from './options';

/** The token of the checked root options. */
const GOLEM_OPTIONS = Symbol('GolemModuleOptions');

const shared: Provider[] = [
  {
    provide: GolemModels,
    inject: [GOLEM_OPTIONS, ModuleRef],
    useFactory: (options: CheckedOptions, ref: ModuleRef) =>
      new GolemModels({
        ...options.settings,
        sources: options.sources,
        lookup: (token) => ref.get(token, { strict: false }),
      }),
  },
  {
    provide: GolemLifecycle,
    inject: [GOLEM_OPTIONS],
    useFactory: ({ closables, store, closesStore }: CheckedOptions) =>
      // The module's own store is closed last (closables close in reverse order), and once.
      new GolemLifecycle(
        closesStore && store !== undefined && !closables.includes(store)
          ? [store, ...closables]
          : closables,
      ),
  },
  {
    provide: getRunStoreToken(),
    inject: [GOLEM_OPTIONS],
    useFactory: (options: CheckedOptions) => options.store ?? noRunStore(),
  },
  {
    provide: getMemoryToken(),
    inject: [GOLEM_OPTIONS],
    useFactory: (options: CheckedOptions) => options.memory ?? null,
  },
  {
    provide: GolemAppMiddleware,
    inject: [GOLEM_OPTIONS, ModuleRef, ModulesContainer],
    useFactory: (options: CheckedOptions, ref: ModuleRef, container: ModulesContainer) =>
      appMiddleware(options.middleware, ref, container),
  },
  {
    provide: GolemRunOwner,
    inject: [GOLEM_OPTIONS],
    useFactory: (options: CheckedOptions) => new GolemRunOwner(options.runOwner),
  },
  {
    provide: GolemObservability,
    inject: [GOLEM_OPTIONS],
    useFactory: (options: CheckedOptions) =>
      new GolemObservability(options.instrumentation, options.prices),
  },
  {
    provide: GolemWorkflowRunner,
    inject: [GOLEM_OPTIONS, getRunStoreToken()],
    useFactory: (options: CheckedOptions, store: RunStore) =>
      new GolemWorkflowRunner(store, options.workflowRunner),
  },
];

/**
 * Golem in a NestJS application, shaped like `@nestjs/typeorm`:
 *
 * ```ts
 * @Module({ imports: [GolemModule.forFeature([WeatherAgent])], providers: [WeatherRepository],
 * controllers: [WeatherController] }) class WeatherModule {}
 *
 * @Module({ imports: [GolemModule.forRoot({ defaultModel: detectDefaultModel(process.env) }),
 * WeatherModule] }) class AppModule {}
 * ```
 *
 * `forRoot` / `forRootAsync` (once, in the root module; global) hold the models by name;
 * `forFeature` (in each feature module) registers agent classes, created by Nest in that module's
 * context, and exports their engine agents, injected with `@InjectAgent(WeatherAgent)`; it also
 * registers `@Workflow` classes (`@InjectWorkflow(OrderWorkflow)`), run by the injectable
 * `GolemWorkflowRunner`.
 */
@Module({})
export class GolemModule {
  /**
   * The global Golem module: models by name (instances, lazy factories, model strings resolved
   * by `resolveModel`, aliases; `'test'` is the offline `TestModel`), the `GolemModels` registry,
   * the `GolemLifecycle` that closes `closables` on application shutdown, and the run `store`
   * every agent checkpoints in (`getRunStoreToken()`; yours to close). Options are checked here,
   * eagerly (`invalid-options` `golem/nestjs` `ConfigError`).
   */
  static forRoot(options: GolemModuleOptions = {}): DynamicModule {
    const checked = checkOptions(options, 'GolemModule.forRoot');
    return {
      module: GolemModule,
      global: true,
      imports: [diagnosticsModule()],
      providers: [{ provide: GOLEM_OPTIONS, useValue: checked }, ...shared],
      exports: [
        GolemModels,
        GolemLifecycle,
        GolemObservability,
        GolemRunOwner,
        getRunStoreToken(),
        getMemoryToken(),
        GolemAppMiddleware,
        GolemWorkflowRunner,
      ],
    };
  }

  /**
   * `forRoot` with options from a Nest factory provider — typically configuration:
   * `GolemModule.forRootAsync({ imports: [ConfigModule], inject: [ConfigService], useFactory:
   * (config: ConfigService) => ({ defaultModel: config.get('MODEL') }) })`. What the factory
   * returns is checked when it resolves, at startup; a `store` it returns is the module's: it is
   * closed on application shutdown (after the `closables`).
   */
  static forRootAsync(options: GolemModuleAsyncOptions): DynamicModule {
    const checked = checkAsyncOptions(options);
    const factory = checked.useFactory as (...args: unknown[]) => unknown;
    return {
      module: GolemModule,
      global: true,
      imports: [...(checked.imports ?? []), diagnosticsModule()],
      providers: [
        {
          provide: GOLEM_OPTIONS,
          inject: [...(checked.inject ?? [])],
          useFactory: async (...args: unknown[]): Promise<CheckedOptions> => ({
            ...checkOptions(await factory(...args), 'GolemModule.forRootAsync'),
            closesStore: true,
          }),
        },
        ...shared,
      ],
      exports: [
        GolemModels,
        GolemLifecycle,
        GolemObservability,
        GolemRunOwner,
        getRunStoreToken(),
        getMemoryToken(),
        GolemAppMiddleware,
        GolemWorkflowRunner,
      ],
    };
  }

  /**
   * Registers agent classes in the module that imports this call: Nest creates each instance in
   * that module's context (its constructor injects the module's own providers, global ones and
   * what it imports), builds the engine agent with the model its `@Agent({ model })` names
   * (`getModelToken(name)`), and exports it to the importing module, for `@InjectAgent`.
   * Entries are classes or `{ agent, model?, scope?, tools?, onEvent? }`.
   */
  static forFeature(agents: readonly AgentEntry[], options?: GolemFeatureOptions): DynamicModule {
    return featureModule(agents, options);
  }
}
