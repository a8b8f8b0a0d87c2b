/**
 * The parts of a Redis client the Redis stores use, typed structurally so an `ioredis` `Redis` (or
 * `Cluster`) instance fits as is and golem never imports `ioredis` itself. Other clients fit
 * through a small adapter object with these methods.
 */
export interface RedisClient {
  /** `GET key`: the value, or `null`. */
  get(key: string): Promise<string | null>;
  /** `SET key value`. */
  set(key: string, value: string): Promise<unknown>;
  /** `SET key value PX ms`: expires after `ms` milliseconds. */
  set(key: string, value: string, mode: 'PX', ms: number): Promise<unknown>;
  /** `DEL key…`: how many keys existed. */
  del(...keys: string[]): Promise<number>;
  /** `EVAL script numkeys key… arg…`: runs a Lua script atomically. */
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
}

/** Whether `value` has the {@link RedisClient} methods. Internal. */
export function isRedisClient(value: unknown): value is RedisClient {
  if (typeof value !== 'object' || value === null) return false;
  const client = value as Record<string, unknown>;
  return ['get', 'set', 'del', 'eval'].every((name) => typeof client[name] === 'function');
}
