/** `TestEmbeddingModel`: deterministic, offline, and semantically useful vectors. */
import fc from 'fast-check';
import { ConfigError, ModelHTTPError, isCancellation, isRetryable } from 'golem';
import { TestEmbeddingModel } from 'golem/testing';

function cosine(a: readonly number[], b: readonly number[]): number {
  return a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
}

test('vectors have the configured length and unit norm', async () => {
  const model = new TestEmbeddingModel({ dimensions: 64 });
  const { embeddings } = await model.embedMany(['the quick brown fox', '', '!!!']);
  for (const vector of embeddings) {
    expect(vector).toHaveLength(64);
    expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 10);
  }
});

test('equal texts give equal vectors, across instances (deterministic)', async () => {
  const a = await new TestEmbeddingModel().embed('Tides follow the moon');
  const b = await new TestEmbeddingModel().embed('tides FOLLOW the moon!');
  expect(a.embedding).toEqual(b.embedding);
});

test('texts sharing words are closer than unrelated texts', () => {
  const model = new TestEmbeddingModel();
  const query = model.vector('how do ocean tides work');
  const related = model.vector('ocean tides are caused by the moon');
  const unrelated = model.vector('a recipe for banana bread');
  expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated));
});

test('word stems count through trigrams: "embedding" is closer to "embeddings" than to "bread"', () => {
  const model = new TestEmbeddingModel();
  const base = model.vector('embedding');
  expect(cosine(base, model.vector('embeddings'))).toBeGreaterThan(
    cosine(base, model.vector('bread')),
  );
});

test('any text yields finite values and unit norm (property)', () => {
  const model = new TestEmbeddingModel({ dimensions: 32 });
  fc.assert(
    fc.property(fc.string(), (text) => {
      const vector = model.vector(text);
      return (
        vector.length === 32 &&
        vector.every(Number.isFinite) &&
        Math.abs(cosine(vector, vector) - 1) < 1e-9
      );
    }),
  );
});

test('calls record each simulated provider call, split by maxBatch; usage counts words', async () => {
  const model = new TestEmbeddingModel({ maxBatch: 2 });
  const result = await model.embedMany(['one two', 'three', 'four five six'], { purpose: 'query' });
  expect(result.requests).toBe(2);
  expect(result.usage).toEqual({ inputTokens: 6 });
  expect(model.calls).toEqual([
    { values: ['one two', 'three'], purpose: 'query' },
    { values: ['four five six'], purpose: 'query' },
  ]);
  await model.embedMany([]);
  expect(model.calls).toHaveLength(2);
});

test('failOn makes the matching call fail with a retryable ModelHTTPError', async () => {
  const model = new TestEmbeddingModel({ failOn: /boom/i, maxBatch: 1 });
  const error: unknown = await model.embedMany(['fine', 'BOOM here']).catch((e: unknown) => e);
  expect(ModelHTTPError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(true);
  expect(model.calls).toHaveLength(2);
});

test('an aborted signal rejects without a call; bad options are ConfigErrors', async () => {
  const model = new TestEmbeddingModel();
  const controller = new AbortController();
  controller.abort();
  const error: unknown = await model
    .embed('x', { signal: controller.signal })
    .catch((e: unknown) => e);
  expect(isCancellation(error)).toBe(true);
  expect(model.calls).toEqual([]);
  expect(() => new TestEmbeddingModel({ dimensions: 0 })).toThrow(ConfigError);
  expect(() => new TestEmbeddingModel({ maxBatch: 1.5 })).toThrow(ConfigError);
});
