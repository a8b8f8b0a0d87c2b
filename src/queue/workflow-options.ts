import { isRecord } from '../core/kit/guards';
import { isWorkflowStore } from '../workflows/index';
import { QueueError } from './queue-error';
import { checkConnection, checkName } from './redis';

/** The queue name workflow jobs use by default (apart from agent runs' `golem`). */
export const DEFAULT_WORKFLOW_QUEUE = 'golem-workflows';

function invalid(message: string): QueueError {
  return new QueueError(message, { reason: 'invalid-options' });
}

function integer(value: unknown, name: string, min: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < min))
    throw invalid(`${name} must be an integer ≥ ${String(min)}, got ${JSON.stringify(value)}`);
}

function fn(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== 'function')
    throw invalid(`${name} must be a function, got ${typeof value}`);
}

/** The options both sides share, in the shape they have (checked before anything opens). */
interface SharedShape {
  connection: unknown;
  store: unknown;
  workflows?: unknown;
  name?: unknown;
  prefix?: unknown;
  jobs?: unknown;
  onError?: unknown;
}

/**
 * Checks what `workflowQueue` and `workflowWorker` share (`invalid-options`): the connection, a
 * workflow store, the names; returns the prefix and the queue name. Internal.
 */
export function checkWorkflowQueueOptions(
  options: SharedShape,
  who: 'workflowQueue' | 'workflowWorker',
): { prefix: string; name: string } {
  if (!isRecord(options))
    throw invalid(`${who} needs options: { connection: "redis://…", store, workflows }`);
  checkConnection(options.connection);
  if (!isWorkflowStore(options.store))
    throw invalid(
      'store must be a workflow store (sqliteStore, postgresStore, memoryStore): the one every producer and worker shares',
    );
  if (options.workflows !== undefined && !Array.isArray(options.workflows))
    throw invalid('workflows must be an array of defineWorkflow(...) definitions');
  if (options.jobs !== undefined && !isRecord(options.jobs))
    throw invalid('jobs must be { completed?, failed? } (BullMQ retention)');
  fn(options.onError, 'onError');
  return {
    prefix: checkName(options.prefix ?? 'golem', 'prefix'),
    name: checkName(options.name ?? DEFAULT_WORKFLOW_QUEUE, 'name'),
  };
}

/** What only `workflowWorker` takes, in its shape. */
interface WorkerShape extends SharedShape {
  concurrency?: unknown;
  sweepMs?: unknown;
  stalled?: unknown;
  leaseMs?: unknown;
  onEvent?: unknown;
}

/** Checks `workflowWorker`'s own options (`invalid-options`). Internal. */
export function checkWorkflowWorkerOptions(options: WorkerShape): {
  prefix: string;
  name: string;
} {
  const names = checkWorkflowQueueOptions(options, 'workflowWorker');
  if (!Array.isArray(options.workflows) || options.workflows.length === 0)
    throw invalid(
      'workflowWorker needs workflows: the defineWorkflow(...) definitions it executes',
    );
  integer(options.concurrency, 'concurrency', 1);
  integer(options.sweepMs, 'sweepMs', 0);
  integer(options.leaseMs, 'leaseMs', 1);
  if (options.stalled !== undefined) {
    const stalled = options.stalled;
    if (!isRecord(stalled))
      throw invalid('stalled must be { lockDuration?, interval?, maxCount? }');
    integer(stalled.lockDuration, 'stalled.lockDuration', 1);
    integer(stalled.interval, 'stalled.interval', 1);
    integer(stalled.maxCount, 'stalled.maxCount', 0);
  }
  fn(options.onEvent, 'onEvent');
  return names;
}
