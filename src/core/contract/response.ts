import type { Message } from './message';
import type { Usage } from './usage';

/** One provider call's normalised output. */
export interface ModelResponse {
  /** The assistant message; tool calls decide the turn. */
  message: Message;
  usage: Usage;
  /** Provider finish reason, normalised to lower case where known (`stop`, `length`, `tool_calls`…). */
  finishReason?: string;
  /** The model that actually answered, when the provider says. */
  modelName?: string;
  /** The provider's id of this response (`chatcmpl-…`, `msg_…`, Gemini `responseId`), when it sends one. */
  responseId?: string;
  /**
   * What the provider compacted before the model read this request (`settings.compaction`):
   * Anthropic's applied context edits, or an OpenAI Responses compaction item. Absent when it
   * compacted nothing.
   */
  contextEdits?: ContextEdit[];
}

/**
 * One provider-side compaction reported by a response.
 * @inline
 */
export interface ContextEdit {
  /**
   * `cleared-tool-uses`: old tool results (and maybe calls) replaced by the provider;
   * `cleared-thinking`: older thinking blocks dropped; `compacted`: the context before it
   * condensed into an opaque item (`Message.compaction`).
   */
  kind: 'cleared-tool-uses' | 'cleared-thinking' | 'compacted';
  /** The provider's own name for the edit (e.g. `clear_tool_uses_20250919`, `compaction`). */
  type: string;
  /** Tool uses cleared, when reported. */
  clearedToolUses?: number;
  /** Thinking turns cleared (`cleared-thinking`), when reported. */
  clearedThinkingTurns?: number;
  /** Input tokens the edit removed, when reported. */
  clearedInputTokens?: number;
}
