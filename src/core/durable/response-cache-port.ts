/**
 * Where a response cache (`responseCache()` from `golem/middleware`) keeps its entries: a
 * string-to-string map with per-entry expiry. Values are opaque to the store (the cache encodes
 * and validates them); keys are short printable strings chosen by the cache (a SHA-256 hex digest,
 * optionally after a namespace).
 *
 * Golem ships one per backend: `memoryCacheStore()` (golem/middleware), `sqliteCacheStore()`
 * (golem/stores/sqlite), `postgresCacheStore()` (golem/stores/postgres) and `redisCacheStore()`
 * (golem/stores/redis). Write your own for another backend; the cache treats any rejection of
 * these methods as a miss (or a skipped write), never as a failed run.
 */
export interface ResponseCacheStore {
  /**
   * The value stored under `key`, or `undefined` when there is none or it has expired. An expired
   * entry is never returned (a store may delete it lazily).
   */
  get(key: string): Promise<string | undefined>;
  /**
   * Stores `value` under `key`, replacing any previous value. `ttlMs` is how long it lives, in
   * milliseconds from now (a positive number); `undefined` keeps it until it is deleted or the
   * store evicts it.
   */
  set(key: string, value: string, ttlMs: number | undefined): Promise<void>;
  /** Removes the entry under `key`; no error when there is none. */
  delete(key: string): Promise<void>;
  /**
   * Releases what the store opened itself (a database file, a pool it created); a connection you
   * passed in stays open. Optional: stores holding nothing of their own omit it.
   */
  close?(): Promise<void>;
}
