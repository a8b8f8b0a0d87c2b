/** Where a stored workflow run is. */
export type WorkflowStatus = 'running' | 'suspended' | 'completed' | 'failed' | 'cancelled';

/** The statuses, as stored. */
export const WORKFLOW_STATUSES: readonly WorkflowStatus[] = [
  'running',
  'suspended',
  'completed',
  'failed',
  'cancelled',
];

/**
 * A workflow run as a store keeps it (one row). Text fields hold JSON written by golem (`input`,
 * `output`, `steps`, `waiting`, `error`, `forkedFrom`); times are milliseconds since the epoch.
 * Adapters keep rows verbatim; golem decodes and validates them when it reads.
 */
export interface StoredWorkflowRun {
  id: string;
  /** The workflow's name (`defineWorkflow({ name })`, `@Workflow({ name })`). */
  workflow: string;
  /** Who the run belongs to (a tenant or user key given at start), or `null`. */
  owner: string | null;
  /** A {@link WorkflowStatus}. */
  status: string;
  /** The workflow's input, JSON. */
  input: string;
  /** The workflow's output, JSON (`null` until completed). */
  output: string | null;
  /** The step checkpoints, a JSON array in execution order (golem's `StepRecord`s). */
  steps: string;
  /** What a suspended run waits for, JSON (`null` unless suspended). */
  waiting: string | null;
  /**
   * When a suspended run's timer is due (ms since the epoch; `null`: no timer). Stored as its own
   * column so `listWorkflowRuns({ dueBefore })` can select due timers.
   */
  wakeAt: number | null;
  /** A failed run's error, JSON `{ name, message, step? }` (`null` otherwise). */
  error: string | null;
  /** The run this one was forked from and the step it re-runs from, JSON (`null`: an original). */
  forkedFrom: string | null;
  createdAt: number;
  updatedAt: number;
  /** Which process holds the run (executes it) and until when; `null` when nobody does. */
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  /** Incremented by every write; a write names the version it replaces (optimistic concurrency). */
  version: number;
}

/** Which stored workflow runs {@link WorkflowStore.listWorkflowRuns} returns. */
export interface WorkflowRunFilter {
  /** Only runs of the workflow with this name. */
  workflow?: string;
  /** Only runs in these statuses. */
  status?: readonly string[];
  /** Only runs of this owner. */
  owner?: string;
  /** Only suspended runs whose `wakeAt` is at or before this time (due timers). */
  dueBefore?: number;
  /** At most this many, newest `updatedAt` first (ties by `id`); default 100. */
  limit?: number;
}

/**
 * The workflow-run port: where workflows checkpoint their steps. The run stores golem ships
 * (`memoryStore`, `sqliteStore`, `postgresStore`) implement it beside the `RunStore` port, in the
 * same database, so a workflow's steps and the agent runs inside them live together. Implement it
 * for another database. Adapters report failures as `StoreError`.
 */
export interface WorkflowStore {
  /** How long a lease lasts without renewal, in ms. */
  readonly leaseMs: number;
  /** The store's clock (ms since the epoch); injectable so tests can expire leases and timers. */
  now(): number;
  /** Applies pending schema migrations (the workflow table included); safe to call concurrently. */
  migrate(): Promise<unknown>;
  getWorkflowRun(id: string): Promise<StoredWorkflowRun | undefined>;
  /** Inserts `run` unless a run with its id exists; resolves whether it did. */
  insertWorkflowRun(run: StoredWorkflowRun): Promise<boolean>;
  /**
   * Replaces the run `run.id` only if its stored `version` is `expectedVersion`; resolves `false`
   * when it was not (or no such run exists).
   */
  replaceWorkflowRun(run: StoredWorkflowRun, expectedVersion: number): Promise<boolean>;
  /** The runs matching `filter`, whole rows, newest `updatedAt` first (ties by `id` ascending). */
  listWorkflowRuns(filter?: WorkflowRunFilter): Promise<StoredWorkflowRun[]>;
}

/** Whether `store` implements the {@link WorkflowStore} port. */
export function isWorkflowStore(store: unknown): store is WorkflowStore {
  if (typeof store !== 'object' || store === null) return false;
  const s = store as Partial<Record<keyof WorkflowStore, unknown>>;
  return (
    typeof s.getWorkflowRun === 'function' &&
    typeof s.insertWorkflowRun === 'function' &&
    typeof s.replaceWorkflowRun === 'function' &&
    typeof s.listWorkflowRuns === 'function'
  );
}
