import type { ResponseCacheStore } from '../../core/durable/response-cache-port';
import { StoreError } from '../../core/durable/store-error';
import type { RedisClient } from './redis-client';
import { isRedisClient } from './redis-client';

/** Options of {@link redisCacheStore}. */
export interface RedisCacheStoreOptions {
  /** An `ioredis` client (or anything with its `get`, `set`, `del` and `eval`); not closed by the store. */
  client: RedisClient;
  /** Prefixed to every key (`<prefix>:<key>`); default `golem:cache`. */
  prefix?: string;
}

/**
 * A response cache store in Redis, shared by every worker: one string key per entry
 * (`<prefix>:<key>`), written with `SET … PX <ttl>` so Redis itself expires it (an entry without a
 * TTL lives until deleted or evicted by Redis's `maxmemory-policy`). The client is yours: the
 * store never connects, closes or configures it. Driver errors reach `responseCache`'s `onError`
 * as `unavailable` StoreErrors (the call goes to the provider).
 *
 * ```ts
 * import Redis from 'ioredis';
 * const cache = responseCache({ store: redisCacheStore({ client: new Redis(process.env.REDIS_URL) }), ttl: 86_400_000 });
 * ```
 */
export function redisCacheStore(options: RedisCacheStoreOptions): ResponseCacheStore {
  const invalid = (problem: string) =>
    new StoreError(`redisCacheStore: ${problem}`, { reason: 'invalid-options' });
  if (typeof options !== 'object' || (options as unknown) === null)
    throw invalid('options must be an object with a `client`');
  const { client, prefix = 'golem:cache' } = options;
  if (!isRedisClient(client))
    throw invalid('`client` must be an ioredis client (with get, set, del and eval)');
  if (typeof prefix !== 'string' || prefix === '')
    throw invalid('`prefix` must be a non-empty string');
  const full = (key: string) => `${prefix}:${key}`;
  const failed = (operation: string, error: unknown): StoreError =>
    new StoreError(
      `redis cache store: ${operation} failed (${error instanceof Error ? error.message : String(error)})`,
      { reason: 'unavailable', cause: error },
    );
  return {
    async get(key) {
      let value: string | null;
      try {
        value = await client.get(full(key));
      } catch (error) {
        throw failed('GET', error);
      }
      return typeof value === 'string' ? value : undefined;
    },
    async set(key, value, ttlMs) {
      try {
        if (ttlMs === undefined) await client.set(full(key), value);
        else await client.set(full(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)));
      } catch (error) {
        throw failed('SET', error);
      }
    },
    async delete(key) {
      try {
        await client.del(full(key));
      } catch (error) {
        throw failed('DEL', error);
      }
    },
  };
}
