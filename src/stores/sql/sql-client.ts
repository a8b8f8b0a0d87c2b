/** A row as a driver returns it. Internal. */
export type SqlRow = Record<string, unknown>;

/**
 * The little a SQL run store needs from a driver: statements with `?` placeholders, and
 * transactions that lock what they read. Errors are already `StoreError`s. Internal.
 */
export interface SqlClient {
  readonly dialect: 'sqlite' | 'postgres';
  /** Rows of a query. */
  all(sql: string, params?: readonly unknown[]): Promise<SqlRow[]>;
  /** Runs a statement; resolves the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Marks `sql` as run on every checkpoint: the client may prepare it once per connection
   * (PostgreSQL: a named statement). Optional; statements not marked are parsed each time.
   */
  prepare?(sql: string): void;
  /** Runs `body` in one transaction (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: `BEGIN`). */
  transaction<T>(body: (client: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Qualified names of the store's tables. Internal. */
export interface SqlTables {
  readonly runs: string;
  readonly conversations: string;
  readonly migrations: string;
  /** The working-memory table (schema version 5). */
  readonly workingMemory: string;
  /** The workflow runs table (schema version 6). */
  readonly workflowRuns: string;
  /** Appended to a row read inside a transaction to lock it (`FOR UPDATE` on PostgreSQL). */
  readonly lockSuffix: string;
}

/** Rewrites `?` placeholders as `$1`, `$2`, … (PostgreSQL). Our statements have no `?` in literals. */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
