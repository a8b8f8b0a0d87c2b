/**
 * `golem/stores/postgres`: a run store in PostgreSQL through the optional peer `pg`, and a recall
 * store for semantic memory (`postgresRecallStore`, exact similarity in SQL).
 * @packageDocumentation
 */
export { postgresStore } from './postgres-store';
export type { PostgresStoreOptions } from './postgres-store';
export { postgresRecallStore } from './recall-store';
export type { PostgresRecallStoreOptions } from './recall-store';
export type {
  PgPool,
  PgPoolClient,
  PgQueryConfig,
  PgResult,
  PgModule,
  PgModuleLoader,
} from './driver';
export type { StoreOptions } from '../../core/durable/store-options';
// Response cache store.
export { postgresCacheStore } from './cache-store';
export type { PostgresCacheStoreOptions, PostgresResponseCacheStore } from './cache-store';
export { postgresSpendStore } from './spend-store';
export type { PostgresSpendStoreOptions } from './spend-store';
