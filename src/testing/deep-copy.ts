import type { ModelRequest } from '../core/contract/request';
import type { ModelResponse } from '../core/contract/response';

/**
 * Deep copy of a model request — messages, parts and their bytes, tool calls, thinking blocks,
 * tool specs, output schema and settings — so that later mutation of either side cannot reach
 * the other. The test doubles record requests through it.
 */
export function cloneRequest(request: ModelRequest): ModelRequest {
  return deepCopy(request);
}

/** Deep copy of a model response, so an engine mutating what it received cannot alter a script. */
export function cloneResponse(response: ModelResponse): ModelResponse {
  return deepCopy(response);
}

/**
 * Structural deep copy of plain data: objects, arrays, typed arrays (bytes are copied, a Node
 * `Buffer` becomes a plain `Uint8Array`), `ArrayBuffer`, `DataView`, `Date`, `Map` and `Set`.
 * Functions and errors are shared, not copied. Cycles are preserved. Objects keep their prototype.
 */
export function deepCopy<T>(value: T): T {
  return copyValue(value, new WeakMap()) as T;
}

function copyValue(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (value instanceof Error) return value;
  if (value instanceof Uint8Array) return remember(seen, value, new Uint8Array(value));
  if (ArrayBuffer.isView(value)) {
    if (value instanceof DataView) {
      const bytes = value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
      return remember(seen, value, new DataView(bytes));
    }
    return remember(seen, value, (value as unknown as { slice(): unknown }).slice());
  }
  if (value instanceof ArrayBuffer) return remember(seen, value, value.slice(0));
  if (value instanceof Date) return remember(seen, value, new Date(value.getTime()));
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(copyValue(item, seen));
    return copy;
  }
  if (value instanceof Map) {
    const copy = new Map<unknown, unknown>();
    seen.set(value, copy);
    for (const [k, v] of value) copy.set(copyValue(k, seen), copyValue(v, seen));
    return copy;
  }
  if (value instanceof Set) {
    const copy = new Set<unknown>();
    seen.set(value, copy);
    for (const v of value) copy.add(copyValue(v, seen));
    return copy;
  }
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<
    string,
    unknown
  >;
  seen.set(value, copy);
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, {
      value: copyValue((value as Record<string, unknown>)[key], seen),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

function remember<T>(seen: WeakMap<object, unknown>, original: object, copy: T): T {
  seen.set(original, copy);
  return copy;
}
