/**
 * Request-side wire types of the OpenAI chat-completions API (`POST /chat/completions`). Responses
 * are read as `unknown` and checked field by field (see `response.ts` and `stream.ts`), because
 * OpenAI-compatible servers differ in what they add or leave out.
 */
import type { JsonSchema } from '../../core/kit/json';

/** One content part of a user message. */
export type WireContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { filename: string; file_data: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } };

/** One tool call on an assistant message. */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One message of the `messages` array. */
export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | { role: 'assistant'; content?: string; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** One function tool of the `tools` array. */
export interface WireTool {
  type: 'function';
  function: { name: string; description?: string; parameters: JsonSchema; strict?: boolean };
}

/** The `response_format` of native structured output. */
export interface WireResponseFormat {
  type: 'json_schema';
  json_schema: { name: string; schema: JsonSchema; strict: true };
}

/** A chat-completions request body (before `extraBody` is merged in). */
export interface WireChatBody {
  model?: string;
  messages: WireMessage[];
  tools?: WireTool[];
  response_format?: WireResponseFormat;
  stream?: true;
  stream_options?: { include_usage: true };
  [setting: string]: unknown;
}
