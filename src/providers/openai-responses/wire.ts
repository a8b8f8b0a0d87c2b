/**
 * Request-side wire types of the OpenAI Responses API (`POST /responses`). Responses and stream
 * events are read as `unknown` and checked field by field (see `output.ts` and `stream.ts`).
 */
import type { JsonSchema } from '../../core/kit/json';

/** One content part of a user message. */
export type WireInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; filename: string; file_data: string }
  | { type: 'input_file'; file_url: string; filename?: string };

/** A message input item (`EasyInputMessage`). */
export interface WireMessageItem {
  role: 'user' | 'assistant';
  content: string | WireInputContent[];
}

/** A function call the model made, replayed. */
export interface WireFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

/** A function result answering a call by `call_id`. */
export interface WireFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** A reasoning item replayed: its id, its summary, its encrypted content when stateless. */
export interface WireReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  encrypted_content?: string;
}

/** A compaction item replayed: the encrypted context it stands for, with its id. */
export interface WireCompactionItem {
  type: 'compaction';
  id?: string;
  encrypted_content: string;
}

/** One item of `input`. */
export type WireInputItem =
  | WireMessageItem
  | WireFunctionCall
  | WireFunctionCallOutput
  | WireReasoningItem
  | WireCompactionItem;

/** One `context_management` entry: server-side compaction past a token threshold. */
export interface WireContextManagement {
  type: 'compaction';
  compact_threshold: number;
}

/** A function tool (`strict` is sent explicitly: the API's default is `true`). */
export interface WireFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** A hosted tool (`web_search`, `file_search`, `code_interpreter`) with its fields. */
export interface WireHostedTool {
  type: string;
  [field: string]: unknown;
}

/** The request body (before `extraBody` is merged in). */
export interface WireResponsesBody {
  model: string;
  input: WireInputItem[];
  instructions?: string;
  tools?: (WireFunctionTool | WireHostedTool)[];
  text?: { format: { type: 'json_schema'; name: string; schema: JsonSchema; strict: true } };
  reasoning?: { effort?: string; summary?: string };
  include?: string[];
  store: boolean;
  previous_response_id?: string;
  context_management?: WireContextManagement[];
  stream?: true;
  [setting: string]: unknown;
}
