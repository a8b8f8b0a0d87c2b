/**
 * The Google Gemini adapter (Generative Language API; Vertex AI through `baseURL`):
 * `gemini({ model, apiKey })` or `new GeminiModel(...)`.
 * @packageDocumentation
 */
export { GeminiModel, gemini } from './model';
export type { GeminiOptions, GeminiOutputSchemaField } from './options';
export type { GeminiThinkingOptions, GeminiThinkingLevel } from './settings';
export { toGeminiSchema } from './schema-dialect';
export { CallIdAllocator } from './call-ids';
export { parseGeminiError } from './errors';
export type { GeminiEmbeddingOptions } from './embedding';
export { GeminiEmbeddingModel, geminiEmbedding } from './embedding';
