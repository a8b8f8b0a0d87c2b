import type { Message } from '../contract/message';
import type { RunStore } from '../durable/port';
import type { Tool } from '../tool/tool';

/**
 * What an agent's memory sees of one run.
 * @inline
 */
export interface MemoryContext {
  /** The run's owner (`run(prompt, { owner })`), the key memory is scoped by; `undefined` without one. */
  readonly owner: string | undefined;
  /** The stored conversation the run continues or creates (`{ conversation }`), if any. */
  readonly conversationId: string | undefined;
  /** The run's prompt text (`''` when the run has none, e.g. a resume). */
  readonly prompt: string;
  /** The history the run starts from (the stored conversation or `history`), system messages excluded. */
  readonly history: readonly Message[];
  /** The run's store (the run's `store` option, else the agent's), if any. */
  readonly store: RunStore | undefined;
  /** The run's cancellation signal. */
  readonly signal: AbortSignal;
}

/**
 * The memory port an agent's `memory` option takes (`golem/memory`'s `Memory` implements it):
 * context recalled before a run's first model call, and the run's new messages once it completes.
 */
export interface AgentMemory {
  /**
   * Tools the memory adds to every run of the agent (for example `update_working_memory`),
   * checked with the agent's own tools when it is constructed; their context carries the run's
   * `owner` and `conversationId`.
   */
  readonly tools?: readonly Tool[];
  /**
   * Called once per run, before the first model call; the text returned (if any) is appended to
   * the run's instructions as its last block. A rejection fails the run before any model call
   * (`RunInputError`).
   */
  recall(context: MemoryContext): Promise<string | undefined>;
  /**
   * Called once a run completes, with the messages the run added (its prompt included); awaited
   * before the result is returned. A rejection does not fail the completed run: it is reported as
   * a `memory_failed` run event, and the memory catches up on its next `recall`.
   */
  remember?(context: MemoryContext, added: readonly Message[]): Promise<void>;
}
