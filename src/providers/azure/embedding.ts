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
import { headerSecrets } from '../openai/chat-core';
import { checkBaseURL, checkCommon, requireText } from '../openai/config-checks';
import { transportOptions } from '../openai/embedding';
import { embeddingBody, parseEmbeddingList } from '../openai/embedding-wire';
import { parseOpenAIError, refineHttpError } from '../openai/errors';
import { AZURE_CAPABILITIES, checkApiVersion, checkEndpoint } from './addressing';
import { authFrom } from './model';

const PROVIDER = 'azure';
/** Azure OpenAI's documented limit of inputs per embeddings request. */
const AZURE_EMBEDDING_LIMIT = 2048;

/** Configuration of an Azure OpenAI embedding deployment. */
export interface AzureEmbeddingOptions {
  /** Resource endpoint, `https://<resource>.openai.azure.com` (exclusive with `resourceName`). */
  endpoint?: string;
  /** Resource name; the endpoint becomes `https://<resourceName>.openai.azure.com`. */
  resourceName?: string;
  /** The deployment name of the embedding model (e.g. a `text-embedding-3-small` deployment). */
  deployment: string;
  /**
   * Required, explicit: a dated version such as `2024-10-21` (classic
   * `/openai/deployments/{deployment}/embeddings?api-version=…`), or `v1`
   * (`/openai/v1/embeddings` with the deployment as `model`).
   */
  apiVersion: string;
  /** Resource key, sent as `api-key`. Exactly one of apiKey, azureADToken, getToken. */
  apiKey?: string;
  /** A Microsoft Entra ID access token, sent as `Authorization: Bearer …`. */
  azureADToken?: string;
  /** Called before every request for a fresh Entra ID token. */
  getToken?: () => string | Promise<string>;
  /** Requested vector length, sent as `dimensions` (`text-embedding-3-*`); answers are checked against it. */
  dimensions?: number;
  /** Values per request; default and maximum 2048 (Azure's documented limit). */
  maxBatch?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** The `fetch` used for every call. */
  fetch?: FetchLike;
  /** Milliseconds one request may take; default 5 minutes, 0 = none. */
  timeout?: number;
  /** Largest accepted response body in bytes; default 32 MiB. */
  maxResponseBytes?: number;
  /** Milliseconds an error body may take to arrive; default 5 s. */
  errorBodyTimeout?: number;
}

/**
 * Embeddings from an Azure OpenAI deployment: OpenAI's embeddings wire format with Azure's
 * addressing (deployment URL and `api-version`, or the v1 API) and authentication (`api-key` or
 * Entra ID bearer tokens). Batching, validation and network guarantees as `openaiEmbedding`.
 */
export class AzureEmbeddingModel implements EmbeddingModel {
  /** `azure:<deployment>`. */
  readonly name: string;
  readonly provider = PROVIDER;
  readonly deployment: string;
  readonly apiVersion: string;
  /** The embeddings URL every call goes to. */
  readonly url: string;
  readonly dimensions: number | undefined;
  readonly maxBatch: number;
  private readonly plan: BatchPlan;

  constructor(options: AzureEmbeddingOptions) {
    if (!isRecord(options))
      throw modelConfigError(PROVIDER, 'options must be an object (deployment, apiVersion…)');
    this.deployment = requireText(PROVIDER, 'deployment', options.deployment);
    this.name = `${PROVIDER}:${this.deployment}`;
    this.apiVersion = checkApiVersion(options.apiVersion);
    const base = checkBaseURL(
      PROVIDER,
      'endpoint',
      checkEndpoint(options.endpoint, options.resourceName),
    );
    this.url =
      this.apiVersion === 'v1'
        ? `${base}/openai/v1/embeddings`
        : `${base}/openai/deployments/${encodeURIComponent(this.deployment)}/embeddings?api-version=${encodeURIComponent(this.apiVersion)}`;
    this.dimensions = checkDimensions(PROVIDER, 'dimensions', options.dimensions);
    this.maxBatch = checkMaxBatch(
      PROVIDER,
      options.maxBatch,
      AZURE_EMBEDDING_LIMIT,
      AZURE_EMBEDDING_LIMIT,
    );
    const common = checkCommon(
      PROVIDER,
      transportOptions(options),
      AZURE_CAPABILITIES,
      'max_tokens',
    );
    const extra = headerSecrets(common.headers);
    const auth = authFrom(options, extra);
    const endpoint: EmbeddingEndpoint = {
      provider: PROVIDER,
      url: this.url,
      fetch: common.fetch,
      timeout: common.timeout,
      maxResponseBytes: common.maxResponseBytes,
      errorBodyTimeout: common.errorBodyTimeout,
      parseError: parseOpenAIError,
      refine: refineHttpError,
    };
    const model = this.apiVersion === 'v1' ? this.deployment : undefined;
    const dimensions = this.dimensions;
    this.plan = {
      provider: PROVIDER,
      maxBatch: this.maxBatch,
      dimensions,
      embedBatch: (batch, { signal }) =>
        postEmbeddingBatch(
          endpoint,
          async () => {
            const { headers, secrets } = await auth();
            return { headers: { ...headers, ...common.headers }, secrets: [...secrets, ...extra] };
          },
          embeddingBody(batch, model, dimensions),
          signal,
          (json, secrets) => parseEmbeddingList(PROVIDER, json, batch.length, secrets),
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

/**
 * An Azure OpenAI embedding model:
 * `azureEmbedding({ resourceName, deployment: 'embed-small', apiVersion: '2024-10-21', apiKey })`.
 */
export function azureEmbedding(options: AzureEmbeddingOptions): AzureEmbeddingModel {
  return new AzureEmbeddingModel(options);
}
