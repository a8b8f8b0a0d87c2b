import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type FactoryProvider,
  type ModuleMetadata,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { RunQueue, RunQueueOptions } from '../src/queue/index';
import { isRecord } from '../src/core/kit/guards';
import type { RunStore } from '../src/core/index';
import { nestError } from './errors';
import { loadQueue } from './queue-load';
import { configuredStore, getRunStoreToken } from './run-store';
import {
  GOLEM_QUEUE_OPTIONS,
  GolemQueueWorker,
  GOLEM_WORKER_OPTIONS,
  type GolemQueueWorkerOptions,
} from './queue-worker';

/**
 * Options of `GolemQueueModule.forRoot`: those of `runQueue` from `golem/queue` — the Redis
 * `connection` (as `BullModule.forRoot` takes it), the run `store`, the queue `name` and key
 * `prefix`. Workers registered with `registerWorker` share the connection, store, name and prefix.
 */
export interface GolemQueueModuleOptions extends Omit<RunQueueOptions, 'store'> {
  /**
   * The run store the queue reads and its workers checkpoint in; default the one given to
   * `GolemModule.forRoot({ store })`, so agents and queue share it. Required without that one.
   */
  store?: RunStore;
}

/** Options of `GolemQueueModule.forRootAsync`: a Nest factory provider producing the options. */
export interface GolemQueueModuleAsyncOptions {
  /** Modules whose exports the factory injects (e.g. `ConfigModule`). */
  imports?: ModuleMetadata['imports'];
  /** What the factory is called with, in order (e.g. `[ConfigService]`). */
  inject?: FactoryProvider['inject'];
  /** Builds the options; may be async. */
  useFactory: (...args: never[]) => GolemQueueModuleOptions | Promise<GolemQueueModuleOptions>;
}

const RUN_QUEUE = 'GolemRunQueue';

/**
 * The injection token of the `RunQueue` that `GolemQueueModule.forRoot` provides (as
 * `getQueueToken` is for `@nestjs/bullmq`): `moduleRef.get(getRunQueueToken())`, or what a test
 * overrides.
 */
export function getRunQueueToken(): string {
  return RUN_QUEUE;
}

/**
 * Injects the `RunQueue` of `GolemQueueModule.forRoot` (as `@InjectQueue` does a BullMQ queue):
 * `constructor(@InjectRunQueue() private readonly runs: RunQueue)`.
 */
export function InjectRunQueue(): PropertyDecorator & ParameterDecorator {
  return Inject(RUN_QUEUE);
}

function checkOptions(options: unknown, where: string): GolemQueueModuleOptions {
  if (
    !isRecord(options) ||
    options.connection === undefined ||
    (options.store !== undefined && !isRecord(options.store))
  )
    throw nestError(
      `${where}: options must be an object with the Redis connection and, unless GolemModule.forRoot has one, the run store: { connection: 'redis://…' or { host, port }, store }`,
      { reason: 'invalid-options' },
    );
  return options as unknown as GolemQueueModuleOptions;
}

/** The options with their store: their own, else the root `GolemModule`'s. */
function withStore(
  options: GolemQueueModuleOptions,
  rootStore: RunStore | undefined,
  where: string,
): RunQueueOptions {
  const store = options.store ?? configuredStore(rootStore);
  if (store === undefined)
    throw nestError(
      `${where}: no run store: give one here ({ connection, store }) or to GolemModule.forRoot({ store }), which the queue then shares`,
      { reason: 'invalid-options' },
    );
  return { ...options, store };
}

/** The root `GolemModule`'s store, when one is imported (it is global). */
const ROOT_STORE = { token: getRunStoreToken(), optional: true } as const;

/** Closes the queue when the application shuts down (after the workers have stopped). */
@Injectable()
class GolemQueueHost implements OnApplicationShutdown {
  constructor(@Inject(RUN_QUEUE) private readonly queue: RunQueue) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}

/** The token of the options as given (before the store default). */
const GIVEN_OPTIONS = Symbol('GolemQueueModuleGivenOptions');

function rootModule(
  imports: NonNullable<ModuleMetadata['imports']>,
  options: FactoryProvider | { provide: symbol; useValue: GolemQueueModuleOptions },
  where: string,
): DynamicModule {
  return {
    module: GolemQueueModule,
    global: true,
    imports,
    providers: [
      options,
      {
        provide: GOLEM_QUEUE_OPTIONS,
        inject: [GIVEN_OPTIONS, ROOT_STORE],
        useFactory: (given: GolemQueueModuleOptions, store: RunStore | undefined) =>
          withStore(given, store, where),
      },
      {
        provide: RUN_QUEUE,
        inject: [GOLEM_QUEUE_OPTIONS],
        useFactory: (o: RunQueueOptions) => loadQueue().runQueue(o),
      },
      GolemQueueHost,
    ],
    exports: [GOLEM_QUEUE_OPTIONS, RUN_QUEUE],
  };
}

/**
 * Distributed runs (`golem/queue`, BullMQ on Redis) in a NestJS application, shaped like
 * `@nestjs/bullmq`:
 *
 * ```ts no-check
 * @Module({
 *   imports: [
 *     GolemModule.forRoot({ defaultModel: 'test' }),
 *     GolemModule.forFeature([SupportAgent]),
 *     GolemQueueModule.forRoot({ connection: 'redis://127.0.0.1:6379', store }),
 *     GolemQueueModule.registerWorker({ agents: [SupportAgent], concurrency: 4 }),
 *   ],
 *   controllers: [RunsController], // constructor(@InjectRunQueue() runs: RunQueue)
 * })
 * class AppModule {}
 * ```
 *
 * `forRoot` / `forRootAsync` (once, global; like `BullModule.forRoot`) hold the connection and the
 * run store and provide the `RunQueue` that enqueues, streams, decides and cancels
 * (`@InjectRunQueue()`); `registerWorker` (like a `@Processor` class) starts a worker that runs
 * the agent classes registered with `GolemModule.forFeature`, resolved by Nest for every job —
 * their injected services come from the application, the job brings only JSON deps. An HTTP
 * process imports `forRoot` alone; a worker process adds `registerWorker`. Needs the optional
 * peers `bullmq` and `ioredis` (loaded here, not by `golem/nestjs` itself).
 */
@Module({})
export class GolemQueueModule {
  /**
   * The global queue module with these options (see `runQueue` in `golem/queue`); without a
   * `store` it uses the one of `GolemModule.forRoot({ store })`.
   */
  static forRoot(options: GolemQueueModuleOptions): DynamicModule {
    loadQueue();
    const where = 'GolemQueueModule.forRoot';
    const checked = checkOptions(options, where);
    return rootModule([], { provide: GIVEN_OPTIONS, useValue: checked }, where);
  }

  /**
   * `forRoot` with options from a Nest factory provider: `GolemQueueModule.forRootAsync({
   * imports: [ConfigModule], inject: [ConfigService], useFactory: (config: ConfigService) => ({
   * connection: config.get('REDIS_URL'), store }) })`.
   */
  static forRootAsync(options: GolemQueueModuleAsyncOptions): DynamicModule {
    loadQueue();
    if (!isRecord(options) || typeof options.useFactory !== 'function')
      throw nestError('GolemQueueModule.forRootAsync: useFactory must be a function', {
        reason: 'invalid-options',
      });
    const factory = options.useFactory as (...args: unknown[]) => unknown;
    const where = 'GolemQueueModule.forRootAsync';
    return rootModule(
      options.imports ?? [],
      {
        provide: GIVEN_OPTIONS,
        inject: [...(options.inject ?? [])],
        useFactory: async (...args: unknown[]) => checkOptions(await factory(...args), where),
      },
      where,
    );
  }

  /**
   * A worker in this application: once the application has bootstrapped it takes jobs and runs
   * them with `agents` — agent classes registered with `GolemModule.forFeature` (each under its
   * class name, the name `enqueue(SupportAgent, …)` sends) or engine `Agent`s by name — with its
   * `concurrency`, `lanes` (rate limits) and `timeout`. On shutdown it stops taking jobs and
   * finishes its runs (`handoverOnShutdown`: hands them to other workers at once instead).
   * Inject `GolemQueueWorker` to read its state.
   */
  static registerWorker(options: GolemQueueWorkerOptions): DynamicModule {
    loadQueue();
    if (!isRecord(options) || !('agents' in options))
      throw nestError(
        'GolemQueueModule.registerWorker: options must name the agents the worker runs: { agents: [SupportAgent] }',
        { reason: 'invalid-options' },
      );
    return {
      module: GolemQueueWorkerModule,
      providers: [{ provide: GOLEM_WORKER_OPTIONS, useValue: options }, GolemQueueWorker],
      exports: [GolemQueueWorker],
    };
  }
}

/** The module `registerWorker` returns. */
@Module({})
class GolemQueueWorkerModule {}
