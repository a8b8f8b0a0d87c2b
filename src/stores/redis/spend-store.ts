import { sumSpend } from '../../core/durable/spend-ledger';
import type {
  SpendEntry,
  SpendReserveResult,
  SpendStore,
  SpendWindow,
} from '../../core/durable/spend-port';
import { StoreError } from '../../core/durable/store-error';
import type { RedisClient } from './redis-client';
import { isRedisClient } from './redis-client';
import { LEDGER, RELEASE, RESERVE, SETTLE, TOTALS } from './spend-scripts';

/** Options of {@link redisSpendStore}. */
export interface RedisSpendStoreOptions {
  /** An `ioredis` client (anything with its `eval`); not closed by the store. */
  client: RedisClient;
  /**
   * Prefixed to every key; default `golem:spend`. On Redis Cluster put a hash tag in it
   * (`{golem}:spend`) so a call's windows share a slot.
   */
  prefix?: string;
}

const DAY_MS = 86_400_000;
/** The longest period a report reads (one ledger list per UTC day). */
const MAX_REPORT_DAYS = 3660;
/** Days read per script call. */
const DAYS_PER_CALL = 64;

/**
 * A spend store in Redis, shared by every worker using the same server and `prefix`. Each
 * operation is one Lua script (`EVAL`), so checking every window and holding the amount on all of
 * them is atomic. Per window: a hash of totals, a sorted set of reservation expiries and a hash of
 * their amounts, expiring with the window; the ledger is one list per UTC day
 * (`<prefix>:ledger:2026-12-06`, kept until you delete it), which reports read day by day.
 * Driver errors are `unavailable` StoreErrors (a reservation that cannot be made fails the call).
 *
 * ```ts
 * const store = redisSpendStore({ client: new Redis(process.env.REDIS_URL) });
 * ```
 */
export function redisSpendStore(options: RedisSpendStoreOptions): SpendStore {
  const invalid = (problem: string) =>
    new StoreError(`redisSpendStore: ${problem}`, { reason: 'invalid-options' });
  if (typeof options !== 'object' || (options as unknown) === null)
    throw invalid('options must be an object with a `client`');
  const { client, prefix = 'golem:spend' } = options;
  if (!isRedisClient(client)) throw invalid('`client` must be an ioredis client (with eval)');
  if (typeof prefix !== 'string' || prefix === '')
    throw invalid('`prefix` must be a non-empty string');
  const keysOf = (key: string) => [
    `${prefix}:w:${key}`,
    `${prefix}:z:${key}`,
    `${prefix}:a:${key}`,
  ];
  const windowKeys = (windows: readonly SpendWindow[]) => windows.flatMap((w) => keysOf(w.key));
  const expiry = (w: SpendWindow) =>
    w.expiresAt === undefined ? '' : String(Math.ceil(w.expiresAt));
  const ledgerKey = (at: number) => `${prefix}:ledger:${new Date(at).toISOString().slice(0, 10)}`;
  const run = async (
    operation: string,
    script: string,
    keys: string[],
    args: (string | number)[],
  ) => {
    try {
      return await client.eval(script, keys.length, ...keys, ...args);
    } catch (error) {
      throw new StoreError(
        `redis spend store: ${operation} failed (${error instanceof Error ? error.message : String(error)})`,
        { reason: 'unavailable', cause: error },
      );
    }
  };

  return {
    async reserve(reservation): Promise<SpendReserveResult> {
      const { id, windows, amount, ttlMs, now } = reservation;
      if (windows.length === 0) return { ok: true };
      const args: (string | number)[] = [id, String(amount), String(now), String(now + ttlMs)];
      for (const w of windows) args.push(String(w.limit), expiry(w));
      const answer = (await run('reserve', RESERVE, windowKeys(windows), args)) as unknown[];
      if (Number(answer[0]) === 1) return { ok: true };
      const window = windows[Number(answer[1]) - 1] as SpendWindow;
      return { ok: false, window, spent: Number(answer[2]), reserved: Number(answer[3]) };
    },
    async settle(id, windows, actual, entry: SpendEntry) {
      const keys = [...windowKeys(windows), ledgerKey(entry.at)];
      await run('settle', SETTLE, keys, [
        id,
        String(actual),
        JSON.stringify(entry),
        ...windows.map(expiry),
      ]);
    },
    async release(id, windows) {
      if (windows.length === 0) return;
      await run('release', RELEASE, windowKeys(windows), [id]);
    },
    async report(query) {
      const first = Math.floor(query.from / DAY_MS);
      const last = Math.floor((query.to - 1) / DAY_MS);
      if (last - first + 1 > MAX_REPORT_DAYS)
        throw new StoreError(`redisSpendStore: a report reads at most ${MAX_REPORT_DAYS} days`, {
          reason: 'invalid-input',
        });
      const entries: SpendEntry[] = [];
      for (let day = first; day <= last; day += DAYS_PER_CALL) {
        const keys: string[] = [];
        for (let d = day; d < Math.min(last + 1, day + DAYS_PER_CALL); d++)
          keys.push(ledgerKey(d * DAY_MS));
        const lines = (await run('report', LEDGER, keys, [])) as string[];
        for (const line of lines) entries.push(JSON.parse(line) as SpendEntry);
      }
      return sumSpend(entries, query);
    },
    async totals(key, now) {
      const [spent, reserved] = (await run('totals', TOTALS, keysOf(key), [String(now)])) as [
        string,
        string,
      ];
      return { spent: Number(spent), reserved: Math.max(0, Number(reserved)) };
    },
  };
}
