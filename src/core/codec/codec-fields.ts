import { HistoryFormatError } from '../errors/history-error';
import { ROLES, type Role } from '../contract/message';

/**
 * The durable JSON codec's shared pieces (see `codec.ts`): the keys in contract order and the
 * readers of one stored object's fields, which name the offending field in a
 * `HistoryFormatError`.
 */

/** Deepest nesting of arrays and objects accepted inside one tool call's `args`. */
export const ARGS_MAX_DEPTH = 256;
/** Keys of a thinking block, in contract order (provenance last: added later, additively). */
export const BLOCK_KEYS = ['text', 'signature', 'redacted', 'provider', 'model', 'id'] as const;
/** Optional string keys of a tool call after `args`, in contract order. */
export const CALL_KEYS = ['signature', 'signatureProvider', 'signatureModel'] as const;

/** A stored object's own fields. */
export type Fields = Record<string, unknown>;

/** Like `Array.prototype.map`, but visits holes of sparse arrays (as `undefined`) too. */
export function mapItems<T>(
  items: readonly unknown[],
  fn: (item: unknown, index: number) => T,
): T[] {
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) out.push(fn(items[i], i));
  return out;
}

export function own(fields: Fields, key: string): unknown {
  return Object.hasOwn(fields, key) ? fields[key] : undefined;
}

export function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`;
}

export function record(value: unknown, index: number | undefined, at: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HistoryFormatError(index, at, 'must be an object');
  }
  return value as Fields;
}

export function readRole(m: Fields, index: number | undefined): Role {
  const role = own(m, 'role');
  if (typeof role === 'string' && (ROLES as readonly string[]).includes(role)) return role as Role;
  const problem = role === undefined ? 'is missing' : `must be one of ${ROLES.join(', ')}`;
  throw new HistoryFormatError(index, 'role', problem);
}

/** An optional string; absent, `null` and `''` all read as `undefined`. */
export function optionalString(
  fields: Fields,
  key: string,
  index: number | undefined,
  at: string,
): string | undefined {
  const value = own(fields, key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string')
    throw new HistoryFormatError(index, join(at, key), 'must be a string');
  return value;
}

export function requiredString(
  fields: Fields,
  key: string,
  index: number | undefined,
  at: string,
): string {
  const value = own(fields, key);
  if (typeof value !== 'string')
    throw new HistoryFormatError(index, join(at, key), 'must be a string');
  return value;
}

export function requiredName(call: Fields, index: number | undefined, at: string): string {
  const name = requiredString(call, 'name', index, at);
  if (name === '') throw new HistoryFormatError(index, join(at, 'name'), 'must not be empty');
  return name;
}

/** An optional array; absent, `null` and `[]` all read as `undefined`. */
export function optionalArray(
  fields: Fields,
  key: string,
  index: number | undefined,
): unknown[] | undefined {
  const value = own(fields, key);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new HistoryFormatError(index, key, 'must be an array');
  return value.length === 0 ? undefined : (value as unknown[]);
}

/** An optional flag that is only ever `true`; absent, `null` and `false` all read as `undefined`. */
export function optionalTrue(
  fields: Fields,
  key: string,
  index: number | undefined,
  at: string,
): true | undefined {
  const value = own(fields, key);
  if (value === undefined || value === null || value === false) return undefined;
  if (value !== true) throw new HistoryFormatError(index, join(at, key), 'must be a boolean');
  return true;
}
