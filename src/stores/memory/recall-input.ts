import type {
  RecallDeleteFilter,
  RecallEntry,
  RecallHit,
  RecallKind,
  RecallQuery,
} from '../../core/durable/recall-port';
import { quote, StoreError } from '../../core/durable/store-error';
import type { JsonValue } from '../../core/kit/json';

/**
 * The boundary checks every recall-store adapter shares: the same input is refused the same way
 * by the memory, SQLite and PostgreSQL stores. Internal.
 */

/** The largest `topK` a query may ask for. */
export const TOP_K_MAX = 1000;
/** The largest embedding size (sqlite-vec's limit). */
export const DIMENSIONS_MAX = 8192;

const KINDS: readonly RecallKind[] = ['message', 'document'];

/** An entry as stored: its fields (embedding left out) and its unit vector. */
export interface PreparedEntry {
  readonly entry: RecallHit['entry'];
  readonly vector: Float32Array;
}

/** A query once checked: `kinds` undefined means both. */
export interface PreparedQuery {
  readonly owner: string;
  readonly vector: Float32Array;
  readonly topK: number;
  readonly conversationId: string | undefined;
  readonly excludeConversationId: string | undefined;
  readonly kinds: readonly RecallKind[] | undefined;
  readonly minScore: number | undefined;
}

/** The store's `dimensions` option, checked (an `invalid-options` StoreError names `store`). */
export function checkDimensions(store: string, dimensions: unknown): number {
  if (
    typeof dimensions !== 'number' ||
    !Number.isInteger(dimensions) ||
    dimensions < 1 ||
    dimensions > DIMENSIONS_MAX
  )
    throw new StoreError(
      `${store}: \`dimensions\` must be the size of your embedding model's vectors, an integer from 1 to ${DIMENSIONS_MAX}; got ${quote(dimensions)}`,
      { reason: 'invalid-options' },
    );
  return dimensions;
}

function invalid(label: string, problem: string): StoreError {
  return new StoreError(`${label}: ${problem}`, { reason: 'invalid-input' });
}

/** A non-empty string without U+0000 (which PostgreSQL text cannot hold), or an error naming `what`. */
export function checkKey(label: string, what: string, value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw invalid(label, `${what} must be a non-empty string; got ${quote(value)}`);
  if (value.includes('\u0000'))
    throw invalid(label, `${what} must not contain U+0000; got ${quote(value)}`);
  return value;
}

/** `value` as a unit vector of 32-bit floats, or an error naming `what` and the expected size. */
export function toUnitVector(
  label: string,
  what: string,
  value: unknown,
  dimensions: number,
): Float32Array {
  if (!Array.isArray(value) && !ArrayBuffer.isView(value))
    throw invalid(label, `${what} must be an array of ${dimensions} numbers; got ${quote(value)}`);
  const numbers = value as ArrayLike<unknown>;
  if (numbers.length !== dimensions)
    throw invalid(
      label,
      `${what} has ${numbers.length} numbers but this store holds ${dimensions}-dimension embeddings (expected ${dimensions}, got ${numbers.length}); embed with the model the store was created for, or open a store with \`dimensions: ${numbers.length}\` on other tables`,
    );
  let sum = 0;
  for (let i = 0; i < dimensions; i++) {
    const n = numbers[i];
    if (typeof n !== 'number' || !Number.isFinite(n))
      throw invalid(label, `${what}[${i}] must be a finite number; got ${quote(n)}`);
    sum += n * n;
  }
  const norm = Math.sqrt(sum);
  if (norm === 0 || !Number.isFinite(norm))
    throw invalid(
      label,
      `${what} is a zero vector (or too small or large to normalise); it has no direction to compare — embed a non-empty text`,
    );
  const vector = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) vector[i] = (numbers[i] as number) / norm;
  return vector;
}

function optionalKey(label: string, what: string, value: unknown): string | undefined {
  return value === undefined ? undefined : checkKey(label, what, value);
}

/** Checks `entries` and prepares them (copied: later changes by the caller do not leak in). */
export function prepareEntries(
  label: string,
  entries: readonly RecallEntry[],
  dimensions: number,
): PreparedEntry[] {
  if (!Array.isArray(entries))
    throw invalid(label, `upsert() takes an array of entries; got ${quote(entries)}`);
  return entries.map((raw: unknown, i) => {
    const at = `entries[${i}]`;
    if (typeof raw !== 'object' || raw === null)
      throw invalid(label, `${at} must be an entry object; got ${quote(raw)}`);
    const e = raw as Partial<RecallEntry>;
    const id = checkKey(label, `${at}.id`, e.id);
    const owner = checkKey(label, `${at}.owner`, e.owner);
    if (!KINDS.includes(e.kind as RecallKind))
      throw invalid(label, `${at}.kind must be 'message' or 'document'; got ${quote(e.kind)}`);
    if (typeof e.text !== 'string')
      throw invalid(label, `${at}.text must be a string; got ${quote(e.text)}`);
    if (!Number.isSafeInteger(e.createdAt))
      throw invalid(label, `${at}.createdAt must be a time in whole ms; got ${quote(e.createdAt)}`);
    if (e.position !== undefined && (!Number.isSafeInteger(e.position) || e.position < 0))
      throw invalid(label, `${at}.position must be an integer >= 0; got ${quote(e.position)}`);
    if (
      e.metadata !== undefined &&
      (typeof e.metadata !== 'object' ||
        (e.metadata as unknown) === null ||
        Array.isArray(e.metadata))
    )
      throw invalid(label, `${at}.metadata must be a JSON object; got ${quote(e.metadata)}`);
    const conversationId = optionalKey(label, `${at}.conversationId`, e.conversationId);
    const documentId = optionalKey(label, `${at}.documentId`, e.documentId);
    const vector = toUnitVector(label, `${at}.embedding`, e.embedding, dimensions);
    const entry: RecallHit['entry'] = {
      id,
      owner,
      kind: e.kind as RecallKind,
      text: e.text,
      createdAt: e.createdAt as number,
    };
    if (conversationId !== undefined) entry.conversationId = conversationId;
    if (e.position !== undefined) entry.position = e.position;
    if (documentId !== undefined) entry.documentId = documentId;
    if (e.metadata !== undefined)
      entry.metadata = JSON.parse(JSON.stringify(e.metadata)) as Record<string, JsonValue>;
    return { entry, vector };
  });
}

/** Checks `query` for a store of `dimensions`. */
export function prepareQuery(label: string, query: RecallQuery, dimensions: number): PreparedQuery {
  if (typeof query !== 'object' || (query as unknown) === null)
    throw invalid(label, `query() takes a query object; got ${quote(query)}`);
  const owner = checkKey(label, 'query.owner', query.owner);
  const { topK, kinds, minScore } = query;
  if (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 1 || topK > TOP_K_MAX)
    throw invalid(
      label,
      `query.topK must be an integer from 1 to ${TOP_K_MAX}; got ${quote(topK)}`,
    );
  if (
    kinds !== undefined &&
    (!Array.isArray(kinds) || (kinds as unknown[]).some((k) => !KINDS.includes(k as RecallKind)))
  )
    throw invalid(label, `query.kinds must be a list of 'message' and 'document'`);
  if (minScore !== undefined && (typeof minScore !== 'number' || !Number.isFinite(minScore)))
    throw invalid(label, `query.minScore must be a finite number; got ${quote(minScore)}`);
  return {
    owner,
    vector: toUnitVector(label, 'query.embedding', query.embedding, dimensions),
    topK,
    conversationId: optionalKey(label, 'query.conversationId', query.conversationId),
    excludeConversationId: optionalKey(
      label,
      'query.excludeConversationId',
      query.excludeConversationId,
    ),
    kinds: kinds === undefined ? undefined : [...new Set(kinds)],
    minScore,
  };
}

/** Checks a list of ids (each a key); duplicates removed. */
export function checkIds(label: string, what: string, ids: readonly string[]): string[] {
  if (!Array.isArray(ids)) throw invalid(label, `${what} must be an array of ids`);
  return [...new Set(ids.map((id, i) => checkKey(label, `${what}[${i}]`, id)))];
}

/** Checks a delete filter. */
export function checkDeleteFilter(
  label: string,
  filter: RecallDeleteFilter,
): { owner: string; conversationId: string | undefined; ids: string[] | undefined } {
  if (typeof filter !== 'object' || (filter as unknown) === null)
    throw invalid(label, `delete() takes a filter with an owner; got ${quote(filter)}`);
  return {
    owner: checkKey(label, 'filter.owner', filter.owner),
    conversationId: optionalKey(label, 'filter.conversationId', filter.conversationId),
    ids: filter.ids === undefined ? undefined : checkIds(label, 'filter.ids', filter.ids),
  };
}

/** Whether an entry passes a query's filters (everything but the owner and score). */
export function matchesQuery(entry: RecallHit['entry'], query: PreparedQuery): boolean {
  if (query.kinds !== undefined && !query.kinds.includes(entry.kind)) return false;
  if (query.conversationId !== undefined && entry.conversationId !== query.conversationId)
    return false;
  return (
    query.excludeConversationId === undefined ||
    entry.conversationId !== query.excludeConversationId
  );
}

/** A similarity as reported: within [-1, 1] (rounding in 32-bit math can step past). */
export function clampScore(score: number): number {
  return Math.max(-1, Math.min(1, score));
}

/** `items` in slices of at most `size` (SQL parameter lists). */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
