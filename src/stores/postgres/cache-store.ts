import { StoreError } from '../../core/durable/store-error';
import { checkTableName } from '../sql/recall-schema';
import { SqlCacheStore } from '../sql/sql-cache-store';
import type { PgModuleLoader, PgPool } from './driver';
import { connectPg } from './connect';
import { PostgresClient } from './postgres-client';

/** Options of {@link postgresCacheStore}. */
export interface PostgresCacheStoreOptions {
  /** `postgres://user:password@host:5432/database`; without it (and `pool`), the `PG*` variables. */
  connectionString?: string;
  /** Your own `pg.Pool` (not ended on `close()`), e.g. the run store's. Exclusive with `connectionString`. */
  pool?: PgPool;
  /** The schema holding the table (created on first use); default `public`. */
  schema?: string;
  /** The table; default `golem_response_cache`. */
  table?: string;
  /** Connections in the pool the store creates; default 10. */
  poolSize?: number;
  /** The clock expiry is measured with (ms since the epoch); default `Date.now`. Inject one in tests. */
  now?: () => number;
  /** Loads `pg`; inject one to bundle it differently. */
  driver?: PgModuleLoader;
}

/** A response cache store with `prune()`, `migrate()` and `close()`. */
export interface PostgresResponseCacheStore {
  /** The value under `key`, or `undefined` (none, or expired). */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` (an upsert), living `ttlMs` ms or forever. */
  set(key: string, value: string, ttlMs: number | undefined): Promise<void>;
  /** Removes the entry under `key`. */
  delete(key: string): Promise<void>;
  /** Deletes every expired entry (reads delete the expired ones they meet); resolves how many. */
  prune(): Promise<number>;
  /** Creates the schema and table if missing (done before the first use anyway). */
  migrate(): Promise<void>;
  /** Ends the pool the store created (not one you passed in). */
  close(): Promise<void>;
}

/**
 * A response cache store in PostgreSQL through the optional peer `pg`, shared by every worker:
 * the table `golem_response_cache (key PRIMARY KEY, value, expires_at)` in `schema`, created on
 * first use; writes are upserts. `expires_at` is ms since the epoch by the store's `now`. An
 * expired row is a miss and is deleted when read; `prune()` clears the rest. It may share the run
 * store's pool and schema.
 *
 * ```ts
 * const cache = responseCache({ store: postgresCacheStore({ connectionString: process.env.DATABASE_URL }), ttl: 86_400_000 });
 * ```
 */
export function postgresCacheStore(
  options: PostgresCacheStoreOptions = {},
): PostgresResponseCacheStore {
  const store = 'postgresCacheStore';
  const invalid = (problem: string) =>
    new StoreError(`${store}: ${problem}`, { reason: 'invalid-options' });
  if (typeof options !== 'object' || (options as unknown) === null)
    throw invalid('options must be an object');
  const { table = 'golem_response_cache' } = options;
  const now = options.now ?? Date.now;
  checkTableName(store, table);
  if (typeof now !== 'function') throw invalid('`now` must be a function returning milliseconds');
  const { connections, owned, schema } = connectPg(store, options);
  const label = `postgres cache store (schema "${schema}", table "${table}")`;
  const qualified = `"${schema}"."${table}"`;
  return new SqlCacheStore({
    client: new PostgresClient(connections, label, owned, false),
    table: qualified,
    migration: [
      // The run store's migration lock: both may create the schema, so they take turns.
      `SELECT pg_advisory_xact_lock(hashtext('golem_migrations:${schema}'))`,
      `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
      `CREATE TABLE IF NOT EXISTS ${qualified} (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at BIGINT)`,
      `CREATE INDEX IF NOT EXISTS "${table}_expires" ON ${qualified} (expires_at)`,
    ],
    now,
    owned,
    label,
  });
}
