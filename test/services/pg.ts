/**
 * Raw PostgreSQL access for the services suites (typed by golem's own `PgModule`): schemas made
 * and dropped per test, statements the tests run beside the store.
 */
import { randomUUID } from 'node:crypto';
import type { PgModule, PgPool } from 'golem/stores/postgres';
import { POSTGRES_URL } from './postgres-url';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver under test, typed by golem's PgModule
export const pg = require('pg') as PgModule;

/** A pool on the test server (or on `url`). */
export function testPool(url: string = POSTGRES_URL): PgPool {
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => undefined);
  return pool;
}

/** A fresh schema name, unique per test: `golem_t_<random>`. */
export function schemaName(): string {
  return `golem_t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/** Drops `schema` and everything in it. */
export async function dropSchema(pool: PgPool, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
