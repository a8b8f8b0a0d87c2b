import { StoreError } from '../../core/durable/store-error';
import type { PgPool } from './driver';
import type { PgConnectionOptions } from './connect';
import { connectPg } from './connect';

/** The spend store's qualified table names and migration. Internal. */
export interface SpendTables {
  readonly windows: string;
  readonly holds: string;
  readonly ledger: string;
  /** Idempotent statements creating the schema and tables (run in one transaction). */
  readonly migration: readonly string[];
}

/** Validates `postgresSpendStore`'s options; opens (or takes) the pool. Internal. */
export function spendTables(options: PgConnectionOptions): {
  pool: PgPool;
  owned: boolean;
  tables: SpendTables;
} {
  const store = 'postgresSpendStore';
  const invalid = (problem: string) =>
    new StoreError(`${store}: ${problem}`, { reason: 'invalid-options' });
  if (typeof options !== 'object' || (options as unknown) === null)
    throw invalid('options must be an object');
  const { connections, owned, schema } = connectPg(store, options);
  const q = (name: string) => `"${schema}"."${name}"`;
  const windows = q('golem_spend_windows');
  const holds = q('golem_spend_holds');
  const ledger = q('golem_spend_ledger');
  return {
    pool: connections,
    owned,
    tables: {
      windows,
      holds,
      ledger,
      migration: [
        // One migration at a time per schema (the run store's lock: both create the schema).
        `SELECT pg_advisory_xact_lock(hashtext('golem_migrations:${schema}'))`,
        `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
        `CREATE TABLE IF NOT EXISTS ${windows} (
           key text PRIMARY KEY,
           spent double precision NOT NULL DEFAULT 0,
           expires_at bigint
         )`,
        `CREATE TABLE IF NOT EXISTS ${holds} (
           window_key text NOT NULL,
           id text NOT NULL,
           amount double precision NOT NULL,
           expires_at bigint NOT NULL,
           PRIMARY KEY (window_key, id)
         )`,
        `CREATE TABLE IF NOT EXISTS ${ledger} (
           seq bigserial PRIMARY KEY,
           at bigint NOT NULL,
           owner text,
           agent text,
           model text,
           conversation_id text,
           cost double precision NOT NULL,
           currency text NOT NULL,
           input_tokens bigint NOT NULL,
           output_tokens bigint NOT NULL
         )`,
        `CREATE INDEX IF NOT EXISTS golem_spend_ledger_at ON ${ledger} (at)`,
      ],
    },
  };
}
