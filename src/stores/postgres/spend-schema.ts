import { StoreError } from '../../core/durable/store-error';
import { isModuleNotFound } from '../../core/kit/missing-peer';
import type { PgModuleLoader, PgPool } from './driver';
import { requirePg } from './driver';

/** The spend store's qualified table names and migration. Internal. */
export interface SpendTables {
  readonly windows: string;
  readonly holds: string;
  readonly ledger: string;
  /** Idempotent statements creating the schema and tables (run in one transaction). */
  readonly migration: readonly string[];
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Validates `postgresSpendStore`'s options; opens (or takes) the pool. Internal. */
export function spendTables(options: {
  connectionString?: string;
  pool?: PgPool;
  schema?: string;
  poolSize?: number;
  driver?: PgModuleLoader;
}): { pool: PgPool; owned: boolean; tables: SpendTables } {
  const store = 'postgresSpendStore';
  const invalid = (problem: string) =>
    new StoreError(`${store}: ${problem}`, { reason: 'invalid-options' });
  if (typeof options !== 'object' || (options as unknown) === null)
    throw invalid('options must be an object');
  const { connectionString, pool, schema = 'public', poolSize = 10 } = options;
  if (connectionString !== undefined && pool !== undefined)
    throw invalid('give either `connectionString` or `pool`, not both');
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema))
    throw invalid('`schema` must be an identifier: a letter or "_", then letters, digits or "_"');
  if (!Number.isInteger(poolSize) || poolSize < 1)
    throw invalid('`poolSize` must be a positive integer');
  let connections: PgPool;
  if (pool !== undefined) {
    if (typeof pool.query !== 'function' || typeof pool.connect !== 'function')
      throw invalid('`pool` must be a pg.Pool');
    connections = pool;
  } else {
    let pg: ReturnType<PgModuleLoader>;
    try {
      pg = (options.driver ?? requirePg)();
    } catch (error) {
      if (isModuleNotFound(error))
        throw new StoreError(
          `${store}: the package pg is not installed; it is an optional peer dependency of golem: run \`npm install pg\``,
          { reason: 'driver-missing', cause: error },
        );
      throw error;
    }
    connections = new pg.Pool({
      ...(connectionString !== undefined && { connectionString }),
      max: poolSize,
      application_name: 'golem',
    });
    // An idle client losing its connection must not crash the process; the next query reports it.
    connections.on('error', () => undefined);
  }
  const q = (name: string) => `"${schema}"."${name}"`;
  const windows = q('golem_spend_windows');
  const holds = q('golem_spend_holds');
  const ledger = q('golem_spend_ledger');
  return {
    pool: connections,
    owned: pool === undefined,
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
