/**
 * The shared batching and boundary checks of the embedding adapters (internal): split, order,
 * sums, and the validation of what a provider returned.
 */
import fc from 'fast-check';
import { ConfigError } from 'golem';
import { embedInBatches, type BatchPlan } from '../../../../src/providers/shared/embedding-batch';
import { checkVectors, orderByIndex } from '../../../../src/providers/shared/embedding-vectors';
import { ModelProtocolError } from '../../../support/internal-errors';

/** A plan whose provider answers each value with `[length of the value, batch number]`. */
function echoPlan(maxBatch: number, seen: string[][]): BatchPlan {
  return {
    provider: 'echo',
    maxBatch,
    dimensions: 2,
    embedBatch: (batch) => {
      seen.push([...batch]);
      return Promise.resolve({
        vectors: batch.map((value) => [value.length, seen.length]),
        inputTokens: batch.length,
      });
    },
  };
}

test('any values and maxBatch: ceil(n / maxBatch) calls, order kept, usage summed (property)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.string(), { maxLength: 40 }),
      fc.integer({ min: 1, max: 7 }),
      async (values, maxBatch) => {
        const seen: string[][] = [];
        const result = await embedInBatches(values, undefined, echoPlan(maxBatch, seen));
        expect(result.requests).toBe(Math.ceil(values.length / maxBatch));
        expect(seen.flat()).toEqual(values);
        expect(seen.every((batch) => batch.length <= maxBatch)).toBe(true);
        expect(result.embeddings.map((v) => v[0])).toEqual(values.map((v) => v.length));
        expect(result.usage.inputTokens).toBe(values.length);
      },
    ),
  );
});

test('values that are not strings and an unknown purpose are ConfigErrors, before any call', async () => {
  const seen: string[][] = [];
  const plan = echoPlan(2, seen);
  await expect(embedInBatches(['a', 3 as unknown as string], undefined, plan)).rejects.toThrow(
    ConfigError,
  );
  await expect(embedInBatches('ab' as unknown as string[], undefined, plan)).rejects.toThrow(
    /array of strings/,
  );
  await expect(
    embedInBatches(['a'], { purpose: 'search' as unknown as 'query' }, plan),
  ).rejects.toThrow(/purpose/);
  expect(seen).toEqual([]);
});

test('checkVectors refuses wrong counts, lengths, non-finite values and empty vectors', () => {
  const cases: [unknown, number, number | undefined, RegExp][] = [
    [{}, 1, undefined, /not an array/],
    [[[1]], 2, undefined, /expected 2 vectors/],
    [[[1, 2], [1]], 2, undefined, /vector 1 has 1 dimensions, the first had 2/],
    [[[1, 2]], 1, 3, /expected 3/],
    [[[1, Infinity]], 1, undefined, /not a finite number/],
    [[[]], 1, undefined, /vector 0 is empty/],
    [[null], 1, undefined, /vector 0 is not an array/],
  ];
  for (const [vectors, count, dimensions, message] of cases) {
    let caught: unknown;
    try {
      checkVectors('p', vectors, count, dimensions);
    } catch (error) {
      caught = error;
    }
    expect(ModelProtocolError.is(caught)).toBe(true);
    expect((caught as Error).message).toMatch(message);
  }
  expect(checkVectors('p', [[1, 2]], 1, 2)).toEqual([[1, 2]]);
});

test('orderByIndex: any permutation comes back in input order; gaps and duplicates are refused', () => {
  fc.assert(
    fc.property(
      fc
        .integer({ min: 1, max: 20 })
        .chain((n) => fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n })),
      (order) => {
        const items = order.map((index) => ({ index, embedding: [index] }));
        const ordered = orderByIndex('p', items, order.length) as { index: number }[];
        return ordered.every((item, i) => item.index === i);
      },
    ),
  );
  expect(() => orderByIndex('p', [{ index: 1 }, { index: 2 }], 2)).toThrow(/index 2/);
  expect(() => orderByIndex('p', [{ index: 0 }, { index: '1' }], 2)).toThrow(/of type string/);
  const plain = [[1], [2]];
  expect(orderByIndex('p', plain, 2)).toBe(plain);
});
