import type { EmbeddingModel } from '../core/contract/embedding';
import type { RecallStore } from '../core/durable/recall-port';
import type { RunStore } from '../core/index';
import type { StandardSchemaV1 } from '../core/tool/standard-schema';

/**
 * Whose memory a record or a recall belongs to: the run's `owner` (shared by every conversation
 * of that user or tenant) or its conversation (`thread`).
 */
export type MemoryScope = 'owner' | 'thread';

/**
 * Working memory: one typed record per owner (or per conversation), shown to the model in every
 * run and updated by a built-in tool.
 * @inline
 */
export interface WorkingMemoryOptions<T extends object = Record<string, unknown>> {
  /**
   * The record's shape: a Standard Schema of an object (zod, valibot, arktype; decorated agents
   * get one from their `@WorkingMemory` DTO). The tool's JSON Schema is derived from it.
   */
  schema: StandardSchemaV1<unknown, T>;
  /** One record per owner (default) or per conversation. */
  scope?: MemoryScope;
  /** The record before the first update; default `{}`. Need not pass `schema` (fields may be missing). */
  initial?: Partial<T>;
  /** The update tool's name; default `update_working_memory`. */
  toolName?: string;
}

/**
 * Semantic recall: messages (and documents the app adds) embedded on write and recalled by
 * similarity to the prompt.
 * @inline
 */
export interface RecallOptions {
  /** Where the vectors live (`memoryRecallStore`, `sqliteRecallStore`, `postgresRecallStore`). */
  store: RecallStore;
  /** Embeds messages and documents (purpose `document`) and prompts (purpose `query`). */
  embedder: EmbeddingModel;
  /** Most entries recalled per run; default 5. */
  topK?: number;
  /**
   * Budget of the recalled block in estimated tokens (characters / 4, rounded up); default 1000.
   * Entries are taken best first; one that does not fit is skipped.
   */
  maxTokens?: number;
  /** Entries scoring below this similarity are never recalled. */
  minScore?: number;
  /** Recall across every conversation of the owner (default) or only the current one. */
  scope?: MemoryScope;
  /** Recall documents added with `addDocuments` too; default `true`. */
  includeDocuments?: boolean;
}

/** Options of {@link Memory}: at least one of `workingMemory` and `recall`. */
export interface MemoryOptions<T extends object = Record<string, unknown>> {
  /** A typed record per owner or conversation, updated by a tool. */
  workingMemory?: WorkingMemoryOptions<T>;
  /** Similarity recall of earlier messages and documents. */
  recall?: RecallOptions;
  /**
   * Where working memory is stored; default the run's store (the run's `store` option, else the
   * agent's). It must implement `getWorkingMemory` and `putWorkingMemory` (golem's memory,
   * SQLite and PostgreSQL stores do).
   */
  store?: RunStore;
}
