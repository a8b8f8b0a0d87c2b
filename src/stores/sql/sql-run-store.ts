import type {
  ConversationFilter,
  MigrationReport,
  RunFilter,
  RunStore,
  StoreTransaction,
  WriteOptions,
} from '../../core/durable/port';
import type {
  StoredConversation,
  StoredRun,
  StoredWorkingMemory,
} from '../../core/durable/records';
import { quote, StoreError } from '../../core/durable/store-error';
import type { StoredWorkflowRun, WorkflowRunFilter, WorkflowStore } from '../../workflows/index';
import { LIST_LIMIT, LIST_LIMIT_MAX } from '../memory/select-runs';
import {
  CONVERSATION_COLUMNS,
  conversationParams,
  RUN_COLUMNS,
  runParams,
  toStoredConversation,
  toStoredRun,
} from './rows';
import { migrate, SCHEMA_VERSION, schemaVersion, tooNew } from './schema';
import type { SqlClient, SqlTables } from './sql-client';
import { SqlThreads } from './sql-threads';
import { SqlWorkflowRuns } from './sql-workflow-runs';

/** How a SQL store is built. Internal. */
export interface SqlStoreInit {
  /** For messages: `sqlite store "runs.db"`, `postgres store (schema "public")`. */
  readonly label: string;
  readonly client: SqlClient;
  readonly tables: SqlTables;
  readonly leaseMs: number;
  readonly clock: () => number;
  /** Apply migrations on first use (default) or only check the schema version. */
  readonly migrateOnOpen: boolean;
  /** Statements run first inside `migrate()`'s transaction (locks, schema creation). */
  readonly prelude: readonly string[];
}

function upsert(table: string, columns: readonly string[]): string {
  const marks = columns.map(() => '?').join(', ');
  const updates = columns
    .filter((c) => c !== 'id')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${marks}) ON CONFLICT (id) DO UPDATE SET ${updates}`;
}

/**
 * A {@link RunStore} and {@link WorkflowStore} over a SQL database (the SQLite and PostgreSQL
 * adapters): one row per run, per conversation and per workflow run, the schema migrated (or
 * checked) before the first operation. Internal base.
 */
export class SqlRunStore implements RunStore, WorkflowStore {
  readonly leaseMs: number;
  private readonly init: SqlStoreInit;
  private ready: Promise<void> | undefined;
  private closed = false;
  private readonly threads: SqlThreads;
  private readonly workflows: SqlWorkflowRuns;
  private readonly sql: {
    readonly runColumns: string;
    readonly getRun: string;
    readonly getConversation: string;
    readonly putRun: string;
    readonly putConversation: string;
    readonly replaceRun: string;
    readonly insertRun: string;
    readonly insertConversation: string;
    /** The same writes committed without waiting for the disk flush (PostgreSQL). */
    readonly replaceRunRelaxed: string;
    readonly insertRunRelaxed: string;
  };

  constructor(init: SqlStoreInit) {
    this.init = init;
    this.leaseMs = init.leaseMs;
    const t = init.tables;
    this.threads = new SqlThreads(() => this.client(), t, init.label);
    this.workflows = new SqlWorkflowRuns(
      () => this.client(),
      t,
      init.label,
      init.client.dialect,
      (sql) => init.client.prepare?.(sql),
    );
    const runColumns = RUN_COLUMNS.join(', ');
    const marks = RUN_COLUMNS.map(() => '?').join(', ');
    const sets = RUN_COLUMNS.filter((c) => c !== 'id')
      .map((c) => `${c} = ?`)
      .join(', ');
    // PostgreSQL: `synchronous_commit = off` for this statement's own transaction only.
    const relaxed =
      init.client.dialect === 'postgres'
        ? ` FROM (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed`
        : '';
    this.sql = {
      runColumns,
      getRun: `SELECT ${runColumns} FROM ${t.runs} WHERE id = ?`,
      getConversation: `SELECT ${CONVERSATION_COLUMNS.join(', ')} FROM ${t.conversations} WHERE id = ?`,
      putRun: upsert(t.runs, RUN_COLUMNS),
      putConversation: upsert(t.conversations, CONVERSATION_COLUMNS),
      replaceRun: `UPDATE ${t.runs} SET ${sets} WHERE id = ? AND version = ?`,
      replaceRunRelaxed: `UPDATE ${t.runs} SET ${sets}${relaxed} WHERE id = ? AND version = ?`,
      insertRun: `INSERT INTO ${t.runs} (${runColumns}) VALUES (${marks}) ON CONFLICT (id) DO NOTHING`,
      insertRunRelaxed: `INSERT INTO ${t.runs} (${runColumns}) SELECT ${marks}${relaxed} ON CONFLICT (id) DO NOTHING`,
      insertConversation: `INSERT INTO ${t.conversations} (${CONVERSATION_COLUMNS.join(', ')}) VALUES (${CONVERSATION_COLUMNS.map(() => '?').join(', ')}) ON CONFLICT (id) DO NOTHING`,
    };
    const { runColumns: _columns, ...statements } = this.sql;
    for (const sql of Object.values(statements)) init.client.prepare?.(sql);
    init.client.prepare?.(`${this.sql.getRun}${t.lockSuffix}`);
    init.client.prepare?.(`${this.sql.getConversation}${t.lockSuffix}`);
  }

  now(): number {
    return this.init.clock();
  }

  async migrate(): Promise<MigrationReport> {
    this.open();
    const { client, tables, label, prelude } = this.init;
    const report = await migrate(client, tables, label, this.now(), prelude);
    this.ready = Promise.resolve();
    return report;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.init.client.close();
  }

  async getRun(id: string): Promise<StoredRun | undefined> {
    const client = await this.client();
    if (this.unstorable(id)) return undefined;
    const rows = await client.all(this.sql.getRun, [id]);
    return rows[0] === undefined ? undefined : toStoredRun(rows[0]);
  }

  async getConversation(id: string): Promise<StoredConversation | undefined> {
    const client = await this.client();
    if (this.unstorable(id)) return undefined;
    const rows = await client.all(this.sql.getConversation, [id]);
    return rows[0] === undefined ? undefined : toStoredConversation(rows[0]);
  }

  async listRuns(filter: RunFilter = {}): Promise<StoredRun[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.status !== undefined) {
      if (filter.status.length === 0) return [];
      where.push(`status IN (${filter.status.map(() => '?').join(', ')})`);
      params.push(...filter.status);
    }
    if (filter.agent !== undefined) {
      where.push('agent = ?');
      params.push(filter.agent);
    }
    if (filter.conversationId !== undefined) {
      where.push('conversation_id = ?');
      params.push(filter.conversationId);
    }
    if (filter.owner !== undefined) {
      where.push('owner = ?');
      params.push(filter.owner);
    }
    const limit = Math.min(Math.max(Math.floor(filter.limit ?? LIST_LIMIT), 0), LIST_LIMIT_MAX);
    params.push(limit);
    const client = await this.client();
    // A value no row can hold matches nothing.
    if (params.some((p) => typeof p === 'string' && this.unstorable(p))) return [];
    const rows = await client.all(
      `SELECT ${this.sql.runColumns} FROM ${this.init.tables.runs}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, id ASC LIMIT ?`,
      params,
    );
    return rows.map(toStoredRun);
  }

  listConversations(filter: ConversationFilter = {}): Promise<StoredConversation[]> {
    return this.threads.listConversations(filter);
  }

  deleteConversation(id: string, expectedVersion: number): Promise<boolean> {
    return this.threads.deleteConversation(id, expectedVersion);
  }

  getWorkingMemory(scope: string): Promise<StoredWorkingMemory | undefined> {
    return this.threads.getWorkingMemory(scope);
  }

  putWorkingMemory(record: StoredWorkingMemory, expectedVersion: number): Promise<boolean> {
    return this.threads.putWorkingMemory(record, expectedVersion);
  }

  deleteWorkingMemory(scope: string): Promise<boolean> {
    return this.threads.deleteWorkingMemory(scope);
  }

  getWorkflowRun(id: string): Promise<StoredWorkflowRun | undefined> {
    return this.workflows.getWorkflowRun(id);
  }

  insertWorkflowRun(run: StoredWorkflowRun): Promise<boolean> {
    return this.workflows.insertWorkflowRun(run);
  }

  replaceWorkflowRun(run: StoredWorkflowRun, expectedVersion: number): Promise<boolean> {
    return this.workflows.replaceWorkflowRun(run, expectedVersion);
  }

  listWorkflowRuns(filter?: WorkflowRunFilter): Promise<StoredWorkflowRun[]> {
    return this.workflows.listWorkflowRuns(filter);
  }

  async replaceRun(
    run: StoredRun,
    expectedVersion: number,
    options?: WriteOptions,
  ): Promise<boolean> {
    const params = this.runRow(run).slice(1);
    params.push(run.id, expectedVersion);
    const sql = options?.flush === false ? this.sql.replaceRunRelaxed : this.sql.replaceRun;
    return (await (await this.client()).run(sql, params)) === 1;
  }

  async insertRun(run: StoredRun, options?: WriteOptions): Promise<boolean> {
    const sql = options?.flush === false ? this.sql.insertRunRelaxed : this.sql.insertRun;
    return (await (await this.client()).run(sql, this.runRow(run))) === 1;
  }

  async transaction<T>(body: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    const client = await this.client();
    const lock = this.init.tables.lockSuffix;
    return client.transaction((c) => {
      // Rows this transaction read as missing. A locking read locks nothing where no row exists
      // (PostgreSQL), so writing such a row only inserts it: when another transaction created it
      // meanwhile, this one fails with `conflict` instead of overwriting it.
      const missingRuns = new Set<string>();
      const missingConversations = new Set<string>();
      return body({
        getRun: async (id) => {
          const rows = this.unstorable(id) ? [] : await c.all(`${this.sql.getRun}${lock}`, [id]);
          if (rows[0] !== undefined) return toStoredRun(rows[0]);
          missingRuns.add(id);
          return undefined;
        },
        getConversation: async (id) => {
          const rows = this.unstorable(id)
            ? []
            : await c.all(`${this.sql.getConversation}${lock}`, [id]);
          if (rows[0] !== undefined) return toStoredConversation(rows[0]);
          missingConversations.add(id);
          return undefined;
        },
        putRun: async (run) => {
          if (!missingRuns.delete(run.id)) {
            await c.run(this.sql.putRun, this.runRow(run));
            return;
          }
          if ((await c.run(this.sql.insertRun, this.runRow(run))) === 0)
            throw new StoreError(
              `${this.init.label}: a run with the id ${quote(run.id)} was stored by another process at the same moment; run ids are unique`,
              { reason: 'conflict', runId: run.id },
            );
        },
        putConversation: async (conversation) => {
          const params = this.storable(conversationParams(conversation));
          if (!missingConversations.delete(conversation.id)) {
            await c.run(this.sql.putConversation, params);
            return;
          }
          if ((await c.run(this.sql.insertConversation, params)) === 0)
            throw new StoreError(
              `${this.init.label}: conversation ${quote(conversation.id)} was created by another run starting at the same moment; a conversation has one unfinished run at a time — start this run again once that one finishes`,
              { reason: 'conflict', conversationId: conversation.id },
            );
        },
      });
    });
  }

  /**
   * Whether no row can have `id`: PostgreSQL text cannot hold U+0000, so an id containing it is
   * missing (a load is `not-found`) without asking the server, which would refuse the query.
   */
  private unstorable(id: string): boolean {
    return this.init.client.dialect === 'postgres' && id.includes('\u0000');
  }

  /** A run's parameters, as {@link storable}. */
  private runRow(run: StoredRun): unknown[] {
    return this.storable(runParams(run));
  }

  /**
   * `params` with U+0000 written as U+FFFD on PostgreSQL, whose text cannot hold it: a tool's
   * error message carrying one must not make the run's last write fail (leaving it `running`).
   */
  private storable(params: unknown[]): unknown[] {
    if (this.init.client.dialect !== 'postgres') return params;
    for (let i = 0; i < params.length; i++) {
      const value = params[i];
      if (typeof value === 'string' && value.includes('\u0000'))
        params[i] = value.replaceAll('\u0000', '\ufffd');
    }
    return params;
  }

  /** The client, once the schema is migrated (or checked, with `migrate: false`). */
  private async client(): Promise<SqlClient> {
    this.open();
    this.ready ??= this.prepare();
    try {
      await this.ready;
    } catch (error) {
      this.ready = undefined; // a later call tries again (the server may be back)
      throw error;
    }
    return this.init.client;
  }

  private async prepare(): Promise<void> {
    if (this.init.migrateOnOpen) {
      await this.migrate();
      return;
    }
    const version = await schemaVersion(this.init.client, this.init.tables);
    if (version > SCHEMA_VERSION) throw tooNew(this.init.label, version);
    if (version < SCHEMA_VERSION)
      throw new StoreError(
        `${this.init.label}: the database schema is at version ${version} and this golem needs ${SCHEMA_VERSION}; run store.migrate() (the store was opened with migrate: false)`,
        { reason: 'schema-outdated' },
      );
  }

  private open(): void {
    if (this.closed)
      throw new StoreError(`${this.init.label}: the store is closed`, { reason: 'closed' });
  }
}
