import type {
  EmbedOptions,
  EmbeddingModel,
  EmbeddingUsage,
  Embeddings,
} from '../../core/contract/embedding';
import type { FetchLike } from '../../core/contract/fetch';
import { modelConfigError } from '../../core/errors/provider-errors';
import { isRecord } from '../../core/kit/guards';
import {
  checkDimensions,
  checkMaxBatch,
  embedInBatches,
  embedOne,
  type BatchPlan,
} from '../shared/embedding-batch';
import { postEmbeddingBatch, type EmbeddingEndpoint } from '../shared/embedding-http';
import { checkCommon } from './config-checks';
import { openaiAuth, openaiTarget } from './target';
import {
  CUSTOM_EMBEDDING,
  EMBEDDING_PRESETS,
  OPENAI_EMBEDDING_DIMENSIONS,
} from './embedding-presets';
import { embeddingBody, parseEmbeddingList } from './embedding-wire';
import { parseOpenAIError, refineHttpError } from './errors';
import {
  CUSTOM_CAPABILITIES,
  OPENAI_PRESETS,
  isPresetName,
  type OpenAIPresetName,
} from './presets';

/** Configuration of an OpenAI-compatible embedding model. */
export interface OpenAIEmbeddingOptions {
  /** Model id as the service spells it, e.g. `text-embedding-3-small`, `nomic-embed-text`. */
  model: string;
  /** Sent as `Authorization: Bearer …`; required by hosted presets, optional for local ones. */
  apiKey?: string;
  /**
   * A named service serving embeddings: `openai` (default when `baseURL` is not set either),
   * `mistral`, `together`, `fireworks`, `cohere`, `vllm`, `ollama`, `lmstudio`.
   */
  preset?: OpenAIPresetName;
  /** Base URL; `{baseURL}/embeddings` is called. Overrides the preset's. */
  baseURL?: string;
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
  /**
   * Requested vector length, sent as `dimensions` (OpenAI `text-embedding-3-*` shorten their
   * vectors); every answer is checked against it. Without it, OpenAI's documented lengths are
   * checked for its own models.
   */
  dimensions?: number;
  /** Values per request; default the service's documented limit (OpenAI 2048, Cohere 96). */
  maxBatch?: number;
  /** Extra request headers, sent after the adapter's own (they can override them). */
  headers?: Record<string, string>;
  /** The `fetch` used for every call; inject one to record, proxy or test. */
  fetch?: FetchLike;
  /** Milliseconds one request may take (then a retryable `ModelTransportError`); default 5 minutes, 0 = none. */
  timeout?: number;
  /** Largest accepted response body in bytes (`ResponseTooLargeError`); default 32 MiB. */
  maxResponseBytes?: number;
  /** Milliseconds an error body may take to arrive; default 5 s. */
  errorBodyTimeout?: number;
}

/**
 * Embeddings from an OpenAI-compatible `POST {baseURL}/embeddings` endpoint: OpenAI itself, the
 * presets whose service serves embeddings (Mistral, Together, Fireworks, Cohere's compatibility
 * API, vLLM, Ollama, LM Studio) or any compatible `baseURL`. Values are sent in batches of at
 * most `maxBatch`, one request after another; answers are validated and usage summed. Network
 * guarantees and error classification are those of the chat adapter.
 */
export class OpenAIEmbeddingModel implements EmbeddingModel {
  /** `<provider>:<model>`, e.g. `openai:text-embedding-3-small`, `ollama:nomic-embed-text`. */
  readonly name: string;
  /** The preset name, or `openai-compatible` for a custom `baseURL`. */
  readonly provider: string;
  readonly model: string;
  readonly baseURL: string;
  readonly dimensions: number | undefined;
  readonly maxBatch: number;
  private readonly plan: BatchPlan;

  constructor(options: OpenAIEmbeddingOptions) {
    if (!isRecord(options))
      throw modelConfigError('openai', 'options must be an object with at least `model`');
    const presetName = options.preset ?? (options.baseURL === undefined ? 'openai' : undefined);
    if (presetName !== undefined && !isPresetName(presetName))
      throw modelConfigError(
        'openai',
        `unknown preset ${JSON.stringify(presetName)}; presets serving embeddings: ${Object.keys(EMBEDDING_PRESETS).join(', ')}`,
      );
    const provider = presetName ?? 'openai-compatible';
    const info = presetName === undefined ? CUSTOM_EMBEDDING : EMBEDDING_PRESETS[presetName];
    if (info === undefined)
      throw modelConfigError(
        provider,
        `${OPENAI_PRESETS[presetName as OpenAIPresetName].label} documents no embeddings endpoint; presets serving embeddings: ${Object.keys(EMBEDDING_PRESETS).join(', ')} (or set baseURL without a preset for another compatible server)`,
      );
    const preset = presetName === undefined ? undefined : OPENAI_PRESETS[presetName];
    this.provider = provider;
    const target = openaiTarget(provider, preset, options);
    this.model = target.model;
    this.name = `${provider}:${this.model}`;
    this.baseURL = target.baseURL;
    const requested = checkDimensions(provider, 'dimensions', options.dimensions);
    this.dimensions =
      requested ?? (presetName === 'openai' ? OPENAI_EMBEDDING_DIMENSIONS[this.model] : undefined);
    this.maxBatch = checkMaxBatch(provider, options.maxBatch, info.maxBatch, info.limit);
    const common = checkCommon(
      provider,
      transportOptions(options),
      CUSTOM_CAPABILITIES,
      'max_tokens',
    );
    const { headers, secrets } = openaiAuth(target, common.headers);
    const endpoint: EmbeddingEndpoint = {
      provider,
      url: `${this.baseURL}/embeddings`,
      fetch: common.fetch,
      timeout: common.timeout,
      maxResponseBytes: common.maxResponseBytes,
      errorBodyTimeout: common.errorBodyTimeout,
      parseError: parseOpenAIError,
      refine: refineHttpError,
    };
    const model = this.model;
    this.plan = {
      provider,
      maxBatch: this.maxBatch,
      dimensions: this.dimensions,
      embedBatch: (batch, { signal }) =>
        postEmbeddingBatch(
          endpoint,
          () => ({ headers: { ...headers }, secrets: [...secrets] }),
          embeddingBody(batch, model, requested),
          signal,
          (json, found) => parseEmbeddingList(provider, json, batch.length, found),
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

/** The transport options `checkCommon` validates (the chat-only ones are not accepted here). */
export function transportOptions(options: {
  headers?: Record<string, string>;
  fetch?: FetchLike;
  timeout?: number;
  maxResponseBytes?: number;
  errorBodyTimeout?: number;
}): Parameters<typeof checkCommon>[1] {
  return {
    headers: options.headers,
    fetch: options.fetch,
    timeout: options.timeout,
    maxResponseBytes: options.maxResponseBytes,
    errorBodyTimeout: options.errorBodyTimeout,
  };
}

/**
 * An OpenAI-compatible embedding model:
 * `openaiEmbedding({ model: 'text-embedding-3-small', apiKey })`,
 * `openaiEmbedding({ preset: 'ollama', model: 'nomic-embed-text' })`.
 */
export function openaiEmbedding(options: OpenAIEmbeddingOptions): OpenAIEmbeddingModel {
  return new OpenAIEmbeddingModel(options);
}
