/** Whether `value` is an array (without widening its element type to `any`). */
export function isArrayValue(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

/** Whether `value` is a non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
