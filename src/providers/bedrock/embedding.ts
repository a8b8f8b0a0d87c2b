import type {
  EmbedOptions,
  EmbeddingModel,
  EmbeddingUsage,
  Embeddings,
} from '../../core/contract/embedding';
import { modelConfigError } from '../../core/errors/provider-errors';
import { isRecord } from '../../core/kit/guards';
import {
  checkDimensions,
  checkMaxBatch,
  embedInBatches,
  embedOne,
  type BatchPlan,
} from '../shared/embedding-batch';
import { embeddingFamily } from './embedding-families';
import { BedrockInvoker, type BedrockInvokeOptions } from './embedding-invoke';
import { PROVIDER } from './sdk';

/** Configuration of a Bedrock embedding model (InvokeModel). */
export interface BedrockEmbeddingOptions extends Omit<BedrockInvokeOptions, 'model'> {
  /**
   * Model id or inference-profile id: `amazon.titan-embed-text-v2:0` (one text per call),
   * `amazon.titan-embed-text-v1`, `cohere.embed-english-v3`, `cohere.embed-multilingual-v3`
   * (up to 96 texts per call).
   */
  model: string;
  /** Titan V2 only: 256, 512 or 1024 (default); sent as `dimensions` and checked on answers. */
  dimensions?: number;
  /** Titan V2 only: whether the vectors are normalised (the service defaults to true). */
  normalize?: boolean;
  /** Values per call; default and maximum the family's limit (Titan 1, Cohere 96). */
  maxBatch?: number;
}

/**
 * Embeddings through Bedrock's InvokeModel with the AWS SDK client (`@aws-sdk/client-bedrock-runtime`,
 * an optional peer dependency): Amazon Titan Text Embeddings (one text per call) and Cohere Embed
 * v3 (batches of up to 96; `purpose` becomes `input_type` `search_query`/`search_document`).
 * Usage comes from Titan's `inputTextTokenCount`, or Bedrock's `X-Amzn-Bedrock-Input-Token-Count`
 * response header, else `0`. Errors are classified like `bedrock()`'s.
 */
export class BedrockEmbeddingModel implements EmbeddingModel {
  /** `bedrock:<model id>`. */
  readonly name: string;
  readonly modelId: string;
  readonly dimensions: number | undefined;
  readonly maxBatch: number;
  private readonly invoker: BedrockInvoker;
  private readonly plan: BatchPlan;

  constructor(options: BedrockEmbeddingOptions) {
    if (!isRecord(options)) throw modelConfigError(PROVIDER, 'options must be an object');
    const family = embeddingFamily(typeof options.model === 'string' ? options.model : '');
    const requested = checkDimensions(PROVIDER, 'dimensions', options.dimensions);
    if (requested !== undefined && !family.acceptsDimensions)
      throw modelConfigError(PROVIDER, `${family.label} does not take \`dimensions\``);
    if (requested !== undefined && ![256, 512, 1024].includes(requested))
      throw modelConfigError(PROVIDER, `dimensions must be 256, 512 or 1024, got ${requested}`);
    const normalize = options.normalize;
    if (normalize !== undefined && typeof normalize !== 'boolean')
      throw modelConfigError(PROVIDER, 'normalize must be a boolean');
    if (normalize !== undefined && !family.acceptsDimensions)
      throw modelConfigError(PROVIDER, `${family.label} does not take \`normalize\``);
    this.maxBatch = checkMaxBatch(PROVIDER, options.maxBatch, family.limit, family.limit);
    const { dimensions: _d, normalize: _n, maxBatch: _m, ...rest } = options;
    this.invoker = new BedrockInvoker(rest);
    this.modelId = options.model;
    this.name = `${PROVIDER}:${options.model}`;
    this.dimensions = requested ?? family.defaultDimensions;
    const settings = { dimensions: requested, normalize };
    this.plan = {
      provider: PROVIDER,
      maxBatch: this.maxBatch,
      dimensions: this.dimensions,
      embedBatch: async (batch, { signal, purpose }) => {
        const result = await this.invoker.invoke(family.body(batch, purpose, settings), signal);
        const parsed = family.parse(result.json);
        return { vectors: parsed.vectors, inputTokens: parsed.inputTokens ?? result.inputTokens };
      },
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

  /** Releases the HTTP connections of a client the adapter built (not of one you passed in). */
  destroy(): void {
    this.invoker.destroy();
  }
}

/**
 * A Bedrock embedding model:
 * `bedrockEmbedding({ model: 'amazon.titan-embed-text-v2:0', region: 'us-east-1' })`.
 */
export function bedrockEmbedding(options: BedrockEmbeddingOptions): BedrockEmbeddingModel {
  return new BedrockEmbeddingModel(options);
}
