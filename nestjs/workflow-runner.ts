import type { ConfigError, RunStore } from '../src/core/index';
import {
  isWorkflowStore,
  WorkflowRunner,
  type WorkflowDefinition,
  type WorkflowRunnerOptions,
} from '../src/workflows/index';
import { nestError } from './errors';
import { configuredStore } from './run-store';

/** Options of the app's {@link GolemWorkflowRunner} (its store and workflows come from the app). */
export type NestRunnerOptions = Omit<WorkflowRunnerOptions, 'store' | 'workflows'>;

function missingStore(): ConfigError {
  return nestError(
    'GolemWorkflowRunner needs a workflow store: give GolemModule.forRoot({ store: sqliteStore({ path }) }) (memoryStore, sqliteStore and postgresStore store workflow runs), or return it from the factory of forRootAsync',
    { reason: 'missing-store' },
  );
}

/**
 * The application's workflow runner, provided by `GolemModule.forRoot` (inject it by its class):
 * a `WorkflowRunner` over the root module's run store that runs every `@Workflow` class registered
 * with `GolemModule.forFeature` in any module. Its methods are the runner's (`start`, `resume`,
 * `signal`, `wakeDue`, `recover`, `get`, `fork`, …); the runner itself is built on first use,
 * once the workflows are registered, and rebuilt if one registers later. Without a workflow store
 * every use throws a `missing-store` `golem/nestjs` `ConfigError`.
 *
 * ```ts
 * constructor(private readonly workflows: GolemWorkflowRunner, @InjectWorkflow(OrderWorkflow)
 * private readonly order: WorkflowOf<typeof OrderWorkflow>) {}
 * start(input: OrderInput) { return this.workflows.start(this.order, input); }
 * ```
 */
export class GolemWorkflowRunner {
  private readonly definitions = new Map<string, WorkflowDefinition>();
  private built: WorkflowRunner | undefined;

  constructor(
    private readonly store: RunStore | undefined,
    private readonly options: NestRunnerOptions = {},
  ) {}

  /**
   * Adds a workflow (called by `GolemModule.forFeature` for each class it registers). Two
   * workflows with one name are an `invalid-options` `ConfigError`.
   */
  register(definition: WorkflowDefinition): void {
    const known = this.definitions.get(definition.name);
    if (known === definition) return;
    if (known !== undefined)
      throw nestError(
        `two workflows are named "${definition.name}"; give each @Workflow class a unique name: @Workflow({ name })`,
        { reason: 'invalid-options' },
      );
    this.definitions.set(definition.name, definition);
    this.built = undefined;
  }

  /** The underlying `WorkflowRunner` (built on first use from the registered workflows). */
  get runner(): WorkflowRunner {
    if (this.built !== undefined) return this.built;
    const store = configuredStore(this.store);
    if (!isWorkflowStore(store)) throw missingStore();
    this.built = new WorkflowRunner({
      ...this.options,
      store,
      workflows: [...this.definitions.values()],
    });
    return this.built;
  }

  /** See `WorkflowRunner.start`. */
  get start(): WorkflowRunner['start'] {
    return bound(this.runner, 'start');
  }
  /** See `WorkflowRunner.startAsync`. */
  get startAsync(): WorkflowRunner['startAsync'] {
    return bound(this.runner, 'startAsync');
  }
  /** See `WorkflowRunner.execute`. */
  get execute(): WorkflowRunner['execute'] {
    return bound(this.runner, 'execute');
  }
  /** See `WorkflowRunner.continue`. */
  get continue(): WorkflowRunner['continue'] {
    return bound(this.runner, 'continue');
  }
  /** See `WorkflowRunner.resume`. */
  get resume(): WorkflowRunner['resume'] {
    return bound(this.runner, 'resume');
  }
  /** See `WorkflowRunner.signal`. */
  get signal(): WorkflowRunner['signal'] {
    return bound(this.runner, 'signal');
  }
  /** See `WorkflowRunner.wakeDue`. */
  get wakeDue(): WorkflowRunner['wakeDue'] {
    return bound(this.runner, 'wakeDue');
  }
  /** See `WorkflowRunner.recover`. */
  get recover(): WorkflowRunner['recover'] {
    return bound(this.runner, 'recover');
  }
  /** See `WorkflowRunner.get`. */
  get get(): WorkflowRunner['get'] {
    return bound(this.runner, 'get');
  }
  /** See `WorkflowRunner.list`. */
  get list(): WorkflowRunner['list'] {
    return bound(this.runner, 'list');
  }
  /** See `WorkflowRunner.cancel`. */
  get cancel(): WorkflowRunner['cancel'] {
    return bound(this.runner, 'cancel');
  }
  /** See `WorkflowRunner.fork`. */
  get fork(): WorkflowRunner['fork'] {
    return bound(this.runner, 'fork');
  }
}

/** `runner[key]` bound to the runner, typed as the runner's method (overloads included). */
function bound<K extends keyof WorkflowRunner>(runner: WorkflowRunner, key: K): WorkflowRunner[K] {
  const method = runner[key] as (...args: unknown[]) => unknown;
  return method.bind(runner) as WorkflowRunner[K];
}
