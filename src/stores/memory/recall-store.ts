import type { MigrationReport } from '../../core/durable/port';
import type {
  RecallDeleteFilter,
  RecallEntry,
  RecallHit,
  RecallQuery,
  RecallStore,
} from '../../core/durable/recall-port';
import { StoreError } from '../../core/durable/store-error';
import type { PreparedEntry } from './recall-input';
import {
  checkDeleteFilter,
  checkDimensions,
  checkIds,
  checkKey,
  clampScore,
  matchesQuery,
  prepareEntries,
  prepareQuery,
} from './recall-input';

/** Options of {@link memoryRecallStore}. */
export interface MemoryRecallStoreOptions {
  /** The size of your embedding model's vectors (1–8192). */
  dimensions: number;
}

const LABEL = 'memory recall store';

/**
 * A recall store in this process's memory, for tests and examples: exact brute-force search
 * (every entry of the owner compared), nothing kept after the process ends. Vectors are kept
 * normalised as 32-bit floats, like the database stores keep them.
 */
export class MemoryRecallStore implements RecallStore {
  readonly dimensions: number;
  private readonly owners = new Map<string, Map<string, PreparedEntry>>();
  private closed = false;

  constructor(options: MemoryRecallStoreOptions) {
    if (typeof options !== 'object' || (options as unknown) === null)
      throw new StoreError('memoryRecallStore: options must be an object with `dimensions`', {
        reason: 'invalid-options',
      });
    this.dimensions = checkDimensions('memoryRecallStore', options.dimensions);
  }

  migrate(): Promise<MigrationReport> {
    return this.run(() => ({ from: 1, to: 1, applied: [] }));
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  upsert(entries: readonly RecallEntry[]): Promise<void> {
    return this.run(() => {
      for (const prepared of prepareEntries(LABEL, entries, this.dimensions)) {
        const { owner, id } = prepared.entry;
        let entries = this.owners.get(owner);
        if (entries === undefined)
          this.owners.set(owner, (entries = new Map<string, PreparedEntry>()));
        entries.set(id, prepared);
      }
    });
  }

  query(query: RecallQuery): Promise<RecallHit[]> {
    return this.run(() => {
      const q = prepareQuery(LABEL, query, this.dimensions);
      // The best topK so far, best first (ties by id), kept by binary insertion.
      const hits: RecallHit[] = [];
      for (const { entry, vector } of this.owners.get(q.owner)?.values() ?? []) {
        if (!matchesQuery(entry, q)) continue;
        let dot = 0;
        for (let i = 0; i < vector.length; i++)
          dot += (vector[i] as number) * (q.vector[i] as number);
        const score = clampScore(dot);
        if (q.minScore !== undefined && score < q.minScore) continue;
        const last = hits[hits.length - 1];
        if (hits.length === q.topK && last !== undefined && !better(score, entry.id, last))
          continue;
        let low = 0;
        let high = hits.length;
        while (low < high) {
          const mid = (low + high) >>> 1;
          if (better(score, entry.id, hits[mid] as RecallHit)) high = mid;
          else low = mid + 1;
        }
        hits.splice(low, 0, { entry, score });
        if (hits.length > q.topK) hits.pop();
      }
      return hits.map((hit) => ({ entry: copy(hit.entry), score: hit.score }));
    });
  }

  has(owner: string, ids: readonly string[]): Promise<Set<string>> {
    return this.run(() => {
      const entries = this.owners.get(checkKey(LABEL, 'owner', owner));
      return new Set(checkIds(LABEL, 'ids', ids).filter((id) => entries?.has(id) === true));
    });
  }

  delete(filter: RecallDeleteFilter): Promise<number> {
    return this.run(() => {
      const f = checkDeleteFilter(LABEL, filter);
      const entries = this.owners.get(f.owner);
      if (entries === undefined) return 0;
      const ids = f.ids === undefined ? undefined : new Set(f.ids);
      let removed = 0;
      for (const [id, { entry }] of entries) {
        if (ids !== undefined && !ids.has(id)) continue;
        if (f.conversationId !== undefined && entry.conversationId !== f.conversationId) continue;
        entries.delete(id);
        removed++;
      }
      if (entries.size === 0) this.owners.delete(f.owner);
      return removed;
    });
  }

  count(owner?: string): Promise<number> {
    return this.run(() => {
      if (owner !== undefined) return this.owners.get(checkKey(LABEL, 'owner', owner))?.size ?? 0;
      let total = 0;
      for (const entries of this.owners.values()) total += entries.size;
      return total;
    });
  }

  /** Runs `body` on an open store; its errors become rejections. */
  private run<T>(body: () => T): Promise<T> {
    try {
      if (this.closed) throw new StoreError(`${LABEL}: the store is closed`, { reason: 'closed' });
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** Whether a hit scoring `score` with `id` ranks before `hit`. */
function better(score: number, id: string, hit: RecallHit): boolean {
  return score > hit.score || (score === hit.score && id < hit.entry.id);
}

/** A copy of a stored entry (its metadata too), so a caller cannot change the store's. */
function copy(entry: RecallHit['entry']): RecallHit['entry'] {
  return entry.metadata === undefined
    ? { ...entry }
    : { ...entry, metadata: structuredClone(entry.metadata) };
}

/**
 * A recall store in memory (see {@link MemoryRecallStore}).
 *
 * ```ts
 * const recall = memoryRecallStore({ dimensions: 256 });
 * ```
 */
export function memoryRecallStore(options: MemoryRecallStoreOptions): MemoryRecallStore {
  return new MemoryRecallStore(options);
}
