import { StoreError } from '../../core/durable/store-error';
import { isModuleNotFound } from '../../core/kit/missing-peer';

/** The npm package that ships the sqlite-vec extension (an optional peer dependency of golem). */
export const SQLITE_VEC_PACKAGE = 'sqlite-vec';

/** The parts of a better-sqlite3 statement the recall store uses. */
export interface RecallSqliteStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}

/** The parts of a better-sqlite3 database the recall store uses. */
export interface RecallSqliteDatabase {
  prepare(sql: string): RecallSqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  loadExtension(file: string, entryPoint?: string): unknown;
  close(): unknown;
}

/** The `sqlite-vec` module: `load(db)` loads the extension into a better-sqlite3 database. */
export interface SqliteVecModule {
  load(db: { loadExtension(file: string, entryPoint?: string): unknown }): void;
}

/** Loads `sqlite-vec`; inject one to bundle it differently or to test a missing install. */
export type SqliteVecLoader = () => SqliteVecModule;

/** The default loader: a lazy `require`, so golem loads without the optional peer installed. */
export const requireSqliteVec: SqliteVecLoader = () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded only when a SQLite recall store is opened
  require('sqlite-vec') as SqliteVecModule;

/** The error for a peer that is not installed, naming what to install. */
export function missingPeer(packageName: string, cause: unknown): StoreError {
  return new StoreError(
    `sqliteRecallStore: the package ${packageName} is not installed; it is an optional peer dependency of golem: run \`npm install better-sqlite3 sqlite-vec\``,
    { reason: 'driver-missing', cause },
  );
}

/**
 * Loads the sqlite-vec extension into `db`. A missing `sqlite-vec` package, or one without the
 * extension for this platform, is a `driver-missing` StoreError.
 */
export function loadSqliteVec(db: RecallSqliteDatabase, loader: SqliteVecLoader): void {
  let vec: SqliteVecModule;
  try {
    vec = loader();
  } catch (error) {
    if (isModuleNotFound(error)) throw missingPeer(SQLITE_VEC_PACKAGE, error);
    throw error;
  }
  try {
    vec.load(db);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    throw new StoreError(
      `sqliteRecallStore: the sqlite-vec extension could not be loaded (${text}); reinstall sqlite-vec so npm adds its package for this platform (sqlite-vec-${process.platform}-${process.arch}), or check that this better-sqlite3 build allows extensions`,
      { reason: 'driver-missing', cause: error },
    );
  }
}
