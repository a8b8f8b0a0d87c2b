import { throwIfCancelled } from '../../core/errors/cancellation';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { EmbedOptions, EmbeddingUsage, Embeddings } from '../../core/contract/embedding';
import { checkVectors } from './embedding-vectors';

/** What an adapter's provider call returned for one batch. */
export interface BatchAnswer {
  /** The batch's vectors in the batch's order (unchecked: {@link embedInBatches} validates them). */
  vectors: unknown;
  /** Input tokens the provider reported for the batch, `0` when it reports none. */
  inputTokens: number;
}

/** One provider call for a batch of at most `maxBatch` values. */
export type EmbedBatch = (
  batch: readonly string[],
  options: { signal?: AbortSignal; purpose: 'query' | 'document' },
) => Promise<BatchAnswer>;

/** How {@link embedInBatches} splits and checks. */
export interface BatchPlan {
  /** Provider label for errors, e.g. `openai`. */
  provider: string;
  maxBatch: number;
  /** The expected vector length when known (configured or documented). */
  dimensions: number | undefined;
  embedBatch: EmbedBatch;
}

/**
 * Embeds `values` in batches of at most `plan.maxBatch`, one provider call after another (not in
 * parallel: the order of calls is the order of the values, a failure stops the rest, and a
 * large input never bursts past a provider's rate limit). Every answer is validated at the
 * boundary (one finite vector per value, one length across all batches, the configured
 * dimensions); usage and the request count are summed. `[]` makes no request. The signal is
 * checked before every batch; a failure of any batch rejects the whole call.
 */
export async function embedInBatches(
  values: readonly string[],
  options: EmbedOptions | undefined,
  plan: BatchPlan,
): Promise<Embeddings> {
  checkValues(plan.provider, values);
  const purpose = checkPurpose(plan.provider, options?.purpose);
  const signal = options?.signal;
  throwIfCancelled(signal);
  const embeddings: number[][] = [];
  let inputTokens = 0;
  let requests = 0;
  let dimensions = plan.dimensions;
  for (let start = 0; start < values.length; start += plan.maxBatch) {
    throwIfCancelled(signal);
    const batch = values.slice(start, start + plan.maxBatch);
    const answer = await plan.embedBatch(batch, { signal, purpose });
    requests++;
    const vectors = checkVectors(plan.provider, answer.vectors, batch.length, dimensions);
    dimensions ??= vectors[0]?.length;
    embeddings.push(...vectors);
    inputTokens += answer.inputTokens;
  }
  return { embeddings, usage: { inputTokens }, requests };
}

/** Embeds one value through {@link embedInBatches} (one request). */
export async function embedOne(
  value: string,
  options: EmbedOptions | undefined,
  plan: BatchPlan,
): Promise<{ embedding: number[]; usage: EmbeddingUsage }> {
  if (typeof value !== 'string')
    throw modelConfigError(plan.provider, `embed takes a string, got ${typeName(value)}`);
  const result = await embedInBatches([value], options, plan);
  const embedding = result.embeddings[0];
  if (embedding === undefined) throw new Error('unreachable: one value, one vector');
  return { embedding, usage: result.usage };
}

function checkValues(provider: string, values: unknown): asserts values is readonly string[] {
  if (!Array.isArray(values))
    throw modelConfigError(
      provider,
      `embedMany takes an array of strings, got ${typeName(values)}`,
    );
  (values as readonly unknown[]).forEach((value, i) => {
    if (typeof value !== 'string')
      throw modelConfigError(
        provider,
        `embedMany takes an array of strings; value ${i} is ${typeName(value)}`,
      );
  });
}

function checkPurpose(provider: string, purpose: unknown): 'query' | 'document' {
  if (purpose === undefined) return 'document';
  if (purpose === 'query' || purpose === 'document') return purpose;
  throw modelConfigError(
    provider,
    `purpose must be "query" or "document", got ${typeName(purpose)}`,
  );
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/**
 * The `maxBatch` option: a whole number from 1 to the provider's documented `limit`, default
 * `fallback`. Throws a model `ConfigError` naming the limit.
 */
export function checkMaxBatch(
  provider: string,
  value: unknown,
  fallback: number,
  limit: number = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > limit)
    throw modelConfigError(
      provider,
      `maxBatch must be a whole number from 1 to ${limit === Number.MAX_SAFE_INTEGER ? 'any size' : limit}, got ${shown(value)}`,
    );
  return value;
}

/** The `dimensions` option: `undefined` or a whole number ≥ 1 (a model `ConfigError` otherwise). */
export function checkDimensions(
  provider: string,
  field: string,
  value: unknown,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw modelConfigError(provider, `${field} must be a whole number ≥ 1, got ${shown(value)}`);
  return value;
}

function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeName(value);
}
