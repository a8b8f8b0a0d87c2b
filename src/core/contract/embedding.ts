/**
 * Options of one embedding call.
 * @inline
 */
export interface EmbedOptions {
  /** Aborts the call; adapters stop work and reject with the signal's reason. */
  signal?: AbortSignal;
  /**
   * What the texts are for: `query` (a search input) or `document` (something stored to be found).
   * Adapters whose provider distinguishes them map it (Gemini `taskType`, Cohere `input_type`);
   * the others ignore it. Default `document`.
   */
  purpose?: 'query' | 'document';
}

/**
 * Tokens an embedding call consumed, as the provider reported them (`0` when it reports none).
 * @inline
 */
export interface EmbeddingUsage {
  inputTokens: number;
}

/**
 * The vectors of one `embedMany` call, in the order of its values.
 * @inline
 */
export interface Embeddings {
  /** One vector per value, each of the same length. */
  embeddings: number[][];
  /** Summed over every provider call the values needed. */
  usage: EmbeddingUsage;
  /** Provider calls made (values split into batches of at most `maxBatch`). */
  requests: number;
}

/**
 * The embedding port: texts in, vectors out. Adapters (`openaiEmbedding`, `azureEmbedding`,
 * `geminiEmbedding`, `bedrockEmbedding`) and `golem/testing`'s `TestEmbeddingModel` implement it;
 * semantic recall (`golem/memory`) uses it. Adapters validate what comes back (one finite vector
 * per value, every vector of one length) and classify failures like their chat models
 * (`ModelHTTPError`, retryable transport faults, cancellation).
 */
export interface EmbeddingModel {
  /** A human-readable identifier, e.g. `openai:text-embedding-3-small`, used in errors and spans. */
  readonly name?: string;
  /** The vectors' length when it is known before the first call (configured or documented). */
  readonly dimensions?: number;
  /** How many values one provider call takes; `embedMany` splits larger inputs into batches. */
  readonly maxBatch: number;
  /** Embeds `values` (any count, `[]` included), batching by `maxBatch`. */
  embedMany(values: readonly string[], options?: EmbedOptions): Promise<Embeddings>;
  /** Embeds one value. */
  embed(
    value: string,
    options?: EmbedOptions,
  ): Promise<{ embedding: number[]; usage: EmbeddingUsage }>;
}

/**
 * One document's place in a rerank result.
 * @inline
 */
export interface RerankedDocument {
  /** Its position in the documents given. */
  index: number;
  /** The provider's relevance score; higher is more relevant. */
  score: number;
}

/**
 * The reranking port: a query and candidate documents in, the most relevant first. Implemented by
 * adapters whose provider offers reranking; semantic recall may use one after the vector search.
 */
export interface RerankModel {
  readonly name?: string;
  rerank(
    query: string,
    documents: readonly string[],
    options?: { topK?: number; signal?: AbortSignal },
  ): Promise<{ results: RerankedDocument[]; usage: EmbeddingUsage }>;
}
