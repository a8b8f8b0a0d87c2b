/**
 * Redis for the services suites: the machine's server (or GOLEM_TEST_REDIS_URL), a key prefix
 * unique per test, and the cleanup that deletes every key under it.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** Where the services suite finds Redis. */
export const REDIS_URL = process.env.GOLEM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A plain client for checks and cleanup (fails fast instead of retrying forever). */
export function testRedis(url: string = REDIS_URL): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
    lazyConnect: false,
  });
  client.on('error', () => undefined);
  return client;
}

/** A fresh key prefix, unique per test: `golem-t-<random>`. */
export function uniquePrefix(): string {
  return `golem-t-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/** Deletes every key under `prefix:` and returns how many there were. */
export async function deletePrefix(client: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await client.del(...keys);
  } while (cursor !== '0');
  return deleted;
}

/** How many keys exist under `prefix:`. */
export async function countPrefix(client: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let count = 0;
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    count += keys.length;
  } while (cursor !== '0');
  return count;
}
