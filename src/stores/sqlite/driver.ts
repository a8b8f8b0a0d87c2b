import { StoreError } from '../../core/durable/store-error';
import { loadDriver } from '../sql/load-driver';

/** The npm package the SQLite store uses (an optional peer dependency of golem). */
export const SQLITE_PACKAGE = 'better-sqlite3';

/** The parts of a better-sqlite3 statement the store uses. */
export interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
}

/** The parts of a better-sqlite3 database the store uses. */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): unknown;
}

/** The better-sqlite3 `Database` constructor. */
export type SqliteDriver = new (
  filename: string,
  options?: { timeout?: number; fileMustExist?: boolean },
) => SqliteDatabase;

/** Loads the driver; inject one to bundle it differently or to test a missing install. */
export type SqliteDriverLoader = () => SqliteDriver;

/** The default loader: a lazy `require`, so golem loads without the optional peer installed. */
export const requireSqliteDriver: SqliteDriverLoader = () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded only when a SQLite store is opened
  require('better-sqlite3') as SqliteDriver;

/** Runs `loader`; a missing module is a `driver-missing` StoreError saying what to install. */
export function loadSqliteDriver(loader: SqliteDriverLoader = requireSqliteDriver): SqliteDriver {
  return loadDriver(loader, 'sqliteStore', SQLITE_PACKAGE);
}

/** A better-sqlite3 error as a StoreError naming the file (driver errors keep their `code`). */
export function sqliteError(label: string, error: unknown): StoreError {
  if (StoreError.is(error)) return error;
  const raw =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const code = typeof raw === 'string' ? raw : '';
  const text = error instanceof Error ? error.message : String(error);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return new StoreError(
      `${label}: the database file is damaged or not a SQLite database (${code}: ${text}); nothing was changed — restore it from a backup or point the store at another file`,
      { reason: 'corrupt', cause: error },
    );
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new StoreError(
      `${label}: the database stayed locked by another connection past the busy timeout (${code}); retry`,
      { reason: 'unavailable', cause: error },
    );
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY'))
    return new StoreError(`${label}: cannot open the database for writing (${code}: ${text})`, {
      reason: 'unavailable',
      retryable: false,
      cause: error,
    });
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_FULL'))
    return new StoreError(`${label}: the database file could not be written (${code}: ${text})`, {
      reason: 'unavailable',
      cause: error,
    });
  return new StoreError(`${label}: ${code === '' ? '' : `${code}: `}${text}`, {
    reason: 'failed',
    cause: error,
  });
}
