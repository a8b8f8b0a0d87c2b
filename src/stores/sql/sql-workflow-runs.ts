import { quote, StoreError } from '../../core/durable/store-error';
import type { StoredWorkflowRun, WorkflowRunFilter } from '../../workflows/index';
import { LIST_LIMIT, LIST_LIMIT_MAX } from '../memory/select-runs';
import type { SqlClient, SqlTables } from './sql-client';
import { toStoredWorkflowRun, WORKFLOW_RUN_COLUMNS, workflowRunParams } from './workflow-rows';

/**
 * The SQL of the `WorkflowStore` port (schema version 6), for {@link SqlRunStore}: one row per
 * workflow run, kept verbatim; inserts and replacements are single conditional statements, so
 * of two writers replacing the same version exactly one wins. PostgreSQL text cannot hold U+0000:
 * an id or filter value containing it matches no row. Internal.
 */
export class SqlWorkflowRuns {
  private readonly sql: {
    readonly columns: string;
    readonly get: string;
    readonly insert: string;
    readonly replace: string;
  };
  private readonly postgres: boolean;

  constructor(
    private readonly client: () => Promise<SqlClient>,
    private readonly t: SqlTables,
    private readonly label: string,
    dialect: SqlClient['dialect'],
    prepare: (sql: string) => void,
  ) {
    const columns = WORKFLOW_RUN_COLUMNS.join(', ');
    const marks = WORKFLOW_RUN_COLUMNS.map(() => '?').join(', ');
    const sets = WORKFLOW_RUN_COLUMNS.filter((c) => c !== 'id')
      .map((c) => `${c} = ?`)
      .join(', ');
    this.postgres = dialect === 'postgres';
    this.sql = {
      columns,
      get: `SELECT ${columns} FROM ${t.workflowRuns} WHERE id = ?`,
      insert: `INSERT INTO ${t.workflowRuns} (${columns}) VALUES (${marks}) ON CONFLICT (id) DO NOTHING`,
      replace: `UPDATE ${t.workflowRuns} SET ${sets} WHERE id = ? AND version = ?`,
    };
    // Run on every checkpoint: prepared once per connection (PostgreSQL).
    prepare(this.sql.get);
    prepare(this.sql.insert);
    prepare(this.sql.replace);
  }

  async getWorkflowRun(id: string): Promise<StoredWorkflowRun | undefined> {
    const client = await this.client();
    if (this.unstorable(id)) return undefined;
    const rows = await client.all(this.sql.get, [id]);
    return rows[0] === undefined ? undefined : toStoredWorkflowRun(rows[0], this.label);
  }

  async insertWorkflowRun(run: StoredWorkflowRun): Promise<boolean> {
    const params = this.storable(workflowRunParams(run, this.label));
    const client = await this.client();
    if (this.unstorable(run.id))
      throw new StoreError(
        `${this.label}: the workflow run id ${quote(run.id)} contains U+0000, which PostgreSQL text cannot hold; use ids without control characters`,
        { reason: 'invalid-input', runId: run.id },
      );
    return (await client.run(this.sql.insert, params)) === 1;
  }

  async replaceWorkflowRun(run: StoredWorkflowRun, expectedVersion: number): Promise<boolean> {
    const params = this.storable(workflowRunParams(run, this.label)).slice(1);
    if (!Number.isSafeInteger(expectedVersion))
      throw new StoreError(
        `${this.label}: workflow run ${quote(run.id)}: the expected version must be an integer, got ${quote(expectedVersion)}; nothing was written`,
        { reason: 'invalid-input', runId: run.id },
      );
    const client = await this.client();
    if (this.unstorable(run.id)) return false;
    params.push(run.id, expectedVersion);
    return (await client.run(this.sql.replace, params)) === 1;
  }

  async listWorkflowRuns(filter: WorkflowRunFilter = {}): Promise<StoredWorkflowRun[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const text: string[] = [];
    if (filter.workflow !== undefined) {
      where.push('workflow = ?');
      params.push(filter.workflow);
      text.push(filter.workflow);
    }
    if (filter.status !== undefined) {
      if (filter.status.length === 0) return [];
      where.push(`status IN (${filter.status.map(() => '?').join(', ')})`);
      params.push(...filter.status);
      text.push(...filter.status);
    }
    if (filter.owner !== undefined) {
      where.push('owner = ?');
      params.push(filter.owner);
      text.push(filter.owner);
    }
    if (filter.dueBefore !== undefined) {
      if (typeof filter.dueBefore !== 'number' || Number.isNaN(filter.dueBefore))
        throw this.invalidFilter('dueBefore', filter.dueBefore);
      where.push(`status = 'suspended' AND wake_at IS NOT NULL AND wake_at <= ?`);
      // Stored times are integers, so `wake_at <= t` is `wake_at <= floor(t)`.
      params.push(Math.floor(clampSafe(filter.dueBefore)));
    }
    const wanted = filter.limit ?? LIST_LIMIT;
    if (typeof wanted !== 'number' || Number.isNaN(wanted))
      throw this.invalidFilter('limit', wanted);
    const limit = Math.min(Math.max(Math.floor(wanted), 0), LIST_LIMIT_MAX);
    params.push(limit);
    const client = await this.client();
    // A value no row can hold matches nothing.
    if (text.some((value) => this.unstorable(value))) return [];
    // Ties in the byte order of the ids on PostgreSQL too, whatever the database's collation.
    const byId = this.postgres ? 'id COLLATE "C" ASC' : 'id ASC';
    const rows = await client.all(
      `SELECT ${this.sql.columns} FROM ${this.t.workflowRuns}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, ${byId} LIMIT ?`,
      params,
    );
    return rows.map((row) => toStoredWorkflowRun(row, this.label));
  }

  private invalidFilter(field: string, value: unknown): StoreError {
    return new StoreError(
      `${this.label}: listWorkflowRuns: \`${field}\` must be a number, got ${quote(value)}`,
      { reason: 'invalid-input' },
    );
  }

  /** Whether no row can hold `value`: PostgreSQL text cannot hold U+0000. */
  private unstorable(value: string): boolean {
    return this.postgres && typeof value === 'string' && value.includes('\u0000');
  }

  /**
   * `params` with U+0000 written as U+FFFD on PostgreSQL (as the run store writes runs): golem's
   * JSON never holds a raw one, but a workflow name, owner or status given by a caller may.
   */
  private storable(params: unknown[]): unknown[] {
    if (!this.postgres) return params;
    return params.map((value) =>
      typeof value === 'string' && value.includes('\u0000')
        ? value.replaceAll('\u0000', '\ufffd')
        : value,
    );
  }
}

function clampSafe(n: number): number {
  return Math.min(Math.max(n, Number.MIN_SAFE_INTEGER), Number.MAX_SAFE_INTEGER);
}
