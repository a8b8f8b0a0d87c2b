import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RecallStore } from '../../core/durable/recall-port';
import { quote, StoreError } from '../../core/durable/store-error';
import { isModuleNotFound } from '../../core/kit/missing-peer';
import { checkDimensions } from '../memory/recall-input';
import { checkTableName } from '../sql/recall-schema';
import type { SqliteDriverLoader } from './driver';
import { requireSqliteDriver, sqliteError } from './driver';
import type { SqliteRecallTables } from './recall-schema';
import type { RecallSqliteDatabase, SqliteVecLoader } from './recall-vec';
import { loadSqliteVec, missingPeer, requireSqliteVec } from './recall-vec';
import { SqliteRecallStore } from './sqlite-recall-store';

/** Options of {@link sqliteRecallStore}: `path` or `database`, and `dimensions`. */
export interface SqliteRecallStoreOptions {
  /** The size of your embedding model's vectors (1–8192); fixed when the tables are created. */
  dimensions: number;
  /**
   * The database file (created if missing; its folder must exist), or `':memory:'`. It may be the
   * run store's file: the recall tables have their own names and schema version.
   */
  path?: string;
  /**
   * A better-sqlite3 database you opened (exclusive with `path`): the store loads sqlite-vec into
   * it and does not close it. Do not share it with a run store's open transaction.
   */
  database?: RecallSqliteDatabase;
  /**
   * The prefix of the store's tables (`<table>_entries`, `<table>_vectors`, `<table>_meta`);
   * default `golem_recall`. One prefix holds one embedding size: give another to keep a second
   * model's vectors in the same file.
   */
  table?: string;
  /**
   * Vectors per sqlite-vec chunk, a multiple of 8 (default 32), used when the tables are created.
   * Each owner's vectors are kept in their own chunks, so an owner's first entry reserves
   * `chunkSize × dimensions × 4` bytes (192 KiB at 1536 dimensions); a query scans the owner's
   * chunks only.
   */
  chunkSize?: number;
  /** How long a write waits for another process's write lock, in ms; default 5 000. */
  busyTimeout?: number;
  /** Migrate the schema on first use (default `true`); `false` only checks it (run `migrate()`). */
  migrate?: boolean;
  /** Loads `better-sqlite3` (with `path`); inject one to bundle it differently. */
  driver?: SqliteDriverLoader;
  /** Loads `sqlite-vec`; inject one to bundle it differently. */
  extension?: SqliteVecLoader;
}

/**
 * A recall store in a SQLite file through the optional peers `better-sqlite3` and `sqlite-vec`
 * (`npm install better-sqlite3 sqlite-vec`; sqlite-vec's npm package ships the extension for
 * Linux, macOS and Windows). Search is exact (sqlite-vec's brute-force KNN over the owner's
 * vectors, 32-bit floats, cosine distance) and filters run inside the search, so a filtered query
 * still returns up to `topK` hits. The file is opened at once.
 *
 * ```ts
 * const recall = sqliteRecallStore({ path: 'memory.db', dimensions: 1536 });
 * ```
 */
export function sqliteRecallStore(options: SqliteRecallStoreOptions): RecallStore {
  const store = 'sqliteRecallStore';
  const invalid = (problem: string) =>
    new StoreError(`${store}: ${problem}`, { reason: 'invalid-options' });
  if (typeof options !== 'object' || (options as unknown) === null)
    throw invalid('options must be an object with `dimensions` and a `path` or `database`');
  const { path, database, table = 'golem_recall', chunkSize = 32, busyTimeout = 5_000 } = options;
  const dimensions = checkDimensions(store, options.dimensions);
  checkTableName(store, table);
  if ((path === undefined) === (database === undefined))
    throw invalid('give either `path` (a file name or ":memory:") or `database`, not both');
  if (path !== undefined && (typeof path !== 'string' || path === ''))
    throw invalid("`path` must be a file name (or ':memory:')");
  if (database !== undefined && typeof database.loadExtension !== 'function')
    throw invalid('`database` must be a better-sqlite3 Database');
  if (!Number.isInteger(chunkSize) || chunkSize < 8 || chunkSize % 8 !== 0)
    throw invalid(`\`chunkSize\` must be a positive multiple of 8; got ${quote(chunkSize)}`);
  if (!Number.isInteger(busyTimeout) || busyTimeout < 0)
    throw invalid('`busyTimeout` must be a non-negative integer of milliseconds');
  const label = `sqlite recall store ${path === undefined ? '(your database)' : quote(path)}`;
  let db = database;
  if (db === undefined) {
    const folder = missingFolder(path as string);
    if (folder !== undefined)
      throw new StoreError(
        `${store}: cannot open ${quote(path)}: the folder ${quote(folder)} does not exist; create it first (fs.mkdirSync(folder, { recursive: true })) — the store creates the file, not its folder`,
        { reason: 'unavailable', retryable: false },
      );
    let Driver: ReturnType<SqliteDriverLoader>;
    try {
      Driver = (options.driver ?? requireSqliteDriver)();
    } catch (error) {
      if (isModuleNotFound(error)) throw missingPeer('better-sqlite3', error);
      throw error;
    }
    try {
      db = new Driver(path as string, { timeout: busyTimeout }) as unknown as RecallSqliteDatabase;
      db.pragma('journal_mode = WAL');
    } catch (error) {
      throw sqliteError(label, error);
    }
  }
  try {
    loadSqliteVec(db, options.extension ?? requireSqliteVec);
  } catch (error) {
    if (database === undefined) db.close();
    throw error;
  }
  const tables: SqliteRecallTables = {
    meta: `${table}_meta`,
    entries: `${table}_entries`,
    vectors: `${table}_vectors`,
    dimensions,
    chunkSize,
  };
  return new SqliteRecallStore(
    db,
    tables,
    label,
    database === undefined,
    options.migrate !== false,
  );
}

/** The folder of a database file when it does not exist (`':memory:'` and `file:` URIs have none). */
function missingFolder(path: string): string | undefined {
  const file = path.trim();
  if (file === ':memory:' || file.startsWith('file:')) return undefined;
  const folder = dirname(resolve(file));
  return existsSync(folder) ? undefined : folder;
}
