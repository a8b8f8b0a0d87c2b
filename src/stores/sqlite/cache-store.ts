import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ResponseCacheStore } from '../../core/durable/response-cache-port';
import { quote, StoreError } from '../../core/durable/store-error';
import { checkTableName } from '../sql/recall-schema';
import { SqlCacheStore } from '../sql/sql-cache-store';
import type { SqliteDatabase, SqliteDriverLoader } from './driver';
import { loadSqliteDriver, sqliteError } from './driver';
import { SqliteClient } from './sqlite-client';

/** Options of {@link sqliteCacheStore}: `path` or `database`. */
export interface SqliteCacheStoreOptions {
  /**
   * The database file (created if missing; its folder must exist), or `':memory:'`. It may be the
   * run store's file: the cache has its own table.
   */
  path?: string;
  /** A better-sqlite3 database you opened (exclusive with `path`); the store does not close it. */
  database?: SqliteDatabase;
  /** The table; default `golem_response_cache`. */
  table?: string;
  /** How long a write waits for another process's write lock, in ms; default 5 000 (with `path`). */
  busyTimeout?: number;
  /** The clock expiry is measured with (ms since the epoch); default `Date.now`. Inject one in tests. */
  now?: () => number;
  /** Loads `better-sqlite3` (with `path`); inject one to bundle it differently. */
  driver?: SqliteDriverLoader;
}

/** A response cache store with `prune()` and `close()`. */
export interface SqlResponseCacheStore extends ResponseCacheStore {
  /** Deletes every expired entry (reads delete the expired ones they meet); resolves how many. */
  prune(): Promise<number>;
  /** Creates the table if missing (done before the first use anyway). */
  migrate(): Promise<void>;
  /** Closes the database the store opened (not one you passed in). */
  close(): Promise<void>;
}

/**
 * A response cache store in a SQLite file through the optional peer `better-sqlite3`: the table
 * `golem_response_cache (key PRIMARY KEY, value, expires_at)`, created on first use. It may share
 * the run store's file (`sqliteCacheStore({ path: 'runs.db' })`). An expired row is a miss and is
 * deleted when read; `prune()` clears the rest.
 *
 * ```ts
 * const cache = responseCache({ store: sqliteCacheStore({ path: 'runs.db' }), ttl: 86_400_000 });
 * ```
 */
export function sqliteCacheStore(options: SqliteCacheStoreOptions): SqlResponseCacheStore {
  const store = 'sqliteCacheStore';
  const invalid = (problem: string) =>
    new StoreError(`${store}: ${problem}`, { reason: 'invalid-options' });
  if (typeof options !== 'object' || (options as unknown) === null)
    throw invalid('options must be an object with a `path` or a `database`');
  const { path, database, table = 'golem_response_cache', busyTimeout = 5_000 } = options;
  const now = options.now ?? Date.now;
  checkTableName(store, table);
  if ((path === undefined) === (database === undefined))
    throw invalid('give either `path` (a file name or ":memory:") or `database`, not both');
  if (path !== undefined && (typeof path !== 'string' || path === ''))
    throw invalid("`path` must be a file name (or ':memory:')");
  if (database !== undefined && typeof database.prepare !== 'function')
    throw invalid('`database` must be a better-sqlite3 Database');
  if (!Number.isInteger(busyTimeout) || busyTimeout < 0)
    throw invalid('`busyTimeout` must be a non-negative integer of milliseconds');
  if (typeof now !== 'function') throw invalid('`now` must be a function returning milliseconds');
  const label = `sqlite cache store ${path === undefined ? '(your database)' : quote(path)}`;
  let db = database;
  if (db === undefined) {
    const file = (path as string).trim();
    const folder =
      file === ':memory:' || file.startsWith('file:') ? undefined : dirname(resolve(file));
    if (folder !== undefined && !existsSync(folder))
      throw new StoreError(
        `${store}: cannot open ${quote(path)}: the folder ${quote(folder)} does not exist; create it first — the store creates the file, not its folder`,
        { reason: 'unavailable', retryable: false },
      );
    const Driver = loadSqliteDriver(options.driver);
    try {
      db = new Driver(path as string, { timeout: busyTimeout });
      db.pragma('journal_mode = WAL');
    } catch (error) {
      try {
        db?.close();
      } catch {
        // the handle may not have opened
      }
      throw sqliteError(label, error);
    }
  }
  return new SqlCacheStore({
    client: new SqliteClient(db, label),
    table: `"${table}"`,
    migration: [
      `CREATE TABLE IF NOT EXISTS "${table}" (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER)`,
      `CREATE INDEX IF NOT EXISTS "${table}_expires" ON "${table}" (expires_at)`,
    ],
    now,
    owned: database === undefined,
    label,
  });
}
