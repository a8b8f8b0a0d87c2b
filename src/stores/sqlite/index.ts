/**
 * `golem/stores/sqlite`: the embedded run store — a SQLite file through the optional peer
 * `better-sqlite3` — and the embedded recall store for semantic memory (`sqliteRecallStore`, with
 * the optional peer `sqlite-vec`).
 * @packageDocumentation
 */
export { sqliteStore } from './sqlite-store';
export type { SqliteStoreOptions } from './sqlite-store';
export { sqliteRecallStore } from './recall-store';
export type { SqliteRecallStoreOptions } from './recall-store';
export type {
  RecallSqliteDatabase,
  RecallSqliteStatement,
  SqliteVecLoader,
  SqliteVecModule,
} from './recall-vec';
export type { SqliteDriver, SqliteDriverLoader, SqliteDatabase, SqliteStatement } from './driver';
export type { StoreOptions } from '../../core/durable/store-options';
// Response cache store.
export { sqliteCacheStore } from './cache-store';
export type { SqliteCacheStoreOptions, SqlResponseCacheStore } from './cache-store';
