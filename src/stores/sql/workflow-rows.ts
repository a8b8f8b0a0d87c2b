import { quote, StoreError } from '../../core/durable/store-error';
import type { StoredWorkflowRun } from '../../workflows/index';
import type { SqlRow } from './sql-client';

/** Columns of the workflow runs table, in the order of {@link workflowRunParams}. Internal. */
export const WORKFLOW_RUN_COLUMNS = [
  'id',
  'workflow',
  'owner',
  'status',
  'input',
  'output',
  'steps',
  'waiting',
  'wake_at',
  'error',
  'forked_from',
  'created_at',
  'updated_at',
  'lease_owner',
  'lease_expires_at',
  'version',
] as const;

type Kind = 'text' | 'text?' | 'int' | 'int?';

/** Each field of a stored workflow run: its column and what it holds. */
const FIELDS: readonly (readonly [keyof StoredWorkflowRun, string, Kind])[] = [
  ['id', 'id', 'text'],
  ['workflow', 'workflow', 'text'],
  ['owner', 'owner', 'text?'],
  ['status', 'status', 'text'],
  ['input', 'input', 'text'],
  ['output', 'output', 'text?'],
  ['steps', 'steps', 'text'],
  ['waiting', 'waiting', 'text?'],
  ['wakeAt', 'wake_at', 'int?'],
  ['error', 'error', 'text?'],
  ['forkedFrom', 'forked_from', 'text?'],
  ['createdAt', 'created_at', 'int'],
  ['updatedAt', 'updated_at', 'int'],
  ['leaseOwner', 'lease_owner', 'text?'],
  ['leaseExpiresAt', 'lease_expires_at', 'int?'],
  ['version', 'version', 'int'],
];

const KIND_NAMES: Record<Kind, string> = {
  text: 'text',
  'text?': 'text or null',
  int: 'an integer',
  'int?': 'an integer or null',
};

function holds(kind: Kind, value: unknown): boolean {
  if (value === null) return kind === 'text?' || kind === 'int?';
  if (kind === 'text' || kind === 'text?') return typeof value === 'string';
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/**
 * A driver's number (PostgreSQL returns BIGINT as text, SQLite may return a bigint) as a number;
 * anything else is kept, so the check reports the column as corrupt instead of guessing.
 */
function num(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * The parameters of a workflow run row, in {@link WORKFLOW_RUN_COLUMNS} order. A field of the
 * wrong type is an `invalid-input` StoreError naming it (nothing is written).
 */
export function workflowRunParams(run: StoredWorkflowRun, label: string): unknown[] {
  if (typeof run !== 'object' || (run as unknown) === null)
    throw new StoreError(`${label}: a workflow run must be an object, got ${quote(run)}`, {
      reason: 'invalid-input',
    });
  return FIELDS.map(([field, , kind]) => {
    const given: unknown = run[field];
    const value = given === undefined && kind.endsWith('?') ? null : given;
    if (!holds(kind, value))
      throw new StoreError(
        `${label}: workflow run ${quote(run.id)}: \`${field}\` must be ${KIND_NAMES[kind]}${kind.startsWith('int') ? ' (milliseconds or a count)' : ''}, got ${quote(value)}; nothing was written`,
        { reason: 'invalid-input', ...(typeof run.id === 'string' && { runId: run.id }) },
      );
    return value;
  });
}

/**
 * A workflow runs-table row as a {@link StoredWorkflowRun}, verbatim; a column holding the wrong
 * type (a damaged or hand-edited row) is a `corrupt` StoreError naming the run and the column.
 */
export function toStoredWorkflowRun(row: SqlRow, label: string): StoredWorkflowRun {
  const id = row.id;
  const run: Record<string, unknown> = {};
  for (const [field, column, kind] of FIELDS) {
    const raw = row[column] === undefined ? null : row[column];
    const value = kind.startsWith('int') ? num(raw) : raw;
    if (!holds(kind, value)) {
      const subject =
        typeof id === 'string' ? `stored workflow run ${quote(id)}` : 'a stored workflow run';
      throw new StoreError(
        `${label}: ${subject} is unreadable: ${column} is not ${KIND_NAMES[kind]} (${quote(value)}); nothing was changed — repair or delete the row`,
        { reason: 'corrupt', ...(typeof id === 'string' && { runId: id }) },
      );
    }
    run[field] = value;
  }
  return run as unknown as StoredWorkflowRun;
}
