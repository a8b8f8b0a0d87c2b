import { ModelRetry } from '../../src/core/index';

/** Bounds on untrusted values handed to a DTO (on top of the engine's safe JSON parse). */
export const INPUT_LIMITS = Object.freeze({
  /** Deepest nesting of arrays and objects. */
  maxDepth: 64,
  /** Most values (objects, arrays, primitives) in one input. */
  maxNodes: 100_000,
  /** Most string characters (keys and values) in one input. */
  maxChars: 4 * 1024 * 1024,
});

/** Keys rejected at any depth (prototype pollution). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

/** What the value is, for messages: `null`, `an array`, `a number`… */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`;
}

/**
 * Checks that `value` is a plain JSON object within {@link INPUT_LIMITS}, with no
 * prototype-polluting keys at any depth (`__proto__`, `constructor`, `prototype`) and nothing but
 * JSON data. Throws `ModelRetry` naming the problem; `subject` says what was expected.
 */
export function guardInput(value: unknown, subject: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ModelRetry(`expected ${subject} as a JSON object, got ${kindOf(value)}`);
  }
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let nodes = 0;
  let chars = 0;
  while (stack.length > 0) {
    const current = stack.pop() as { value: unknown; depth: number };
    nodes++;
    if (nodes > INPUT_LIMITS.maxNodes) {
      throw new ModelRetry(`too many values (more than ${INPUT_LIMITS.maxNodes})`);
    }
    const item = current.value;
    if (typeof item === 'string') chars += item.length;
    if (typeof item !== 'object' || item === null) {
      if (!isJsonPrimitive(item)) throw new ModelRetry('only JSON data is allowed');
    } else {
      if (current.depth > INPUT_LIMITS.maxDepth) {
        throw new ModelRetry(`nesting deeper than ${INPUT_LIMITS.maxDepth} levels is not allowed`);
      }
      const proto: unknown = Object.getPrototypeOf(item);
      if (!Array.isArray(item) && proto !== Object.prototype && proto !== null) {
        throw new ModelRetry('only JSON data is allowed');
      }
      for (const key of Object.keys(item)) {
        if (!Array.isArray(item)) {
          if (FORBIDDEN_KEYS.has(key)) throw new ModelRetry(`the key "${key}" is not allowed`);
          chars += key.length;
        }
        stack.push({ value: (item as Record<string, unknown>)[key], depth: current.depth + 1 });
      }
    }
    if (chars > INPUT_LIMITS.maxChars) {
      throw new ModelRetry(`too much text (more than ${INPUT_LIMITS.maxChars} characters)`);
    }
  }
  return value as Record<string, unknown>;
}

function isJsonPrimitive(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}
