import type { JsonValue } from '../core/index';
import { WorkflowError } from './workflow-error';

/**
 * A deep copy of `value` as plain JSON, or a `not-json` {@link WorkflowError} naming `what`:
 * only `null`, booleans, finite numbers, strings, arrays and plain objects pass (`undefined`
 * object properties are dropped, as `JSON.stringify` does). Internal.
 */
export function toJsonValue(
  value: unknown,
  what: string,
  where: { runId?: string; step?: string } = {},
): JsonValue {
  const seen = new Set<object>();
  const fail = (path: string, problem: string): never => {
    throw new WorkflowError(
      'not-json',
      `${what} is not JSON-serialisable: ${path === '' ? 'the value' : path} ${problem}; return plain data (objects, arrays, strings, numbers, booleans, null)`,
      where,
    );
  };
  const copy = (v: unknown, path: string): JsonValue => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : fail(path, `is ${String(v)}`);
    if (typeof v !== 'object') return fail(path, `is a ${typeof v}`);
    if (seen.has(v)) return fail(path, 'is a cycle');
    seen.add(v);
    try {
      if (Array.isArray(v)) return v.map((item: unknown, i) => copy(item, `${path}[${String(i)}]`));
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null)
        return fail(path, `is a ${v.constructor.name} instance`);
      const out: { [key: string]: JsonValue } = {};
      for (const [key, item] of Object.entries(v)) {
        if (item !== undefined) out[key] = copy(item, path === '' ? key : `${path}.${key}`);
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return copy(value, '');
}

/** JSON text of `value` (`undefined` → `null`), checked. Internal. */
export function jsonText(
  value: unknown,
  what: string,
  where: { runId?: string; step?: string } = {},
): string {
  return value === undefined ? 'null' : JSON.stringify(toJsonValue(value, what, where));
}
