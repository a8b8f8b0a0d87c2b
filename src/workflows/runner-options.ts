import type { Sleep } from '../core/index';
import { ConfigError } from '../core/index';
import { timerSleep } from '../core/engine/retry';
import { isArrayValue } from '../core/kit/guards';
import type { WorkflowDefinition } from './definition';
import type { WorkflowObserver } from './events';
import type { WorkflowStore } from './store-port';
import { isWorkflowStore } from './store-port';

/** What a {@link WorkflowRunner} is built from. */
export interface WorkflowRunnerOptions {
  /** Where runs are checkpointed (`memoryStore`, `sqliteStore`, `postgresStore`, …). */
  store: WorkflowStore;
  /** The workflows this runner executes (by name: stored runs name their workflow). */
  workflows: readonly WorkflowDefinition[];
  /** This runner's name in leases (a process id; default a random UUID). */
  owner?: string;
  /** How long a lease lasts without renewal, in ms (default the store's `leaseMs`). */
  leaseMs?: number;
  /** Receives every {@link WorkflowEvent}. */
  onEvent?: WorkflowObserver;
  /** New run ids (default a random UUID). */
  idGenerator?: () => string;
  /** The wait between step retries (default a timer); inject one in tests. */
  sleep?: Sleep;
}

/** Validated {@link WorkflowRunnerOptions}. Internal. */
export interface RunnerSettings {
  readonly store: WorkflowStore;
  readonly workflows: ReadonlyMap<string, WorkflowDefinition>;
  readonly owner: string;
  readonly leaseMs: number;
  readonly onEvent: WorkflowObserver | undefined;
  readonly newId: () => string;
  readonly sleep: Sleep;
}

/** Checks the options (a `ConfigError` of component `workflows` names the mistake). */
export function runnerSettings(options: WorkflowRunnerOptions): RunnerSettings {
  const fail = (option: string, message: string): never => {
    throw new ConfigError(`WorkflowRunner: ${message}`, { component: 'workflows', option });
  };
  const { store, workflows, owner = crypto.randomUUID(), leaseMs, onEvent } = options;
  if (!isWorkflowStore(store))
    fail(
      'store',
      'store must implement the WorkflowStore port (memoryStore, sqliteStore, postgresStore)',
    );
  if (!isArrayValue(workflows))
    fail('workflows', 'workflows must be an array of defineWorkflow(...) definitions');
  const byName = new Map<string, WorkflowDefinition>();
  for (const def of workflows) {
    if (typeof def.name !== 'string' || typeof def.run !== 'function')
      fail('workflows', 'every workflow must come from defineWorkflow(...)');
    if (byName.has(def.name))
      fail('workflows', `two workflows are named ${JSON.stringify(def.name)}`);
    byName.set(def.name, def);
  }
  if (typeof owner !== 'string' || owner === '') fail('owner', 'owner must be a non-empty string');
  const lease = leaseMs ?? store.leaseMs;
  if (!Number.isInteger(lease) || lease < 1)
    fail('leaseMs', 'leaseMs must be a positive integer of ms');
  if (onEvent !== undefined && typeof onEvent !== 'function')
    fail('onEvent', 'onEvent must be a function');
  return {
    store,
    workflows: byName,
    owner,
    leaseMs: lease,
    onEvent,
    newId: options.idGenerator ?? (() => crypto.randomUUID()),
    sleep: options.sleep ?? timerSleep,
  };
}
