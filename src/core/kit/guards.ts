/** Whether `value` is an array (without widening its element type to `any`). */
export function isArrayValue(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

/** Whether `value` is a non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether `value` is a promise or any other thenable — what `await` would wait for. Lets a hot
 * path skip an `await` (a microtask) when a callback answered synchronously.
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    value instanceof Promise ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as { then?: unknown }).then === 'function')
  );
}
