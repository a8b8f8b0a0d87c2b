import { StoreError } from '../../core/durable/store-error';
import { loadDriver } from '../sql/load-driver';
import type { PgModuleLoader, PgPool } from './driver';
import { requirePg } from './driver';

/** A PostgreSQL schema name the stores accept (an unquoted identifier). */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The connection options every PostgreSQL store of golem takes. Internal. */
export interface PgConnectionOptions {
  connectionString?: string | undefined;
  pool?: PgPool | undefined;
  schema?: string | undefined;
  poolSize?: number | undefined;
  driver?: PgModuleLoader | undefined;
}

/** A store's checked connection. Internal. */
export interface PgConnection {
  /** The pool: the caller's, or one opened here. */
  readonly connections: PgPool;
  /** Whether the store opened the pool (and so ends it on `close()`). */
  readonly owned: boolean;
  /** The schema, checked. */
  readonly schema: string;
}

/**
 * Checks a store's connection options and opens its pool (through the optional peer `pg`) unless
 * the caller gave one: `connectionString` and `pool` are exclusive, the schema is an identifier,
 * the pool size a positive integer. Every failure is an `invalid-options` StoreError naming
 * `store`; a missing `pg` is `driver-missing`. An idle client losing its connection never crashes
 * the process (the next query reports it). Internal.
 */
export function connectPg(
  store: string,
  options: PgConnectionOptions,
  /** More settings of a pool opened here (e.g. the run store's `synchronous_commit`). */
  poolConfig: Record<string, unknown> = {},
): PgConnection {
  const invalid = (problem: string): StoreError =>
    new StoreError(`${store}: ${problem}`, { reason: 'invalid-options' });
  const { connectionString, pool, schema = 'public', poolSize = 10 } = options;
  if (connectionString !== undefined && pool !== undefined)
    throw invalid('give either `connectionString` or `pool`, not both');
  if (
    connectionString !== undefined &&
    (typeof connectionString !== 'string' || connectionString === '')
  )
    throw invalid('`connectionString` must be a non-empty string');
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
    const pg = loadDriver(options.driver ?? requirePg, store, 'pg');
    connections = new pg.Pool({
      ...(connectionString !== undefined && { connectionString }),
      max: poolSize,
      application_name: 'golem',
      ...poolConfig,
    });
  }
  connections.on('error', () => undefined);
  return { connections, owned: pool === undefined, schema };
}
