/**
 * `golem/memory`: what an agent remembers across runs. `Memory` gives an agent a typed
 * working-memory record per owner (or conversation), updated by a built-in tool, and semantic
 * recall of earlier messages and app documents through a `RecallStore` and an `EmbeddingModel`.
 * @packageDocumentation
 */
export { Memory } from './memory';
export type { MemoryOptions, MemoryScope, WorkingMemoryOptions, RecallOptions } from './options';
export type { MemoryDocument } from './semantic-recall';
export { Threads } from './threads';
export type {
  Thread,
  ThreadWithMessages,
  ThreadScope,
  ThreadCursor,
  ThreadListOptions,
  ThreadSearchOptions,
  ThreadCreateOptions,
  ThreadForkOptions,
} from './threads-types';
export { chunkText, MAX_CHUNK_CHARS } from './chunk';
export { estimateTokens } from '../core/engine/context-tokens';
export { WORKING_MEMORY_RETRIES } from './working-memory';
export type { AgentMemory, MemoryContext } from '../core/agent/memory-port';
export type { EmbeddingModel, EmbedOptions, Embeddings } from '../core/contract/embedding';
export type {
  RecallStore,
  RecallEntry,
  RecallHit,
  RecallQuery,
  RecallKind,
  RecallDeleteFilter,
} from '../core/durable/recall-port';
