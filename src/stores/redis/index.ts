/**
 * `golem/stores/redis`: Redis-backed stores shared by every worker, through an `ioredis` client
 * you pass in: a response cache store and a spend store for `golem/middleware`.
 * @packageDocumentation
 */
// Response cache store.
export { redisCacheStore } from './cache-store';
export type { RedisCacheStoreOptions } from './cache-store';
export type { RedisClient } from './redis-client';
// Spend store.
export { redisSpendStore } from './spend-store';
export type { RedisSpendStoreOptions } from './spend-store';
