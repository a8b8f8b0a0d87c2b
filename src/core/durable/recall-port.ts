import type { JsonValue } from '../kit/json';
import type { MigrationReport } from './port';

/** What a {@link RecallEntry} holds: a conversation's message, or a document an app added. */
export type RecallKind = 'message' | 'document';

/**
 * One embedded text a {@link RecallStore} keeps. `id` is unique per `owner`: storing an entry
 * with the `id` of one the owner has replaces it (another owner's entry with that id is a
 * different entry).
 */
export interface RecallEntry {
  /** The entry's key within its owner (non-empty). */
  id: string;
  /** The tenant or user the entry belongs to (non-empty); every query is scoped to one owner. */
  owner: string;
  kind: RecallKind;
  /** The stored conversation a message belongs to. */
  conversationId?: string;
  /** The message's position in its conversation (0-based). */
  position?: number;
  /** The document a document chunk belongs to. */
  documentId?: string;
  /** The text recalled. */
  text: string;
  /**
   * The text's embedding: exactly {@link RecallStore.dimensions} finite numbers, not all zero.
   * Stores keep it L2-normalised as 32-bit floats, so similarity is a dot product.
   */
  embedding: number[];
  /** Anything the app wants back with a hit (a JSON object). */
  metadata?: Record<string, JsonValue>;
  /** When the text was written, in whole ms since the epoch. */
  createdAt: number;
}

/** What {@link RecallStore.query} looks for. */
export interface RecallQuery {
  /** Only this owner's entries. */
  owner: string;
  /** The embedding of the text to match (the current prompt): same rules as an entry's. */
  embedding: number[];
  /** At most this many hits, an integer from 1 to 1000. */
  topK: number;
  /** Only entries of this conversation (documents have none, so they are left out). */
  conversationId?: string;
  /** Leave out the entries of this conversation (documents are kept). */
  excludeConversationId?: string;
  /** Only entries of these kinds; default both (an empty list matches nothing). */
  kinds?: readonly RecallKind[];
  /** Only hits scoring at least this (cosine similarity, -1 to 1). */
  minScore?: number;
}

/** One entry a query found, without its embedding. */
export interface RecallHit {
  entry: Omit<RecallEntry, 'embedding'>;
  /** Cosine similarity to the query: 1 = same direction, 0 = unrelated, -1 = opposite. */
  score: number;
}

/** Which entries {@link RecallStore.delete} removes: an owner's, narrowed by the other fields. */
export interface RecallDeleteFilter {
  owner: string;
  /** Only the entries of this conversation. */
  conversationId?: string;
  /** Only the entries with these ids. */
  ids?: readonly string[];
}

/**
 * The recall-store port: where semantic memory keeps embedded texts and finds the nearest ones
 * to a prompt. Golem ships adapters for memory (`memoryRecallStore` in `golem/stores/memory`),
 * SQLite through sqlite-vec (`sqliteRecallStore` in `golem/stores/sqlite`) and PostgreSQL
 * (`postgresRecallStore` in `golem/stores/postgres`); all three are exact (no approximate index).
 * Input is validated at the boundary (`StoreError` `invalid-input`: a vector of the wrong size,
 * a non-finite number, a zero vector, an empty owner, `topK` outside 1–1000); failures are
 * `StoreError`s like the run store's (`unavailable`, `corrupt`, `closed`, …).
 */
export interface RecallStore {
  /** The size of every embedding this store holds (fixed when its tables are created). */
  readonly dimensions: number;
  /** Applies pending schema migrations (versioned separately from the run store's); safe to call concurrently. */
  migrate(): Promise<MigrationReport>;
  /** Releases connections and handles; later calls fail with a `closed` StoreError. */
  close(): Promise<void>;
  /** Stores entries, each replacing the owner's entry with the same id; all or none. */
  upsert(entries: readonly RecallEntry[]): Promise<void>;
  /** The owner's entries most similar to `query.embedding`, best first, at most `topK`. */
  query(query: RecallQuery): Promise<RecallHit[]>;
  /** Which of `ids` the owner has (to index only what is missing). */
  has(owner: string, ids: readonly string[]): Promise<Set<string>>;
  /** Removes the owner's entries matching `filter`; resolves how many were removed. */
  delete(filter: RecallDeleteFilter): Promise<number>;
  /** How many entries the owner has, or the whole store without one. */
  count(owner?: string): Promise<number>;
}
