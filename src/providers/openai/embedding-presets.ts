import type { OpenAIPresetName } from './presets';

/** What `openaiEmbedding` knows of a preset's `POST {baseURL}/embeddings`. */
export interface EmbeddingPresetInfo {
  /** Default (and largest documented) number of inputs per request. */
  readonly maxBatch: number;
  /** The largest `maxBatch` accepted, when the service documents one. */
  readonly limit?: number;
}

/**
 * The presets whose service documents an OpenAI-compatible embeddings endpoint. OpenAI takes at
 * most 2048 inputs per request; Cohere's compatibility API 96; the others document no count
 * limit (only token limits), so the default stays at OpenAI's 2048 and can be lowered.
 * Groq, DeepSeek, xAI, Perplexity, Cerebras and OpenRouter are absent: use `baseURL` without a
 * preset for a compatible server the table does not list.
 */
export const EMBEDDING_PRESETS: Readonly<Partial<Record<OpenAIPresetName, EmbeddingPresetInfo>>> =
  Object.freeze({
    openai: { maxBatch: 2048, limit: 2048 },
    mistral: { maxBatch: 512 },
    together: { maxBatch: 2048 },
    fireworks: { maxBatch: 2048 },
    cohere: { maxBatch: 96, limit: 96 },
    vllm: { maxBatch: 2048 },
    ollama: { maxBatch: 2048 },
    lmstudio: { maxBatch: 2048 },
  });

/** Default for a custom `baseURL` without a preset. */
export const CUSTOM_EMBEDDING: EmbeddingPresetInfo = Object.freeze({ maxBatch: 2048 });

/** Documented default vector lengths of OpenAI's embedding models. */
export const OPENAI_EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = Object.freeze({
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
});
