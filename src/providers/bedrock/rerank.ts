import type { EmbeddingUsage, RerankModel, RerankedDocument } from '../../core/contract/embedding';
import { throwIfCancelled } from '../../core/errors/cancellation';
import { modelConfigError, ModelProtocolError } from '../../core/errors/provider-errors';
import { isRecord } from '../../core/kit/guards';
import { BedrockInvoker, type BedrockInvokeOptions } from './embedding-invoke';
import { PROVIDER } from './sdk';

/** Cohere Rerank on Bedrock takes at most 1000 documents per call. */
const MAX_DOCUMENTS = 1000;

/** Configuration of a Bedrock rerank model (InvokeModel). */
export interface BedrockRerankOptions extends Omit<BedrockInvokeOptions, 'model'> {
  /** `cohere.rerank-v3-5:0` or `amazon.rerank-v1:0` (or an inference-profile id of them). */
  model: string;
}

/**
 * Reranking through Bedrock's InvokeModel: `{query, documents, top_n}` (plus `api_version: 2`
 * for Cohere Rerank 3.5) → `{results: [{index, relevance_score}]}`. Results are validated
 * (indexes in range and distinct, finite scores) and returned most relevant first. Bedrock
 * reports rerank usage in search units, not tokens: `usage.inputTokens` is the
 * `X-Amzn-Bedrock-Input-Token-Count` header when present, else `0`.
 */
export class BedrockRerankModel implements RerankModel {
  /** `bedrock:<model id>`. */
  readonly name: string;
  readonly modelId: string;
  private readonly invoker: BedrockInvoker;
  private readonly cohere: boolean;

  constructor(options: BedrockRerankOptions) {
    if (!isRecord(options)) throw modelConfigError(PROVIDER, 'options must be an object');
    const model = typeof options.model === 'string' ? options.model : '';
    this.cohere = model.includes('cohere.rerank');
    if (!this.cohere && !model.includes('amazon.rerank'))
      throw modelConfigError(
        PROVIDER,
        `no rerank wire format known for model ${JSON.stringify(model)}; supported: cohere.rerank-v3-5:0, amazon.rerank-v1:0`,
      );
    this.invoker = new BedrockInvoker(options);
    this.modelId = model;
    this.name = `${PROVIDER}:${model}`;
  }

  /** Scores `documents` against `query`; the `topK` most relevant first (default all). */
  async rerank(
    query: string,
    documents: readonly string[],
    options: { topK?: number; signal?: AbortSignal } = {},
  ): Promise<{ results: RerankedDocument[]; usage: EmbeddingUsage }> {
    if (typeof query !== 'string')
      throw modelConfigError(PROVIDER, 'rerank: query must be a string');
    const docs: unknown = documents;
    if (!Array.isArray(docs) || (docs as unknown[]).some((d) => typeof d !== 'string'))
      throw modelConfigError(PROVIDER, 'rerank: documents must be an array of strings');
    if (documents.length > MAX_DOCUMENTS)
      throw modelConfigError(
        PROVIDER,
        `rerank: at most ${MAX_DOCUMENTS} documents per call, got ${documents.length}`,
      );
    const topK = options.topK ?? Math.max(1, documents.length);
    if (!Number.isSafeInteger(topK) || topK < 1)
      throw modelConfigError(
        PROVIDER,
        `rerank: topK must be a whole number ≥ 1, got ${String(topK)}`,
      );
    throwIfCancelled(options.signal);
    if (documents.length === 0) return { results: [], usage: { inputTokens: 0 } };
    const top = Math.min(topK, documents.length);
    const body = {
      query,
      documents: [...documents],
      top_n: top,
      ...(this.cohere ? { api_version: 2 } : {}),
    };
    const { json, inputTokens } = await this.invoker.invoke(body, options.signal);
    return { results: parseResults(json, documents.length, top), usage: { inputTokens } };
  }

  /** Releases the HTTP connections of a client the adapter built (not of one you passed in). */
  destroy(): void {
    this.invoker.destroy();
  }
}

/** A Bedrock rerank model: `bedrockRerank({ model: 'cohere.rerank-v3-5:0', region })`. */
export function bedrockRerank(options: BedrockRerankOptions): BedrockRerankModel {
  return new BedrockRerankModel(options);
}

function parseResults(json: unknown, count: number, top: number): RerankedDocument[] {
  const fail = (message: string): never => {
    throw new ModelProtocolError(PROVIDER, `rerank response: ${message}`);
  };
  if (!isRecord(json) || !Array.isArray(json.results))
    return fail('the body has no `results` array');
  const items = json.results as unknown[];
  if (items.length > top) fail(`expected at most ${top} results, got ${items.length}`);
  const seen = new Set<number>();
  const results = items.map((item, i): RerankedDocument => {
    const index = isRecord(item) ? item.index : undefined;
    const score = isRecord(item) ? item.relevance_score : undefined;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count)
      return fail(`result ${i} has no document index from 0 to ${count - 1}`);
    if (seen.has(index)) fail(`document ${index} appears twice`);
    seen.add(index);
    if (typeof score !== 'number' || !Number.isFinite(score))
      fail(`result ${i} has no finite relevance_score`);
    return { index, score: score as number };
  });
  return results.sort((a, b) => b.score - a.score || a.index - b.index);
}
