import type { ResponseCacheStore } from '../../core/durable/response-cache-port';
import { StoreError } from '../../core/durable/store-error';
import type { SqlClient } from './sql-client';

/** How a SQL response cache store is built. Internal. */
export interface SqlCacheStoreConfig {
  readonly client: SqlClient;
  /** The table's qualified, quoted name. */
  readonly table: string;
  /** Statements that create the table (run once, in one transaction, before the first use). */
  readonly migration: readonly string[];
  /** The clock expiry is measured with (ms since the epoch). */
  readonly now: () => number;
  /** Whether `close()` closes the client (the store opened it). */
  readonly owned: boolean;
  /** `sqlite cache store "cache.db"`, for errors. */
  readonly label: string;
}

/**
 * A response cache store over one SQL table `(key PRIMARY KEY, value, expires_at)`; `expires_at`
 * is ms since the epoch by the store's clock, or NULL for never. An expired row is a miss and is
 * deleted when read; `prune()` deletes every expired row. Internal.
 */
export class SqlCacheStore implements ResponseCacheStore {
  private ready: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly config: SqlCacheStoreConfig) {}

  /** Creates the table if it is missing (also done before the first use). */
  migrate(): Promise<void> {
    this.ready ??= this.config.client
      .transaction(async (tx) => {
        for (const sql of this.config.migration) await tx.run(sql);
      })
      .catch((error: unknown) => {
        this.ready = undefined;
        throw error;
      });
    return this.ready;
  }

  async get(key: string): Promise<string | undefined> {
    const client = await this.open();
    const { table, now } = this.config;
    const rows = await client.all(`SELECT value, expires_at FROM ${table} WHERE key = ?`, [key]);
    const row = rows[0];
    if (row === undefined) return undefined;
    const expiresAt = row.expires_at === null ? undefined : Number(row.expires_at);
    const at = now();
    if (expiresAt !== undefined && !(expiresAt > at)) {
      await client.run(`DELETE FROM ${table} WHERE key = ? AND expires_at <= ?`, [key, at]);
      return undefined;
    }
    return typeof row.value === 'string' ? row.value : undefined;
  }

  async set(key: string, value: string, ttlMs: number | undefined): Promise<void> {
    const client = await this.open();
    const expiresAt = ttlMs === undefined ? null : Math.ceil(this.config.now() + ttlMs);
    await client.run(
      `INSERT INTO ${this.config.table} (key, value, expires_at) VALUES (?, ?, ?) ` +
        'ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
      [key, value, expiresAt],
    );
  }

  async delete(key: string): Promise<void> {
    const client = await this.open();
    await client.run(`DELETE FROM ${this.config.table} WHERE key = ?`, [key]);
  }

  /** Deletes every expired entry; resolves how many there were. */
  async prune(): Promise<number> {
    const client = await this.open();
    return client.run(`DELETE FROM ${this.config.table} WHERE expires_at <= ?`, [
      this.config.now(),
    ]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.config.owned) await this.config.client.close();
  }

  private async open(): Promise<SqlClient> {
    if (this.closed)
      throw new StoreError(`${this.config.label}: the store is closed`, { reason: 'closed' });
    await this.migrate();
    return this.config.client;
  }
}
