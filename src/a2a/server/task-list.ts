import { listRuns } from '../../core/index';
import type { RunStatus } from '../../core/index';
import { A2AProtocolError } from '../a2a-error';
import { DEFAULT_LIST_PAGE_SIZE } from '../wire-check';
import type { ListTasksParams, ListTasksResult, Task, TaskState } from '../wire-types';
import { recoverTask, type RecoveryContext } from './run-recovery';
import { taskOfRun } from './stored-task';
import { taskSnapshot, type TaskRecord } from './task-registry';

/** What listing works with. Internal. */
export interface ListContext extends RecoveryContext {
  /** The key of the agent this endpoint serves. */
  readonly agentKey: string;
}

/** The most stored runs one listing reads (newest first); older ones are not listed. */
export const MAX_LISTED_RUNS = 1000;

/** The stored run status a task state comes from; undefined: no stored run has that state. */
const RUN_STATUS: Partial<Record<TaskState, RunStatus>> = {
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_INPUT_REQUIRED: 'paused',
  TASK_STATE_WORKING: 'running',
};

interface Cursor {
  readonly timestamp: string;
  readonly id: string;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.timestamp, cursor.id]), 'utf8').toString('base64url');
}

function decodeCursor(token: string): Cursor {
  const invalid = (): never => {
    throw new A2AProtocolError('A2A: params.pageToken is not a page token this server gave');
  };
  if (token.length > 1000 || !/^[A-Za-z0-9_-]+$/.test(token)) return invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return invalid();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    typeof value[0] !== 'string' ||
    typeof value[1] !== 'string' ||
    Number.isNaN(Date.parse(value[0]))
  ) {
    return invalid();
  }
  return { timestamp: value[0], id: value[1] };
}

/** Newest status first; ties by id, descending: a total order, so pages are stable. */
function newestFirst(a: Cursor, b: Cursor): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? 1 : -1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? 1 : -1;
}

function matches(record: TaskRecord, params: ListTasksParams): boolean {
  if (params.contextId !== undefined && record.contextId !== params.contextId) return false;
  if (params.status !== undefined && record.state !== params.status) return false;
  if (
    params.statusTimestampAfter !== undefined &&
    Date.parse(record.timestamp) < Date.parse(params.statusTimestampAfter)
  ) {
    return false;
  }
  return true;
}

/**
 * The tasks this caller may read at this endpoint, filtered: those in memory, and, with a store,
 * the stored runs of this agent and owner not in memory (at most {@link MAX_LISTED_RUNS} of them,
 * newest first). A stored run nobody runs any more is recovered as GetTask would (see
 * `recover`). Another owner's task never shows.
 */
async function visibleTasks(
  context: ListContext,
  params: ListTasksParams,
  owner: string | undefined,
): Promise<TaskRecord[]> {
  const found = new Map<string, TaskRecord>();
  for (const record of context.tasks.all()) {
    if (record.agentKey === context.agentKey && record.owner === owner) {
      found.set(record.id, record);
    }
  }
  const store = context.store ?? context.agent.store;
  const status = params.status === undefined ? undefined : RUN_STATUS[params.status];
  if (store !== undefined && (params.status === undefined || status !== undefined)) {
    const runs = await listRuns(store, {
      agent: context.agent.name,
      ...(owner !== undefined && { owner }),
      ...(params.contextId !== undefined && { conversationId: params.contextId }),
      ...(status !== undefined && { status: [status] }),
      limit: MAX_LISTED_RUNS,
    });
    for (const run of runs) {
      // An unowned caller sees only unowned runs; memory is fresher than the store.
      if (run.owner !== owner || found.has(run.id) || context.tasks.get(run.id) !== undefined) {
        continue;
      }
      let record = taskOfRun(run, context.agentKey);
      if (run.status === 'running' && context.recover) {
        record = context.tasks.add(record);
        recoverTask(context, record, run, store);
      }
      found.set(run.id, record);
    }
  }
  return [...found.values()].filter((record) => matches(record, params));
}

/**
 * `ListTasks`: the caller's tasks at this endpoint, newest status first, one page of
 * `pageSize` (default 50, at most 100) after `pageToken` (an opaque cursor: the last task of the
 * previous page). Histories are cut to `historyLength`; artifacts only with `includeArtifacts`.
 */
export async function listTasks(
  context: ListContext,
  params: ListTasksParams,
  owner: string | undefined,
): Promise<ListTasksResult> {
  const pageSize = params.pageSize ?? DEFAULT_LIST_PAGE_SIZE;
  const after = params.pageToken === undefined ? undefined : decodeCursor(params.pageToken);
  const records = (await visibleTasks(context, params, owner)).sort((a, b) =>
    newestFirst({ timestamp: a.timestamp, id: a.id }, { timestamp: b.timestamp, id: b.id }),
  );
  const rest =
    after === undefined
      ? records
      : records.filter((r) => newestFirst(after, { timestamp: r.timestamp, id: r.id }) < 0);
  const page = rest.slice(0, pageSize);
  const last = page.at(-1);
  const tasks = page.map((record): Task => {
    const task = taskSnapshot(record, params.historyLength);
    if (params.includeArtifacts === true) return task;
    return { ...task, artifacts: undefined };
  });
  return {
    tasks,
    nextPageToken:
      rest.length > pageSize && last !== undefined
        ? encodeCursor({ timestamp: last.timestamp, id: last.id })
        : '',
    pageSize,
    totalSize: records.length,
  };
}
