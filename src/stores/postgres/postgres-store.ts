import type { RunStore } from '../../core/durable/port';
import type { WorkflowStore } from '../../workflows/index';
import { StoreError } from '../../core/durable/store-error';
import type { StoreOptions } from '../../core/durable/store-options';
import { storeSettings } from '../../core/durable/store-options';
import { SqlRunStore } from '../sql/sql-run-store';
import type { PgModuleLoader, PgPool } from './driver';
import { connectPg } from './connect';
import { PostgresClient } from './postgres-client';

/** Options of {@link postgresStore}. */
export interface PostgresStoreOptions extends StoreOptions {
  /**
   * `postgres://user:password@host:5432/database`. Without it (and without `pool`), `pg` reads the
   * `PGHOST`, `PGPORT`, `PGDATABASE`, `PGUSER` and `PGPASSWORD` variables.
   */
  connectionString?: string;
  /** Your own `pg.Pool` (the store does not end it on `close()`). Exclusive with `connectionString`. */
  pool?: PgPool;
  /** The schema holding the tables (created by `migrate()`); default `public`. */
  schema?: string;
  /** Connections in the pool the store creates; default 10. */
  poolSize?: number;
  /** Migrate the schema on first use (default `true`); `false` only checks it (run `migrate()`). */
  migrate?: boolean;
  /**
   * `true` (default): every checkpoint waits for the server to flush it to disk, so it survives
   * the server crashing too. `false` sets `synchronous_commit = off` on the store's connections:
   * checkpoints cost a fraction (no disk flush per write) and still survive your process dying,
   * but a server crash may lose the last few hundred milliseconds of them — a tool completed in
   * that window may run again (at-least-once). Ignored with your own `pool` (configure it there).
   */
  synchronousCommit?: boolean;
  /**
   * `true` (default): the statements every checkpoint runs are prepared once per connection (named
   * statements), so a checkpoint is one bind-and-execute round trip. Set `false` behind a
   * connection pooler that does not keep prepared statements (PgBouncer in transaction mode
   * before 1.21, or without `max_prepared_statements`).
   */
  prepare?: boolean;
  /** Loads `pg`; inject one to bundle it differently. */
  driver?: PgModuleLoader;
}

/**
 * A run store in PostgreSQL through the optional peer `pg` (`npm install pg`): for several
 * processes or machines sharing runs. Rows read in a transaction are locked (`FOR UPDATE`);
 * checkpoints are single conditional updates. A dropped connection is an `unavailable`,
 * retryable StoreError; the run resumes from its last checkpoint. A transaction the server aborts
 * to break a deadlock (or a serialisation failure) runs again, up to 5 times in all, so a body
 * given to `transaction()` must only read and write through its `tx`. It is a workflow store too
 * (`golem/workflows`): workflow runs live in the same schema as the agent runs inside them.
 *
 * ```ts
 * const store = postgresStore({ connectionString: process.env.DATABASE_URL, schema: 'golem' });
 * ```
 */
export function postgresStore(options: PostgresStoreOptions = {}): RunStore & WorkflowStore {
  if (typeof options !== 'object' || (options as unknown) === null)
    throw invalid('options must be an object');
  const { migrate = true, synchronousCommit = true, prepare = true } = options;
  if (typeof prepare !== 'boolean') throw invalid('`prepare` must be true or false');
  if (typeof synchronousCommit !== 'boolean')
    throw invalid('`synchronousCommit` must be true or false');
  const settings = storeSettings('postgresStore', options);
  const { connections, owned, schema } = connectPg(
    'postgresStore',
    options,
    synchronousCommit ? {} : { options: '-c synchronous_commit=off' },
  );
  const label = `postgres store (schema "${schema}")`;
  const q = (name: string) => `"${schema}"."${name}"`;
  return new SqlRunStore({
    label,
    client: new PostgresClient(connections, label, owned, prepare),
    tables: {
      runs: q('golem_runs'),
      conversations: q('golem_conversations'),
      migrations: q('golem_migrations'),
      workingMemory: q('golem_working_memory'),
      workflowRuns: q('golem_workflow_runs'),
      lockSuffix: ' FOR UPDATE',
    },
    leaseMs: settings.leaseMs,
    clock: settings.clock,
    migrateOnOpen: migrate,
    prelude: [
      `SELECT pg_advisory_xact_lock(hashtext('golem_migrations:${schema}'))`,
      `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
    ],
  });
}

function invalid(problem: string): StoreError {
  return new StoreError(`postgresStore: ${problem}`, { reason: 'invalid-options' });
}
