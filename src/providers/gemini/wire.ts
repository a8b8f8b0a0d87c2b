/**
 * The subset of Gemini's `generateContent` wire format the adapter writes. Responses are read as
 * `unknown` and checked field by field (see `assembler.ts`), never trusted to match a type.
 */

/** Inline bytes, base64 encoded. */
export interface GeminiInlineData {
  mimeType: string;
  data: string;
}

/** A file by URI (an uploaded file, a `gs://` object or an HTTP(S) URL Google can fetch). */
export interface GeminiFileData {
  mimeType?: string;
  fileUri: string;
}

/** A function call as sent back in history; `args` is always an object. */
export interface GeminiFunctionCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

/** A tool result; Gemini correlates it by `name` (and `id` when present). */
export interface GeminiFunctionResponse {
  name: string;
  id?: string;
  response: Record<string, unknown>;
}

/** One part of a content; exactly one of the data fields is set. */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: GeminiInlineData;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

/** One conversation turn. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** `generationConfig.thinkingConfig`. */
export interface GeminiThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  thinkingLevel?: string;
}

/** `generationConfig`: only the fields the adapter sets. */
export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseSchema?: Record<string, unknown>;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
}

/** One entry of `functionDeclarations`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

/** One entry of `tools`: function declarations, or a built-in tool (`google_search`). */
export type GeminiTool =
  { functionDeclarations: GeminiFunctionDeclaration[] } | Record<string, unknown>;

/** The request body of `generateContent` and `streamGenerateContent`. */
export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: GeminiTool[];
  generationConfig?: GeminiGenerationConfig;
  [extra: string]: unknown;
}
