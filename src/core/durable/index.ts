export type { RunStore, StoreTransaction, RunFilter, MigrationReport, WriteOptions } from './port';
export type {
  RunStatus,
  StoredRun,
  StoredConversation,
  RunRecord,
  ConversationRecord,
} from './records';
export { RUN_STATUSES, decodeRun, decodeConversation } from './records';
export type { StoreErrorReason, StoreErrorInit } from './store-error';
export { StoreError } from './store-error';
export type { StoreOptions } from './store-options';
export { DEFAULT_LEASE_MS } from './store-options';
export { loadRun, loadConversation, listRuns } from './queries';
export type { ReadScope } from './queries';
export { INTERRUPTED_CALL_REASON } from './interrupted-call';
