/**
 * Wire types of the Anthropic Messages API (`POST /v1/messages`), limited to what the adapter
 * sends and reads. Incoming shapes are untrusted: the decoders check every field they use.
 */
import type { JsonObject, JsonSchema } from '../../core/kit/json';

/** A prompt-cache breakpoint on a block, a tool or the system prompt (`ttl` default 5 minutes). */
export interface WireCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** A text block. */
export interface WireText {
  type: 'text';
  text: string;
  cache_control?: WireCacheControl;
}

/** An image block: a URL or inline base64 bytes. */
export interface WireImage {
  type: 'image';
  source: { type: 'url'; url: string } | { type: 'base64'; media_type: string; data: string };
  cache_control?: WireCacheControl;
}

/**
 * A document block: a PDF as base64 bytes or by URL, or plain text; `title` names it for the
 * model (and in citations).
 */
export interface WireDocument {
  type: 'document';
  source:
    | { type: 'base64'; media_type: 'application/pdf'; data: string }
    | { type: 'text'; media_type: 'text/plain'; data: string }
    | { type: 'url'; url: string };
  title?: string;
  cache_control?: WireCacheControl;
}

/** A tool result answering a `tool_use` block by id. */
export interface WireToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content?: string;
  cache_control?: WireCacheControl;
}

/** A tool call of the assistant. */
export interface WireToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: JsonObject;
  cache_control?: WireCacheControl;
}

/** Readable reasoning with its signature. */
export interface WireThinking {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** Reasoning the provider encrypted. */
export interface WireRedactedThinking {
  type: 'redacted_thinking';
  data: string;
}

/** Blocks of a `user` turn. */
export type WireUserBlock = WireToolResult | WireText | WireImage | WireDocument;

/** Blocks of an `assistant` turn. */
export type WireAssistantBlock = WireThinking | WireRedactedThinking | WireText | WireToolUse;

/** One turn of the conversation; the API requires user and assistant turns to alternate. */
export type WireMessage =
  { role: 'user'; content: WireUserBlock[] } | { role: 'assistant'; content: WireAssistantBlock[] };

/** A tool as advertised. */
export interface WireTool {
  name: string;
  description?: string;
  input_schema: JsonSchema;
  cache_control?: WireCacheControl;
}

/** A server tool the API runs itself (`web_search_20250305`…), with its own fields. */
export interface WireServerTool {
  type: string;
  name: string;
  [field: string]: unknown;
}

/** The `thinking` request field. */
export type WireThinkingConfig =
  | { type: 'enabled'; budget_tokens: number; display?: WireThinkingDisplay }
  | { type: 'adaptive'; display?: WireThinkingDisplay }
  | { type: 'disabled' };

/** How thinking text is returned. */
export type WireThinkingDisplay = 'summarized' | 'omitted';

/** The `output_config` request field. */
export interface WireOutputConfig {
  effort?: string;
  format?: { type: 'json_schema'; schema: JsonSchema };
}

/** The `clear_tool_uses_20250919` context edit: clears old tool results past a token trigger. */
export interface WireClearToolUsesEdit {
  type: 'clear_tool_uses_20250919';
  trigger: { type: 'input_tokens'; value: number };
  keep?: { type: 'tool_uses'; value: number };
  clear_at_least?: { type: 'input_tokens'; value: number };
  exclude_tools?: string[];
  clear_tool_inputs?: boolean;
}

/** The `context_management` request field (beta `context-management-2025-06-27`). */
export interface WireContextManagement {
  edits: WireClearToolUsesEdit[];
}

/** The request body. */
export interface WireRequest {
  model: string;
  max_tokens: number;
  messages: WireMessage[];
  system?: string | WireText[];
  tools?: (WireTool | WireServerTool)[];
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
  thinking?: WireThinkingConfig;
  output_config?: WireOutputConfig;
  context_management?: WireContextManagement;
  stream: boolean;
  [extra: string]: unknown;
}

/** The API's error envelope: `{type: 'error', error: {type, message}}`. */
export interface WireErrorBody {
  type?: unknown;
  error?: { type?: unknown; message?: unknown };
}
