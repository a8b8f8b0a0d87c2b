/**
 * OpenAI-compatible chat completions (`golem/providers/openai`): OpenAI, the hosted services of
 * `OPENAI_PRESETS`, local Ollama / LM Studio / vLLM servers, and any compatible `baseURL`.
 * @packageDocumentation
 */
export type { OpenAIOptions } from './model';
export { OpenAIChatModel, openai, openaiCompatible } from './model';
export type { CommonChatOptions } from './config-checks';
export type { OpenAICapabilities, OpenAIPreset, OpenAIPresetName, MaxTokensField } from './presets';
export { OPENAI_PRESETS, OPENAI_PRESET_NAMES } from './presets';
export { toStrictSchema } from './strict-schema';
export { stripAddedNulls } from './strict-nulls';
export { parseOpenAIError } from './errors';
export type { OpenAIEmbeddingOptions } from './embedding';
export { OpenAIEmbeddingModel, openaiEmbedding } from './embedding';
