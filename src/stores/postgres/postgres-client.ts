import { createHash } from 'node:crypto';
import type { SqlClient, SqlRow } from '../sql/sql-client';
import { numberedPlaceholders } from '../sql/sql-client';
import type { PgPool, PgPoolClient, PgResult } from './driver';
import { isConcurrencyAbort, isConnectionError, postgresError } from './driver';

/**
 * How many times a transaction aborted by the server to break a deadlock (or a serialisation
 * failure) is run again. Golem's transactions are short and only read and write rows, so running
 * one again is safe; the server aborts one of two deadlocked transactions, so the other goes on.
 */
const ATTEMPTS = 5;

/** Who runs a statement: the pool, or the client a transaction checked out. */
type Target = Pick<PgPool, 'query'>;

/** A {@link SqlClient} over a `pg` pool; transactions run on one checked-out client. Internal. */
export class PostgresClient implements SqlClient {
  readonly dialect = 'postgres';
  private readonly texts = new Map<string, string>();
  /** Statement names by SQL, for the statements {@link prepare} marked. */
  private readonly names = new Map<string, string>();

  constructor(
    private readonly pool: PgPool,
    private readonly label: string,
    private readonly ownsPool: boolean,
    /** Whether marked statements are named (prepared once per connection). */
    private readonly prepared: boolean,
  ) {}

  prepare(sql: string): void {
    if (!this.prepared || this.names.has(sql)) return;
    // Named by content: the same statement has the same name in every store (and every copy of
    // golem) sharing a pool, and different statements never share one.
    const digest = createHash('sha1').update(this.text(sql)).digest('hex');
    this.names.set(sql, `golem_${digest.slice(0, 32)}`);
  }

  async all(sql: string, params: readonly unknown[] = []): Promise<SqlRow[]> {
    return (await this.query(this.pool, sql, params)).rows;
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.query(this.pool, sql, params)).rowCount ?? 0;
  }

  /**
   * Runs `body` in one transaction on a checked-out connection. A transaction the server aborted
   * as a deadlock victim or a serialisation failure (`40P01`, `40001`) is rolled back and run
   * again, up to {@link ATTEMPTS} times in all, so such an abort never reaches the run (which would
   * then stay `running`, holding its conversation).
   */
  async transaction<T>(body: (client: SqlClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(body);
      } catch (error) {
        if (attempt >= ATTEMPTS || !isConcurrencyAbort(error)) throw error;
      }
    }
  }

  private async once<T>(body: (client: SqlClient) => Promise<T>): Promise<T> {
    let client: PgPoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw postgresError(this.label, error);
    }
    const query = (sql: string, params: readonly unknown[]) => this.query(client, sql, params);
    const inside: SqlClient = {
      dialect: 'postgres',
      all: async (sql, params = []) => (await query(sql, params)).rows,
      run: async (sql, params = []) => (await query(sql, params)).rowCount ?? 0,
      transaction: () => Promise.reject(new Error('nested transactions are not supported')),
      close: () => Promise.resolve(),
    };
    let broken = false;
    try {
      await query('BEGIN', []);
      const result = await body(inside);
      await query('COMMIT', []);
      return result;
    } catch (error) {
      broken = isConnectionError((error as { cause?: unknown }).cause);
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      // A connection that failed is destroyed rather than returned to the pool.
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }

  private async query(target: Target, sql: string, params: readonly unknown[]): Promise<PgResult> {
    const name = this.names.get(sql);
    try {
      return name === undefined
        ? await target.query(this.text(sql), [...params])
        : await target.query({ name, text: this.text(sql), values: [...params] });
    } catch (error) {
      throw postgresError(this.label, error);
    }
  }

  private text(sql: string): string {
    let text = this.texts.get(sql);
    if (text === undefined) {
      text = numberedPlaceholders(sql);
      this.texts.set(sql, text);
    }
    return text;
  }
}
