import { StoreError } from '../../core/durable/store-error';

/** A query result, as `pg` returns it. */
export interface PgResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

/**
 * A query with a `name`: `pg` prepares it once per connection and then only binds and executes
 * it (one round trip, no parsing or planning on the server).
 */
export interface PgQueryConfig {
  name: string;
  text: string;
  values: unknown[];
}

/** A client checked out of a `pg` pool. */
export interface PgPoolClient {
  query(text: string, values?: unknown[]): Promise<PgResult>;
  query(config: PgQueryConfig): Promise<PgResult>;
  release(destroy?: boolean | Error): void;
}

/** The parts of a `pg.Pool` the store uses (pass your own pool, or let the store create one). */
export interface PgPool {
  query(text: string, values?: unknown[]): Promise<PgResult>;
  query(config: PgQueryConfig): Promise<PgResult>;
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The `pg` module's pool constructor. */
export interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPool;
}

/** Loads `pg`; inject one to bundle it differently or to test a missing install. */
export type PgModuleLoader = () => PgModule;

/** The default loader: a lazy `require`, so golem loads without the optional peer installed. */
export const requirePg: PgModuleLoader = () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer dependency, loaded only when a PostgreSQL store is created
  require('pg') as PgModule;

/** A driver error's `code` (SQLSTATE or socket code), or `''`. */
function codeOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
}

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** Whether `error` means the server could not be reached or the connection was lost. */
export function isConnectionError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : '';
  return (
    SOCKET_CODES.has(code) ||
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === '53300' ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(
      message,
    )
  );
}

/**
 * Whether `error` (a driver error, or a StoreError made of one) is the server aborting a
 * transaction to break a deadlock (`40P01`) or a serialisation failure (`40001`): running the
 * transaction again may succeed.
 */
export function isConcurrencyAbort(error: unknown): boolean {
  const code = codeOf(StoreError.is(error) ? error.cause : error);
  return code === '40P01' || code === '40001';
}

/** A `pg` error as a StoreError (never quoting connection settings). */
export function postgresError(label: string, error: unknown): StoreError {
  if (StoreError.is(error)) return error;
  const code = codeOf(error);
  const text = error instanceof Error ? error.message : String(error);
  if (isConnectionError(error))
    return new StoreError(
      `${label}: the connection to PostgreSQL failed or dropped (${code === '' ? text : `${code}: ${text}`}); the run stays resumable from its last checkpoint — retry when the server is reachable`,
      { reason: 'unavailable', cause: error },
    );
  if (code === '28P01' || code === '28000')
    return new StoreError(`${label}: PostgreSQL refused the credentials (${code})`, {
      reason: 'unavailable',
      retryable: false,
      cause: error,
    });
  if (code === '23505')
    return new StoreError(
      `${label}: another process wrote the same run or conversation at the same moment (${code}); retry`,
      { reason: 'conflict', cause: error },
    );
  if (code === '40001' || code === '40P01')
    return new StoreError(
      `${label}: the transaction was aborted by a concurrent one (${code}); retry`,
      {
        reason: 'failed',
        retryable: true,
        cause: error,
      },
    );
  return new StoreError(`${label}: ${code === '' ? '' : `${code}: `}${text}`, {
    reason: 'failed',
    cause: error,
  });
}
