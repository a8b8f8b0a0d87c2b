import type { Message, ToolCall } from '../contract/message';
import type { Compaction } from './compaction';
import type { Usage } from '../contract/usage';
import type { PendingToolCalls } from './deferred-types';

/** The evidence a checkpoint persists: a read-only view of the run's state. */
export interface CheckpointSource {
  readonly messages: readonly Message[];
  readonly usage: Usage;
  readonly requests: number;
  readonly toolCalls: number;
  readonly completedTurns: number;
  /** The compactions applied so far (stored with the run). */
  readonly compactions?: readonly Compaction[];
}

/**
 * Where the engine reports durable progress (a run store's recorder implements it; the engine
 * never sees a store). Called only when a store is configured, at these points:
 *
 * - `starting` before the calls of a batch (or a group of it) execute — a write-ahead record of
 *   every committed message and every completed result so far, plus the calls about to run;
 * - `result` when a call completed with its result (recorded; persisted by the next write);
 * - `save` after a final or output turn and after each result of a parallel group;
 * - `commit` after a batch's results were appended to the messages (recorded results included),
 *   with the calls the run is about to pause on, so a death before the pause is recorded leaves
 *   them waiting for a decision, never to run undecided.
 *
 * A rejected promise stops the run (the error propagates unchanged, not as a `RunError`).
 */
export interface RunCheckpoints {
  starting(source: CheckpointSource, calls: readonly ToolCall[]): Promise<void>;
  result(call: ToolCall, message: Message): void;
  save(source: CheckpointSource): Promise<void>;
  commit(source: CheckpointSource, waiting?: PendingToolCalls): Promise<void>;
}
