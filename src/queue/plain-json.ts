import { QueueError } from './queue-error';

/** How deep plain JSON may nest (objects and arrays). */
export const MAX_JSON_DEPTH = 64;

function kindOf(value: object): string {
  const proto: unknown = Object.getPrototypeOf(value);
  if (value instanceof Date) return 'a Date (send value.toISOString())';
  if (value instanceof Map) return 'a Map (send Object.fromEntries(map))';
  if (value instanceof Set) return 'a Set (send [...set])';
  const name =
    typeof proto === 'object' && proto !== null
      ? (proto as { constructor?: { name?: unknown } }).constructor?.name
      : undefined;
  return `an instance of ${typeof name === 'string' && name !== '' ? name : 'a class'}`;
}

function problemOf(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${String(value)} (not a finite number)`;
    case 'bigint':
      return 'a BigInt (send it as a string)';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'undefined':
      return 'undefined';
    default:
      return undefined;
  }
}

function walk(value: unknown, path: string, seen: Set<object>, depth: number): string | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'object') {
    const problem = problemOf(value);
    return problem === undefined ? undefined : `${path} is ${problem}`;
  }
  if (depth > MAX_JSON_DEPTH) return `${path} nests deeper than ${MAX_JSON_DEPTH} levels`;
  if (seen.has(value)) return `${path} refers back to itself (a cycle)`;
  const proto: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null)
    return `${path} is ${kindOf(value)}`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const problem = walk(value[i], `${path}[${i}]`, seen, depth + 1);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    for (const [key, entry] of Object.entries(value)) {
      if (entry === undefined) continue; // dropped by JSON, as callers expect of optional fields
      const child = /^[A-Za-z_$][\w$]*$/.test(key)
        ? `${path}.${key}`
        : `${path}[${JSON.stringify(key)}]`;
      const problem = walk(entry, child, seen, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}

/**
 * `value` as JSON text when it is plain JSON — `null`, booleans, strings, finite numbers, arrays
 * and plain objects (`undefined` properties are dropped) — or a `QueueError` with `reason` naming
 * the first offending path (`deps.user.createdAt is a Date (send value.toISOString())`).
 */
export function plainJson(
  value: unknown,
  name: string,
  reason: 'invalid-deps' | 'invalid-input',
  fix: string,
): string {
  const problem = walk(value, name, new Set(), 0);
  if (problem !== undefined) throw new QueueError(`${problem}: ${fix}`, { reason });
  return JSON.stringify(value);
}

/** UTF-8 byte length of `text`. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Throws `too-large` when `text` is over `limit` bytes. */
export function checkSize(text: string, what: string, limit: number, option: string): void {
  const size = byteLength(text);
  if (size > limit)
    throw new QueueError(
      `${what} is ${size} bytes, over the limit of ${limit}: send a reference (an id, a URL) instead of the content, or raise \`${option}\``,
      { reason: 'too-large' },
    );
}
