import type { ResolutionContext } from 'inversify';
import type { WorkflowClass } from '../decorators/index';
import type { ConfigError, RunStore } from '../src/core/index';
import {
  isWorkflowStore,
  WorkflowRunner,
  type WorkflowDefinition,
  type WorkflowRunnerOptions,
} from '../src/workflows/index';
import { WORKFLOW_REGISTRATIONS } from './bind-workflow';
import { containerError } from './errors';
import type { Binder } from './model-bindings';
import { RUN_STORE } from './tokens';
import { WORKFLOW_RUNNER, workflowOf } from './workflow-tokens';

/** Options of the container's `WORKFLOW_RUNNER` (its store and workflows come from the container). */
export type ContainerRunnerOptions = Omit<WorkflowRunnerOptions, 'store' | 'workflows'>;

function missingStore(): ConfigError {
  return containerError(
    'WORKFLOW_RUNNER needs a workflow store: give golemModule({ store: sqliteStore({ path }) }) (memoryStore, sqliteStore and postgresStore store workflow runs), or bind one to RUN_STORE',
    { reason: 'missing-store' },
  );
}

/**
 * Binds `WORKFLOW_RUNNER`: a singleton `WorkflowRunner`, built when first resolved, over the store
 * bound to `RUN_STORE` and every workflow class bound in the container that loads
 * `golemModule` (each resolved with constructor injection). Without a workflow store, resolving it is a
 * `missing-store` container `ConfigError`.
 */
export function bindWorkflowRunner(binder: Binder, options: ContainerRunnerOptions = {}): void {
  binder
    .bind<WorkflowRunner>(WORKFLOW_RUNNER)
    .toDynamicValue((ctx: ResolutionContext) => {
      const store = ctx.get<RunStore>(RUN_STORE, { optional: true });
      if (!isWorkflowStore(store)) throw missingStore();
      const classes = ctx.getAll<WorkflowClass>(WORKFLOW_REGISTRATIONS, { optional: true });
      const workflows: WorkflowDefinition[] = [...new Set(classes)].map(
        (target) => ctx.get(workflowOf(target)) as WorkflowDefinition,
      );
      return new WorkflowRunner({ ...options, store, workflows });
    })
    .inSingletonScope();
}
