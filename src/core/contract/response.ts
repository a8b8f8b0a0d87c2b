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
  /**
   * The provider's rate-limit state after this call, from its response headers (OpenAI and Azure
   * `x-ratelimit-*`, Anthropic `anthropic-ratelimit-*`). Absent when the provider sends none.
   * `rateLimit()` from `golem/middleware` reads it so every worker waits for the reset.
   */
  rateLimit?: ProviderRateLimit;
}

/**
 * A provider's rate-limit headers, normalised. Each field is absent when the provider did not
 * send it; resets are relative (ms from when the response arrived).
 * @inline
 */
export interface ProviderRateLimit {
  /** Requests allowed per window. */
  limitRequests?: number;
  /** Requests left in the current window. */
  remainingRequests?: number;
  /** Until the request window resets, in ms. */
  resetRequestsMs?: number;
  /** Tokens allowed per window (Anthropic: input + output). */
  limitTokens?: number;
  /** Tokens left in the current window. */
  remainingTokens?: number;
  /** Until the token window resets, in ms. */
  resetTokensMs?: number;
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
