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
