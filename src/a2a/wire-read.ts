/**
 * The readers the A2A parsers are built of: each checks one JSON value of a peer's message at a
 * path and throws `A2AProtocolError` naming the path and what was expected.
 */
import { isArrayValue, isRecord } from '../core/kit/guards';
import { A2AProtocolError } from './a2a-error';
import type { WireMetadata } from './wire-types';

/** Throws an `A2AProtocolError`: `path` must be `expected`. */
export function fail(path: string, expected: string, code?: number): never {
  throw new A2AProtocolError(`A2A: ${path} must be ${expected}`, code);
}

/** `value` as an object. */
export function record(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) fail(path, 'an object');
  return value;
}

/** `value` as a string. */
export function str(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'a string');
  return value;
}

/** `value` as an optional string. */
export function optStr(value: unknown, path: string): string | undefined {
  return value === undefined || value === null ? undefined : str(value, path);
}

/** `value` as an optional boolean. */
export function optBool(value: unknown, path: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') fail(path, 'a boolean');
  return value;
}

/** `value` as optional metadata (an object). */
export function optMeta(value: unknown, path: string): WireMetadata | undefined {
  return value === undefined || value === null ? undefined : record(value, path);
}

/** `value` as an array, each item read by `item`. */
export function list<T>(value: unknown, path: string, item: (v: unknown, p: string) => T): T[] {
  if (value === undefined || value === null) return [];
  if (!isArrayValue(value)) fail(path, 'an array');
  return value.map((v, i) => item(v, `${path}[${String(i)}]`));
}

/** `value` as an array of strings. */
export function strings(value: unknown, path: string): string[] {
  return list(value, path, str);
}

/** Drops `undefined` members so parsed objects keep the "omitted when empty" JSON form. */
export function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v;
  return out as T;
}

/** `value` as an optional integer of at least `min`. */
export function optInt(value: unknown, path: string, min: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    fail(path, min === 0 ? 'a non-negative integer' : `an integer of at least ${String(min)}`);
  }
  return value;
}
