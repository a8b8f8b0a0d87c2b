import { ModelProtocolError } from '../../core/errors/provider-errors';
import { isRecord } from '../../core/kit/guards';

/**
 * Checks the vectors a provider returned for one batch: an array with exactly `count` entries,
 * each an array of finite numbers, all of one length, equal to `dimensions` when that is known.
 * Anything else is a non-retryable `ModelProtocolError` naming the adapter (`provider`) and the
 * first offending entry. Returns fresh arrays (the caller may keep them).
 */
export function checkVectors(
  provider: string,
  vectors: unknown,
  count: number,
  dimensions: number | undefined,
): number[][] {
  const fail = (message: string): never => {
    throw new ModelProtocolError(provider, `embedding response: ${message}`);
  };
  if (!Array.isArray(vectors)) return fail('the vectors are not an array');
  const list = vectors as readonly unknown[];
  if (list.length !== count)
    fail(`expected ${count} vector${count === 1 ? '' : 's'} (one per value), got ${list.length}`);
  const out: number[][] = [];
  let length = dimensions;
  for (let i = 0; i < list.length; i++) {
    const vector = list[i];
    if (!Array.isArray(vector)) return fail(`vector ${i} is not an array of numbers`);
    const values = vector as readonly unknown[];
    if (values.length === 0) fail(`vector ${i} is empty`);
    if (length === undefined) length = values.length;
    else if (values.length !== length)
      fail(
        dimensions === undefined
          ? `vector ${i} has ${values.length} dimensions, the first had ${length}`
          : `vector ${i} has ${values.length} dimensions, expected ${dimensions} (the configured or documented dimensions)`,
      );
    const copy = new Array<number>(values.length);
    for (let j = 0; j < values.length; j++) {
      const value = values[j];
      if (typeof value !== 'number' || !Number.isFinite(value))
        fail(`vector ${i} has a value at ${j} that is not a finite number`);
      copy[j] = value as number;
    }
    out.push(copy);
  }
  return out;
}

/**
 * Puts provider items back in input order by their `index` field (OpenAI-style `data[].index`).
 * Items without any index keep their position; when indexes are present they must be whole
 * numbers forming a permutation of `0..count-1`, otherwise a `ModelProtocolError`. Returns the
 * items as given when the input is not an array (the vector check reports that).
 */
export function orderByIndex(provider: string, items: unknown, count: number): unknown {
  if (!Array.isArray(items)) return items;
  const list = items as readonly unknown[];
  const indexes = list.map((item) => (isRecord(item) ? item.index : undefined));
  if (indexes.every((index) => index === undefined)) return list;
  if (list.length !== count) return list; // the count check names this failure
  const ordered = new Array<unknown>(count);
  const seen = new Set<number>();
  for (let i = 0; i < list.length; i++) {
    const index = indexes[i];
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count)
      throw new ModelProtocolError(
        provider,
        `embedding response: item ${i} has index ${typeof index === 'number' ? String(index) : `of type ${typeof index}`}, expected a whole number from 0 to ${count - 1}`,
      );
    if (seen.has(index))
      throw new ModelProtocolError(provider, `embedding response: index ${index} appears twice`);
    seen.add(index);
    ordered[index] = list[i];
  }
  return ordered;
}

/** A token count as reported (a non-negative whole number), else `0`. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
