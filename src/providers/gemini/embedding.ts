import type {
  EmbedOptions,
  EmbeddingModel,
  EmbeddingUsage,
  Embeddings,
} from '../../core/contract/embedding';
import { ModelProtocolError, ModelTransportError } from '../../core/errors/provider-errors';
import { isRecord } from '../../core/kit/guards';
import {
  checkDimensions,
  checkMaxBatch,
  embedInBatches,
  embedOne,
  type BatchAnswer,
  type BatchPlan,
} from '../shared/embedding-batch';
import {
  postEmbeddingBatch,
  type EmbeddingAuth,
  type EmbeddingEndpoint,
} from '../shared/embedding-http';
import { parseGeminiError, withRetryInfo } from './errors';
import { resolveOptions, type GeminiOptions, type ResolvedGeminiOptions } from './options';

/** `batchEmbedContents` takes at most 100 requests. */
const GEMINI_EMBEDDING_LIMIT = 100;

/** Documented default vector lengths (without `outputDimensionality`). */
const GEMINI_EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = Object.freeze({
  'gemini-embedding-001': 3072,
  'text-embedding-004': 768,
});

const CREDENTIAL_HEADER = /auth|key|token|secret|cookie|session|credential/i;

/** Configuration of a Gemini embedding model. */
export interface GeminiEmbeddingOptions extends Pick<
  GeminiOptions,
  | 'apiKey'
  | 'accessToken'
  | 'baseURL'
  | 'apiVersion'
  | 'headers'
  | 'fetch'
  | 'timeout'
  | 'maxResponseBytes'
  | 'errorBodyTimeout'
> {
  /** Model id, e.g. `gemini-embedding-001` or `text-embedding-004` (a leading `models/` is dropped). */
  model: string;
  /**
   * Requested vector length, sent as `outputDimensionality` (the model truncates its vectors);
   * answers are checked against it. Without it the documented default length is checked for
   * `gemini-embedding-001` (3072) and `text-embedding-004` (768).
   */
  outputDimensionality?: number;
  /** Values per request; default and maximum 100 (`batchEmbedContents`' limit). */
  maxBatch?: number;
}

/**
 * Embeddings from the Gemini API (`POST models/{model}:batchEmbedContents`, Generative Language
 * API; Vertex AI serves embeddings through another method and is not supported here). The
 * `purpose` of a call becomes each request's `taskType` (`RETRIEVAL_QUERY`,
 * `RETRIEVAL_DOCUMENT`). Gemini reports no token usage for embeddings, so `usage.inputTokens`
 * is `0`. Network guarantees and error classification are those of `gemini()`.
 */
export class GeminiEmbeddingModel implements EmbeddingModel {
  /** `gemini:<model>`. */
  readonly name: string;
  readonly model: string;
  readonly dimensions: number | undefined;
  readonly maxBatch: number;
  private readonly plan: BatchPlan;

  constructor(options: GeminiEmbeddingOptions) {
    const config = resolveOptions(transport(options));
    this.model = config.model;
    this.name = `${config.provider}:${config.model}`;
    const requested = checkDimensions(
      config.provider,
      'outputDimensionality',
      (options as Partial<GeminiEmbeddingOptions>).outputDimensionality,
    );
    this.dimensions = requested ?? GEMINI_EMBEDDING_DIMENSIONS[config.model];
    this.maxBatch = checkMaxBatch(
      config.provider,
      options.maxBatch,
      GEMINI_EMBEDDING_LIMIT,
      GEMINI_EMBEDDING_LIMIT,
    );
    const endpoint: EmbeddingEndpoint = {
      provider: config.provider,
      url: `${config.baseURL}/models/${config.model}:batchEmbedContents`,
      fetch: config.fetch,
      timeout: config.timeout,
      maxResponseBytes: config.maxResponseBytes,
      errorBodyTimeout: config.errorBodyTimeout,
      parseError: parseGeminiError,
      refine: withRetryInfo,
    };
    const resource = `models/${config.model}`;
    this.plan = {
      provider: config.provider,
      maxBatch: this.maxBatch,
      dimensions: this.dimensions,
      embedBatch: (batch, { signal, purpose }) =>
        postEmbeddingBatch(
          endpoint,
          () => credentials(config),
          {
            requests: batch.map((text) => ({
              model: resource,
              content: { parts: [{ text }] },
              taskType: purpose === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT',
              ...(requested === undefined ? {} : { outputDimensionality: requested }),
            })),
          },
          signal,
          (json) => parseBatchEmbeddings(config.provider, json),
        ),
    };
  }

  /** Embeds `values` in batches of at most `maxBatch`, in order. */
  embedMany(values: readonly string[], options?: EmbedOptions): Promise<Embeddings> {
    return embedInBatches(values, options, this.plan);
  }

  /** Embeds one value. */
  embed(
    value: string,
    options?: EmbedOptions,
  ): Promise<{ embedding: number[]; usage: EmbeddingUsage }> {
    return embedOne(value, options, this.plan);
  }
}

/** A Gemini embedding model: `geminiEmbedding({ model: 'gemini-embedding-001', apiKey })`. */
export function geminiEmbedding(options: GeminiEmbeddingOptions): GeminiEmbeddingModel {
  return new GeminiEmbeddingModel(options);
}

/** The chat adapter's options the embedding model shares (validated by `resolveOptions`). */
function transport(options: GeminiEmbeddingOptions): GeminiOptions {
  if (!isRecord(options)) return options;
  const { outputDimensionality: _dims, maxBatch: _batch, ...rest } = options;
  return rest;
}

/** `{embeddings: [{values}]}`, in request order; no usage is reported. */
function parseBatchEmbeddings(provider: string, json: unknown): BatchAnswer {
  if (!isRecord(json) || !Array.isArray(json.embeddings))
    throw new ModelProtocolError(
      provider,
      'embedding response: the body has no `embeddings` array',
    );
  const vectors = (json.embeddings as unknown[]).map((item) =>
    isRecord(item) ? item.values : item,
  );
  return { vectors, inputTokens: 0 };
}

/** Headers and secrets of one call: the API key or a (fresh) access token, credential headers. */
async function credentials(config: ResolvedGeminiOptions): Promise<EmbeddingAuth> {
  const headers = { ...config.headers };
  const secrets = Object.entries(headers)
    .filter(([name]) => CREDENTIAL_HEADER.test(name))
    .map(([, value]) => value);
  if (config.apiKey !== undefined) {
    headers['x-goog-api-key'] = config.apiKey;
    return { headers, secrets: [config.apiKey, ...secrets] };
  }
  const { accessToken } = config;
  const token = typeof accessToken === 'function' ? await accessToken() : (accessToken ?? '');
  if (typeof token !== 'string' || token === '')
    throw new ModelTransportError(config.provider, 'accessToken returned no token');
  headers.authorization = `Bearer ${token}`;
  return { headers, secrets: [token, ...secrets] };
}
