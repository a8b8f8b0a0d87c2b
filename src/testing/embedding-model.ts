import type {
  EmbedOptions,
  EmbeddingModel,
  EmbeddingUsage,
  Embeddings,
} from '../core/contract/embedding';
import { ModelHTTPError } from '../core/errors/errors';
import { embedInBatches, embedOne, type BatchPlan } from '../providers/shared/embedding-batch';
import { testingConfigError } from './record-replay/errors';

/** Options of {@link TestEmbeddingModel}. */
export interface TestEmbeddingModelOptions {
  /** Vector length; default 256. */
  dimensions?: number;
  /** Values per simulated provider call; default 64. */
  maxBatch?: number;
  /**
   * Values that make their call fail with a retryable HTTP 500 `ModelHTTPError` (provider
   * `test`): a substring, a pattern, or a predicate.
   */
  failOn?: string | RegExp | ((value: string) => boolean);
  /** Model name; default `test:embedding`. */
  name?: string;
}

/** One simulated provider call of a {@link TestEmbeddingModel}. */
export interface TestEmbeddingCall {
  values: string[];
  purpose: 'query' | 'document';
}

const WORD = /[\p{L}\p{N}]+/gu;
const TRIGRAM_WEIGHT = 0.5;

/**
 * A deterministic, offline embedding model for tests and examples. A text's vector is a hashed
 * bag of its lower-cased words (weight 1) and their character trigrams (weight 0.5), folded
 * into `dimensions` buckets with a hashed sign and L2-normalised — so texts sharing words
 * (or word stems) have a higher cosine similarity than unrelated texts, and equal texts equal
 * vectors, on every run and platform. A text without words gets a fixed unit vector.
 * `usage.inputTokens` is the word count. `calls` records every simulated provider call (values
 * split by `maxBatch` as the real adapters do).
 */
export class TestEmbeddingModel implements EmbeddingModel {
  readonly name: string;
  readonly dimensions: number;
  readonly maxBatch: number;
  /** Every simulated provider call, in order. */
  readonly calls: TestEmbeddingCall[] = [];
  private readonly failOn: ((value: string) => boolean) | undefined;
  private readonly plan: BatchPlan;

  constructor(options: TestEmbeddingModelOptions = {}) {
    this.dimensions = wholeNumber('dimensions', options.dimensions, 256);
    this.maxBatch = wholeNumber('maxBatch', options.maxBatch, 64);
    this.name = options.name ?? 'test:embedding';
    this.failOn = matcher(options.failOn);
    this.plan = {
      provider: 'test',
      maxBatch: this.maxBatch,
      dimensions: this.dimensions,
      embedBatch: (batch, { purpose }) => {
        this.calls.push({ values: [...batch], purpose });
        const failing = batch.find((value) => this.failOn?.(value) === true);
        if (failing !== undefined)
          return Promise.reject(
            new ModelHTTPError({
              status: 500,
              provider: 'test',
              message: `TestEmbeddingModel failOn matched ${JSON.stringify(failing.slice(0, 60))}`,
            }),
          );
        const vectors = batch.map((value) => this.vector(value));
        const inputTokens = batch.reduce((sum, value) => sum + words(value).length, 0);
        return Promise.resolve({ vectors, inputTokens });
      },
    };
  }

  /** Embeds `values` in batches of at most `maxBatch`. */
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

  /** The vector of `text`, computed without recording a call. */
  vector(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const word of words(text)) {
      this.add(vector, `w:${word}`, 1);
      const padded = `#${word}#`;
      for (let i = 0; i + 3 <= padded.length; i++)
        this.add(vector, `t:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
    }
    const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
    if (norm === 0) {
      vector[0] = 1;
      return vector;
    }
    return vector.map((x) => x / norm);
  }

  private add(vector: number[], feature: string, weight: number): void {
    const hash = fnv1a(feature);
    const bucket = hash % this.dimensions;
    const sign = (fnv1a(`s:${feature}`) & 1) === 0 ? 1 : -1;
    vector[bucket] = (vector[bucket] ?? 0) + sign * weight;
  }
}

function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

function wholeNumber(field: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw testingConfigError(
      `TestEmbeddingModel: ${field} must be a whole number ≥ 1, got ${typeof value === 'number' ? String(value) : typeof value}`,
    );
  return value;
}

function matcher(
  failOn: TestEmbeddingModelOptions['failOn'],
): ((value: string) => boolean) | undefined {
  if (failOn === undefined) return undefined;
  if (typeof failOn === 'string') return (value) => value.includes(failOn);
  if (failOn instanceof RegExp)
    return (value) => new RegExp(failOn.source, failOn.flags).test(value);
  if (typeof failOn === 'function') return failOn;
  throw testingConfigError('TestEmbeddingModel: failOn must be a string, a RegExp or a function');
}
