import type { SqlClient, SqlRow } from '../sql/sql-client';
import { numberedPlaceholders } from '../sql/sql-client';
import type { PgPool, PgPoolClient } from './driver';
import { isConnectionError, postgresError } from './driver';

/** A {@link SqlClient} over a `pg` pool; transactions run on one checked-out client. Internal. */
export class PostgresClient implements SqlClient {
  readonly dialect = 'postgres';
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly pool: PgPool,
    private readonly label: string,
    private readonly ownsPool: boolean,
  ) {}

  async all(sql: string, params: readonly unknown[] = []): Promise<SqlRow[]> {
    try {
      return (await this.pool.query(this.text(sql), [...params])).rows;
    } catch (error) {
      throw postgresError(this.label, error);
    }
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    try {
      return (await this.pool.query(this.text(sql), [...params])).rowCount ?? 0;
    } catch (error) {
      throw postgresError(this.label, error);
    }
  }

  async transaction<T>(body: (client: SqlClient) => Promise<T>): Promise<T> {
    let client: PgPoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw postgresError(this.label, error);
    }
    const query = async (sql: string, params: readonly unknown[]) => {
      try {
        return await client.query(this.text(sql), [...params]);
      } catch (error) {
        throw postgresError(this.label, error);
      }
    };
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

  private text(sql: string): string {
    let text = this.texts.get(sql);
    if (text === undefined) {
      text = numberedPlaceholders(sql);
      this.texts.set(sql, text);
    }
    return text;
  }
}
