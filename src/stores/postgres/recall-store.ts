import type { RecallStore } from '../../core/durable/recall-port';
import { StoreError } from '../../core/durable/store-error';
import { checkDimensions } from '../memory/recall-input';
import { checkTableName } from '../sql/recall-schema';
import type { PgModuleLoader, PgPool } from './driver';
import { connectPg } from './connect';
import { PostgresRecallStore } from './postgres-recall-store';
import type { PostgresRecallTables } from './recall-schema';

/** Options of {@link postgresRecallStore}. */
export interface PostgresRecallStoreOptions {
  /** The size of your embedding model's vectors (1–8192); fixed when the tables are created. */
  dimensions: number;
  /** `postgres://user:password@host:5432/database`; without it (and `pool`), the `PG*` variables. */
  connectionString?: string;
  /** Your own `pg.Pool` (not ended on `close()`), e.g. the run store's. Exclusive with `connectionString`. */
  pool?: PgPool;
  /** The schema holding the tables (created by `migrate()`); default `public`. */
  schema?: string;
  /**
   * The prefix of the store's table and function (`<table>_entries`, `<table>_meta`,
   * `<table>_dot`); default `golem_recall`. One prefix holds one embedding size.
   */
  table?: string;
  /** Connections in the pool the store creates; default 10. */
  poolSize?: number;
  /** Migrate the schema on first use (default `true`); `false` only checks it (run `migrate()`). */
  migrate?: boolean;
  /** Loads `pg`; inject one to bundle it differently. */
  driver?: PgModuleLoader;
}

/**
 * A recall store in PostgreSQL through the optional peer `pg` (`npm install pg`), with exact
 * cosine similarity computed in SQL: each query scores every entry of the owner (cost grows with
 * the owner's entries × `dimensions`; about 130 ms for 10 000 entries of 256 dimensions on
 * PostgreSQL 15), filters on the owner's rows first, and returns the best `topK`. The table keeps
 * embeddings as `real[]`, so a pgvector index can be added later without a migration (see the
 * memory guide). Several stores may share a pool and a schema.
 *
 * ```ts
 * const recall = postgresRecallStore({ connectionString: process.env.DATABASE_URL, dimensions: 1536 });
 * ```
 */
export function postgresRecallStore(options: PostgresRecallStoreOptions): RecallStore {
  const store = 'postgresRecallStore';
  const invalid = (problem: string) =>
    new StoreError(`${store}: ${problem}`, { reason: 'invalid-options' });
  if (typeof options !== 'object' || (options as unknown) === null)
    throw invalid('options must be an object with `dimensions`');
  const { table = 'golem_recall' } = options;
  const dimensions = checkDimensions(store, options.dimensions);
  checkTableName(store, table);
  const { connections, owned, schema } = connectPg(store, options);
  const q = (name: string) => `"${schema}"."${name}"`;
  const tables: PostgresRecallTables = {
    meta: q(`${table}_meta`),
    entries: q(`${table}_entries`),
    dot: q(`${table}_dot`),
    prefix: table,
    dimensions,
  };
  return new PostgresRecallStore(
    connections,
    tables,
    `postgres recall store (schema "${schema}", table "${table}")`,
    owned,
    options.migrate !== false,
    [
      // The run store's migration lock: both create the schema, so they take turns.
      `SELECT pg_advisory_xact_lock(hashtext('golem_migrations:${schema}'))`,
      `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
    ],
  );
}
