import type { JsonSchema } from '../kit/json';
import type { CacheSettings } from './cache';
import type { HostedTool } from './hosted-tool';
import type { Message } from './message';

/** A tool as advertised to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  schema: JsonSchema;
  /** True for the synthesized output tool of tool-mode structured output (the engine sets it); adapters treat it like any other tool. */
  output?: boolean;
}

/**
 * Reasoning controls; adapters map them to their provider's dialect and ignore what it lacks.
 * @inline
 */
export interface ThinkingSettings {
  /** `adaptive` lets the model decide; `enabled` with `budgetTokens`; `disabled` turns it off. */
  mode: 'adaptive' | 'enabled' | 'disabled';
  /** Token budget for `enabled`. */
  budgetTokens?: number;
  /** Ask providers that support it to return readable reasoning. */
  includeThoughts?: boolean;
}

/**
 * Provider-side compaction: what the provider may clear or condense before the model reads the
 * request. Adapters map it to their dialect (Anthropic `context_management.edits`
 * `clear_tool_uses_20250919`; OpenAI Responses `context_management` `compaction`) and report what
 * the provider did in `ModelResponse.contextEdits`.
 * @inline
 */
export interface ProviderCompactionSettings {
  /** Compact once the request's input reaches this many tokens (Anthropic `trigger`, OpenAI `compact_threshold`). */
  triggerTokens: number;
  /** Anthropic: the newest tool uses kept verbatim (`keep`). */
  keepToolUses?: number;
  /** Anthropic: clear at least this many input tokens when it clears (`clear_at_least`). */
  clearAtLeastTokens?: number;
  /** Anthropic: tools whose uses are never cleared (`exclude_tools`). */
  excludeTools?: string[];
  /** Anthropic: clear the calls' arguments too, not only their results (`clear_tool_inputs`). */
  clearToolInputs?: boolean;
}

/**
 * Request tuning. Every field is optional and `undefined` means "unset, never sent"; `0` is a real
 * value for `temperature` and `topP`. Adapters validate ranges at their boundary.
 */
export interface ModelSettings {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** Reasoning effort for models that take one (`low` … `high`). */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  thinking?: ThinkingSettings;
  /**
   * Prompt caching, provider-neutral: `true` caches the instructions, the tool definitions and the
   * conversation so far; an object picks (see `CacheSettings`). Adapters map it to their provider
   * (Anthropic `cache_control` breakpoints, Bedrock `cachePoint` blocks, OpenAI `prompt_cache_key`)
   * and ignore what it lacks. Messages marked `cachePoint: true` add breakpoints of their own.
   */
  cache?: boolean | CacheSettings;
  /**
   * Provider-side context compaction, for adapters whose provider offers it (Anthropic context
   * editing, OpenAI Responses server-side compaction); the others ignore it. Usually set by the
   * agent's `compaction: { policies: ['provider'] }` rather than by hand.
   */
  compaction?: ProviderCompactionSettings;
  /** Provider-specific top-level fields merged into the request body by adapters that allow it. */
  extraBody?: Record<string, unknown>;
}

/** One provider call's input. */
export interface ModelRequest {
  messages: Message[];
  tools: ToolSpec[];
  /** Native structured-output schema, sent unchanged on every request of a run. */
  outputSchema?: JsonSchema;
  settings?: ModelSettings;
  /**
   * Provider-hosted tools (web search, file search, code interpreter) offered to the model next
   * to `tools`. The provider runs them; adapters that cannot offer one throw
   * `UnsupportedHostedToolError` before sending, adapters unaware of them ignore them.
   */
  hostedTools?: HostedTool[];
}
