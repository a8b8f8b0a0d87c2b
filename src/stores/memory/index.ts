/**
 * `golem/stores/memory`: a run store and a recall store in memory, for tests and examples (same
 * rules as the database stores, nothing kept after the process ends).
 * @packageDocumentation
 */
export { MemoryRunStore, memoryStore } from './memory-store';
export { MemoryRecallStore, memoryRecallStore } from './recall-store';
export type { MemoryRecallStoreOptions } from './recall-store';
export type { StoreOptions } from '../../core/durable/store-options';
