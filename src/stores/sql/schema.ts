import type { MigrationReport } from '../../core/durable/port';
import { StoreError } from '../../core/durable/store-error';
import type { SqlClient, SqlTables } from './sql-client';

/** One schema version: statements that only add (tables, columns, indexes), never drop or rewrite. */
interface Migration {
  readonly version: number;
  readonly description: string;
  readonly statements: (t: SqlTables) => readonly string[];
}

/**
 * The schema, version by version. Additive only: a new version adds tables, nullable columns or
 * indexes, so rows written by an older golem stay readable and an older golem keeps working on
 * a newer schema's known columns (it still refuses a schema newer than it knows, to be safe).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'runs and conversations',
    statements: (t) => [
      `CREATE TABLE ${t.conversations} (
        id TEXT PRIMARY KEY,
        messages TEXT NOT NULL,
        active_run_id TEXT,
        version INTEGER NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL)`,
      `CREATE TABLE ${t.runs} (
        id TEXT PRIMARY KEY,
        agent TEXT NOT NULL,
        conversation_id TEXT,
        conversation_base INTEGER NOT NULL,
        status TEXT NOT NULL,
        messages TEXT NOT NULL,
        usage TEXT NOT NULL,
        requests INTEGER NOT NULL,
        tool_calls INTEGER NOT NULL,
        turns INTEGER NOT NULL,
        pending TEXT,
        in_flight TEXT,
        error_stage TEXT,
        error_message TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        lease_owner TEXT,
        lease_expires_at BIGINT,
        version INTEGER NOT NULL)`,
      `CREATE INDEX golem_runs_status ON ${t.runs} (status, updated_at)`,
      `CREATE INDEX golem_runs_conversation ON ${t.runs} (conversation_id)`,
    ],
  },
  {
    version: 2,
    description: 'run outputs',
    statements: (t) => [`ALTER TABLE ${t.runs} ADD COLUMN output TEXT`],
  },
  {
    version: 3,
    description: 'run and conversation owners',
    statements: (t) => [
      `ALTER TABLE ${t.runs} ADD COLUMN owner TEXT`,
      `ALTER TABLE ${t.conversations} ADD COLUMN owner TEXT`,
      `CREATE INDEX golem_runs_owner ON ${t.runs} (owner, updated_at)`,
    ],
  },
  {
    version: 4,
    description: 'the conversation length a run started on',
    statements: (t) => [`ALTER TABLE ${t.runs} ADD COLUMN conversation_length INTEGER`],
  },
  {
    version: 5,
    description: 'threads (conversation titles and metadata), working memory, compactions',
    statements: (t) => [
      `ALTER TABLE ${t.runs} ADD COLUMN compactions TEXT`,
      `ALTER TABLE ${t.conversations} ADD COLUMN compactions TEXT`,
      `ALTER TABLE ${t.conversations} ADD COLUMN title TEXT`,
      `ALTER TABLE ${t.conversations} ADD COLUMN metadata TEXT`,
      `CREATE INDEX golem_conversations_owner ON ${t.conversations} (owner, updated_at)`,
      `CREATE INDEX golem_conversations_updated ON ${t.conversations} (updated_at)`,
      `CREATE TABLE ${t.workingMemory} (
        scope TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        version INTEGER NOT NULL,
        updated_at BIGINT NOT NULL)`,
    ],
  },
  {
    version: 6,
    description: 'workflow runs',
    statements: (t) => [
      `CREATE TABLE ${t.workflowRuns} (
        id TEXT PRIMARY KEY,
        workflow TEXT NOT NULL,
        owner TEXT,
        status TEXT NOT NULL,
        input TEXT NOT NULL,
        output TEXT,
        steps TEXT NOT NULL,
        waiting TEXT,
        wake_at BIGINT,
        error TEXT,
        forked_from TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        lease_owner TEXT,
        lease_expires_at BIGINT,
        version INTEGER NOT NULL)`,
      `CREATE INDEX golem_workflow_runs_updated ON ${t.workflowRuns} (updated_at)`,
      `CREATE INDEX golem_workflow_runs_workflow ON ${t.workflowRuns} (workflow, updated_at)`,
      `CREATE INDEX golem_workflow_runs_status ON ${t.workflowRuns} (status, updated_at)`,
      `CREATE INDEX golem_workflow_runs_owner ON ${t.workflowRuns} (owner, updated_at)`,
      // Due timers: status = 'suspended' AND wake_at <= now.
      `CREATE INDEX golem_workflow_runs_wake ON ${t.workflowRuns} (status, wake_at)`,
    ],
  },
];

/** The newest schema version this golem knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);

/** The schema version recorded in the database (0 when nothing was migrated yet). */
export async function schemaVersion(client: SqlClient, t: SqlTables): Promise<number> {
  const exists =
    client.dialect === 'sqlite'
      ? await client.all(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, [
          t.migrations,
        ])
      : await client.all(`SELECT to_regclass(?) AS name`, [t.migrations]);
  if (exists.length === 0 || exists[0]?.name === null || exists[0]?.name === undefined) return 0;
  const rows = await client.all(`SELECT MAX(version) AS version FROM ${t.migrations}`);
  const version = Number(rows[0]?.version ?? 0);
  return Number.isFinite(version) ? version : 0;
}

/** The error for a database migrated by a newer golem. */
export function tooNew(store: string, version: number): StoreError {
  return new StoreError(
    `${store}: the database schema is at version ${version}, newer than the ${SCHEMA_VERSION} this golem knows; upgrade golem (nothing was changed)`,
    { reason: 'schema-too-new' },
  );
}

/**
 * Applies the missing migrations in one transaction; concurrent callers are serialised (SQLite's
 * write lock; a PostgreSQL advisory lock), so each version is applied once.
 */
export async function migrate(
  client: SqlClient,
  t: SqlTables,
  store: string,
  now: number,
  prelude: readonly string[],
): Promise<MigrationReport> {
  return client.transaction(async (tx) => {
    for (const statement of prelude) await tx.run(statement);
    await tx.run(
      `CREATE TABLE IF NOT EXISTS ${t.migrations} (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
    );
    const from = await schemaVersion(tx, t);
    if (from > SCHEMA_VERSION) throw tooNew(store, from);
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (migration.version <= from) continue;
      for (const statement of migration.statements(t)) await tx.run(statement);
      await tx.run(
        `INSERT INTO ${t.migrations} (version, description, applied_at) VALUES (?, ?, ?)`,
        [migration.version, migration.description, now],
      );
      applied.push(migration.version);
    }
    return { from, to: SCHEMA_VERSION, applied };
  });
}
