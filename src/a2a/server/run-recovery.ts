import { StoreError } from '../../core/index';
import type { RunRecord, RunStore } from '../../core/index';
import type { ServableAgent } from './servable-agent';
import { continueRun, type RunContext } from './task-runner';
import type { TaskRecord, TaskRegistry } from './task-registry';

/** What recovering a task needs. Internal. */
export interface RecoveryContext extends RunContext {
  readonly tasks: TaskRegistry;
  readonly agent: ServableAgent;
  /** Whether abandoned runs are continued (the server's `recover` option). */
  readonly recover: boolean;
}

/**
 * Whether the stored run is `running` while no live process holds it: its lease (renewed by the
 * running process at every checkpoint and a third of the lease period) is gone or expired by the
 * store's clock. A run whose lease is still valid is left alone: its process may be alive.
 */
export function isAbandoned(run: RunRecord, store: RunStore): boolean {
  return (
    run.status === 'running' && (run.lease === undefined || run.lease.expiresAt <= store.now())
  );
}

/**
 * Continues a task's abandoned stored run from its last checkpoint (`agent.resumeRun`): the task
 * goes WORKING again and settles like any other. When another process claims the run first (the
 * store refuses with `conflict`), the task is forgotten here, so the next read goes back to the
 * store and shows what that process records. Without `recover` or `resumeRun` nothing happens
 * (the task reads WORKING). Returns whether a continuation started.
 */
export function recoverTask(
  context: RecoveryContext,
  record: TaskRecord,
  run: RunRecord | undefined,
  store: RunStore,
): boolean {
  if (!context.recover || run === undefined || typeof context.agent.resumeRun !== 'function') {
    return false;
  }
  if (record.controller !== undefined || !isAbandoned(run, store)) return false;
  continueRun(record, context.agent, context, (error) => {
    if (!StoreError.isReason(error, 'conflict')) return false;
    if (context.tasks.get(record.id) === record) context.tasks.forget(record.id);
    return true;
  });
  return true;
}
