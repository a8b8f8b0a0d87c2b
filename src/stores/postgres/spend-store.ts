import type {
  SpendDimension,
  SpendReserveResult,
  SpendRow,
  SpendStore,
  SpendWindow,
} from '../../core/durable/spend-port';
import { StoreError } from '../../core/durable/store-error';
import type { PgModuleLoader, PgPool, PgPoolClient } from './driver';
import { postgresError } from './driver';
import { spendTables } from './spend-schema';
import type { SpendTables } from './spend-schema';

/** Options of {@link postgresSpendStore}. */
export interface PostgresSpendStoreOptions {
  /** `postgres://user:password@host:5432/database`; without it (and `pool`), the `PG*` variables. */
  connectionString?: string;
  /** Your own `pg.Pool` (not ended on `close()`). Exclusive with `connectionString`. */
  pool?: PgPool;
  /** The schema holding the tables (created on first use); default `public`. */
  schema?: string;
  /** Connections in the pool the store creates; default 10. */
  poolSize?: number;
  /** Loads `pg`; inject one to bundle it differently. */
  driver?: PgModuleLoader;
}

const EPSILON = 1e-9;
const COLUMNS: Record<SpendDimension, string> = {
  owner: 'owner',
  agent: 'agent',
  model: 'model',
  conversationId: 'conversation_id',
};

/**
 * A spend store in PostgreSQL through the optional peer `pg`, shared by every worker on the same
 * database and schema. Tables `golem_spend_windows` (totals per window), `golem_spend_holds`
 * (reservations with their expiry) and `golem_spend_ledger` (one row per settled call) are created
 * on first use. A reservation is one transaction that locks the call's window rows
 * (`SELECT … FOR UPDATE`, in key order so workers never deadlock), drops expired holds, checks
 * every window and inserts the holds: concurrent reservations on a window run one after the other.
 * Reports are `GROUP BY` queries on the ledger. Driver errors are StoreErrors.
 */
export function postgresSpendStore(options: PostgresSpendStoreOptions = {}): SpendStore {
  const { pool, owned, tables } = spendTables(options);
  let ready: Promise<void> | undefined;
  const migrate = (): Promise<void> =>
    (ready ??= (async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (const statement of tables.migration) await client.query(statement);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    })().catch((error: unknown) => {
      ready = undefined;
      throw fail('migrate', error);
    }));

  const transaction = async <T>(
    operation: string,
    body: (client: PgPoolClient) => Promise<T>,
  ): Promise<T> => {
    await migrate();
    let client: PgPoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw fail(operation, error);
    }
    try {
      await client.query('BEGIN');
      const result = await body(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      throw fail(operation, error);
    }
  };

  /** Creates the windows' rows if new and locks them, in key order. */
  const lock = async (client: PgPoolClient, t: SpendTables, windows: readonly SpendWindow[]) => {
    const keys = [...new Set(windows.map((w) => w.key))].sort();
    const expires = keys.map((k) => windows.find((w) => w.key === k)?.expiresAt ?? null);
    await client.query(
      `INSERT INTO ${t.windows} (key, spent, expires_at)
       SELECT k, 0, e FROM unnest($1::text[], $2::bigint[]) AS u(k, e)
       ON CONFLICT (key) DO NOTHING`,
      [keys, expires],
    );
    await client.query(`SELECT key FROM ${t.windows} WHERE key = ANY($1) ORDER BY key FOR UPDATE`, [
      keys,
    ]);
    return keys;
  };

  return {
    async reserve(reservation): Promise<SpendReserveResult> {
      const { id, windows, amount, ttlMs, now } = reservation;
      if (windows.length === 0) return { ok: true };
      return transaction('reserve', async (client) => {
        const keys = await lock(client, tables, windows);
        await client.query(
          `DELETE FROM ${tables.holds} WHERE window_key = ANY($1) AND expires_at <= $2`,
          [keys, now],
        );
        const { rows } = await client.query(
          `SELECT w.key, w.spent, COALESCE(SUM(h.amount), 0) AS reserved
           FROM ${tables.windows} w LEFT JOIN ${tables.holds} h ON h.window_key = w.key
           WHERE w.key = ANY($1) GROUP BY w.key, w.spent`,
          [keys],
        );
        const totals = new Map(rows.map((r) => [String(r.key), r]));
        for (const window of windows) {
          const row = totals.get(window.key);
          const spent = Number(row?.spent ?? 0);
          const reserved = Number(row?.reserved ?? 0);
          if (spent + reserved + amount > window.limit + EPSILON)
            return { ok: false, window, spent, reserved };
        }
        await client.query(
          `INSERT INTO ${tables.holds} (window_key, id, amount, expires_at)
           SELECT k, $2, $3, $4 FROM unnest($1::text[]) AS k
           ON CONFLICT (window_key, id) DO UPDATE SET amount = EXCLUDED.amount, expires_at = EXCLUDED.expires_at`,
          [keys, id, amount, now + ttlMs],
        );
        return { ok: true } as const;
      });
    },
    async settle(id, windows, actual, entry) {
      await transaction('settle', async (client) => {
        const keys = await lock(client, tables, windows);
        await client.query(`DELETE FROM ${tables.holds} WHERE window_key = ANY($1) AND id = $2`, [
          keys,
          id,
        ]);
        await client.query(`UPDATE ${tables.windows} SET spent = spent + $2 WHERE key = ANY($1)`, [
          keys,
          actual,
        ]);
        await client.query(
          `INSERT INTO ${tables.ledger}
           (at, owner, agent, model, conversation_id, cost, currency, input_tokens, output_tokens)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            entry.at,
            entry.owner ?? null,
            entry.agent ?? null,
            entry.model ?? null,
            entry.conversationId ?? null,
            entry.cost,
            entry.currency,
            entry.inputTokens,
            entry.outputTokens,
          ],
        );
      });
    },
    async release(id, windows) {
      if (windows.length === 0) return;
      await migrate();
      await pool
        .query(`DELETE FROM ${tables.holds} WHERE window_key = ANY($1) AND id = $2`, [
          windows.map((w) => w.key),
          id,
        ])
        .catch((error: unknown) => {
          throw fail('release', error);
        });
    },
    async report(query): Promise<SpendRow[]> {
      await migrate();
      const dims = (['owner', 'agent', 'model', 'conversationId'] as const).filter((d) =>
        query.by.includes(d),
      );
      const cols = [...dims.map((d) => COLUMNS[d]), 'currency'];
      const sql = `SELECT ${cols.join(', ')}, SUM(cost) AS cost, COUNT(*) AS calls,
        SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens
        FROM ${tables.ledger} WHERE at >= $1 AND at < $2
        GROUP BY ${cols.join(', ')} ORDER BY ${cols.map((c) => `${c} NULLS FIRST`).join(', ')}`;
      const { rows } = await pool.query(sql, [query.from, query.to]).catch((error: unknown) => {
        throw fail('report', error);
      });
      return rows.map((r) => {
        const row: Record<string, unknown> = {};
        for (const d of dims) if (r[COLUMNS[d]] !== null) row[d] = r[COLUMNS[d]];
        return Object.assign(row, {
          cost: Number(r.cost),
          currency: String(r.currency),
          calls: Number(r.calls),
          inputTokens: Number(r.input_tokens),
          outputTokens: Number(r.output_tokens),
        });
      });
    },
    async totals(key, now) {
      await migrate();
      const { rows } = await pool
        .query(
          `SELECT (SELECT spent FROM ${tables.windows} WHERE key = $1) AS spent,
             (SELECT COALESCE(SUM(amount), 0) FROM ${tables.holds} WHERE window_key = $1 AND expires_at > $2) AS reserved`,
          [key, now],
        )
        .catch((error: unknown) => {
          throw fail('totals', error);
        });
      return { spent: Number(rows[0]?.spent ?? 0), reserved: Number(rows[0]?.reserved ?? 0) };
    },
    async close() {
      if (owned) await pool.end();
    },
  };
}

function fail(operation: string, error: unknown): StoreError {
  return postgresError(`postgres spend store: ${operation}`, error);
}
