import { quote, StoreError } from '../../core/durable/store-error';
import type { StoredWorkflowRun, WorkflowRunFilter } from '../../workflows/index';

/** The rows `listWorkflowRuns` returns without a `limit`. */
const DEFAULT_LIMIT = 100;

type Kind = 'text' | 'text?' | 'int' | 'int?';

/** What each field of a stored workflow run holds (checked on every write, as the SQL stores do). */
const FIELDS: readonly (readonly [keyof StoredWorkflowRun, Kind])[] = [
  ['id', 'text'],
  ['workflow', 'text'],
  ['owner', 'text?'],
  ['status', 'text'],
  ['input', 'text'],
  ['output', 'text?'],
  ['steps', 'text'],
  ['waiting', 'text?'],
  ['wakeAt', 'int?'],
  ['error', 'text?'],
  ['forkedFrom', 'text?'],
  ['createdAt', 'int'],
  ['updatedAt', 'int'],
  ['leaseOwner', 'text?'],
  ['leaseExpiresAt', 'int?'],
  ['version', 'int'],
];

/**
 * The workflow runs of the memory store: rows checked and copied in, copied out (nothing outside
 * can change a stored row), replaced only at the expected version. The store serialises the
 * writes. Internal.
 */
export class WorkflowRunTable {
  private readonly rows = new Map<string, StoredWorkflowRun>();

  /** A copy of the row `id`. */
  get(id: string): StoredWorkflowRun | undefined {
    const row = this.rows.get(id);
    return row === undefined ? undefined : { ...row };
  }

  /** Stores a copy of `run` unless its id exists. */
  insert(run: StoredWorkflowRun): boolean {
    const row = checked(run);
    if (this.rows.has(row.id)) return false;
    this.rows.set(row.id, row);
    return true;
  }

  /** Replaces the row with a copy of `run` if its version is `expectedVersion`. */
  replace(run: StoredWorkflowRun, expectedVersion: number): boolean {
    const row = checked(run);
    if (this.rows.get(row.id)?.version !== expectedVersion) return false;
    this.rows.set(row.id, row);
    return true;
  }

  /** Copies of the rows `filter` selects, newest `updatedAt` first (ties by id). */
  list(filter: WorkflowRunFilter = {}): StoredWorkflowRun[] {
    const { workflow, status, owner, dueBefore, limit = DEFAULT_LIMIT } = filter;
    if (dueBefore !== undefined && (typeof dueBefore !== 'number' || Number.isNaN(dueBefore)))
      throw invalidFilter('dueBefore', dueBefore);
    if (typeof limit !== 'number' || Number.isNaN(limit)) throw invalidFilter('limit', limit);
    return [...this.rows.values()]
      .filter(
        (row) =>
          (workflow === undefined || row.workflow === workflow) &&
          (status === undefined || status.includes(row.status)) &&
          (owner === undefined || row.owner === owner) &&
          (dueBefore === undefined ||
            (row.status === 'suspended' && row.wakeAt !== null && row.wakeAt <= dueBefore)),
      )
      .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, Math.max(0, Math.floor(limit)))
      .map((row) => ({ ...row }));
  }
}

/** A copy of `run` with absent nullable fields as `null`; a wrong field is `invalid-input`. */
function checked(run: StoredWorkflowRun): StoredWorkflowRun {
  if (typeof run !== 'object' || (run as unknown) === null)
    throw new StoreError(`memoryStore: a workflow run must be an object, got ${quote(run)}`, {
      reason: 'invalid-input',
    });
  const row: Record<string, unknown> = {};
  for (const [field, kind] of FIELDS) {
    const given: unknown = run[field];
    const value = given === undefined && kind.endsWith('?') ? null : given;
    const ok =
      value === null
        ? kind.endsWith('?')
        : kind.startsWith('text')
          ? typeof value === 'string'
          : typeof value === 'number' && Number.isSafeInteger(value);
    if (!ok)
      throw new StoreError(
        `memoryStore: workflow run ${quote(run.id)}: \`${field}\` must be ${kind.startsWith('text') ? 'text' : 'an integer'}${kind.endsWith('?') ? ' or null' : ''}, got ${quote(value)}; nothing was written`,
        { reason: 'invalid-input', ...(typeof run.id === 'string' && { runId: run.id }) },
      );
    row[field] = value;
  }
  return row as unknown as StoredWorkflowRun;
}

function invalidFilter(field: string, value: unknown): StoreError {
  return new StoreError(
    `memoryStore: listWorkflowRuns: \`${field}\` must be a number, got ${quote(value)}`,
    { reason: 'invalid-input' },
  );
}
