import type { ResponseCacheStore } from '../core/durable/response-cache-port';
import { ConfigError } from '../core/kit/config-error';

/** Options of {@link memoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /**
   * The most entries kept (default 1 000): storing one more evicts the least recently used. A
   * read counts as a use.
   */
  maxEntries?: number;
  /** The clock expiry is measured with (ms since the epoch); default `Date.now`. Inject one in tests. */
  now?: () => number;
}

interface Slot {
  readonly value: string;
  /** When the entry expires (ms since the epoch), or `undefined` for never. */
  readonly expiresAt: number | undefined;
}

/** The default bound of a {@link memoryCacheStore}. */
const DEFAULT_MAX_ENTRIES = 1_000;

/**
 * A response cache store in this process's memory: least-recently-used eviction past
 * `maxEntries`, and per-entry expiry (an expired entry is a miss and is dropped when read). The
 * default store of `responseCache()`. Entries live as long as the process and are not shared
 * with other workers: use the SQLite, PostgreSQL or Redis store for that.
 *
 * ```ts
 * const cache = responseCache({ store: memoryCacheStore({ maxEntries: 10_000 }), ttl: 3_600_000 });
 * ```
 */
export function memoryCacheStore(options: MemoryCacheStoreOptions = {}): ResponseCacheStore {
  const invalid = (option: string, problem: string) =>
    new ConfigError(`memoryCacheStore: \`${option}\` ${problem}`, {
      component: 'middleware',
      option,
    });
  if (typeof options !== 'object' || (options as unknown) === null)
    throw new ConfigError('memoryCacheStore: options must be an object', {
      component: 'middleware',
    });
  const { maxEntries = DEFAULT_MAX_ENTRIES, now = Date.now } = options;
  if (typeof maxEntries !== 'number' || !Number.isInteger(maxEntries) || maxEntries < 1)
    throw invalid('maxEntries', 'must be a positive integer');
  if (typeof now !== 'function') throw invalid('now', 'must be a function returning milliseconds');
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const slots = new Map<string, Slot>();
  return {
    get(key) {
      const slot = slots.get(key);
      if (slot === undefined) return Promise.resolve(undefined);
      slots.delete(key);
      if (slot.expiresAt !== undefined && slot.expiresAt <= now())
        return Promise.resolve(undefined);
      slots.set(key, slot);
      return Promise.resolve(slot.value);
    },
    set(key, value, ttlMs) {
      slots.delete(key);
      slots.set(key, { value, expiresAt: ttlMs === undefined ? undefined : now() + ttlMs });
      while (slots.size > maxEntries) {
        const oldest = slots.keys().next();
        if (oldest.done === true) break;
        slots.delete(oldest.value);
      }
      return Promise.resolve();
    },
    delete(key) {
      slots.delete(key);
      return Promise.resolve();
    },
  };
}
