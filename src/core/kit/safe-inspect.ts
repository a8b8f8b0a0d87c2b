/**
 * Inspection of values that may be hostile: anything can be thrown or passed as an error,
 * including objects whose getters throw, revoked `Proxy`s (every trap throws, so `instanceof`,
 * `in`, `Array.isArray` and property reads all throw), objects with a throwing `toString` or
 * `Symbol.toPrimitive`, null-prototype objects, symbols and functions. Every helper here returns a
 * neutral answer instead of throwing, so describing and classifying errors never replaces the
 * error being described with the inspection's own failure.
 */

/** `value[key]`, or `undefined` when reading it throws (a throwing getter or proxy trap). */
export function safeGet(value: unknown, key: PropertyKey): unknown {
  if (value === null || value === undefined) return undefined;
  try {
    return (value as Record<PropertyKey, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** `key in value` for objects and functions; `false` for primitives and when the check throws. */
export function safeHas(value: unknown, key: PropertyKey): boolean {
  if (!isObjectLike(value)) return false;
  try {
    return key in value;
  } catch {
    return false;
  }
}

/** `value instanceof type`; `false` when the check throws (a revoked proxy, a hostile trap). */
export function safeInstanceOf(
  value: unknown,
  type: abstract new (...args: never[]) => unknown,
): boolean {
  if (!isObjectLike(value)) return false;
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/** The elements of `value` when it is a readable array, else an empty list; never throws. */
export function safeArray(value: unknown): unknown[] {
  try {
    return Array.isArray(value) ? Array.from(value as unknown[]) : [];
  } catch {
    return [];
  }
}

/** Whether `value` is an object or a function (`typeof` never throws, even on a revoked proxy). */
export function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/**
 * Whether `value` is an `Error` of this realm or another (its `Object.prototype.toString` tag);
 * `false` when either check throws.
 */
export function isErrorValue(value: unknown): value is Error {
  if (safeInstanceOf(value, Error)) return true;
  if (!isObjectLike(value)) return false;
  try {
    return Object.prototype.toString.call(value) === '[object Error]';
  } catch {
    return false;
  }
}

/**
 * Text of an unknown thrown value, for messages; never throws. Strings are themselves; an `Error`
 * gives its message (or, without a readable string message, `<name> (no readable message)`);
 * anything else its JSON text or, when it has none, a short description of its type.
 */
export function describeError(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isErrorValue(value)) {
    const message = safeGet(value, 'message');
    if (typeof message === 'string') return message;
    const name = safeGet(value, 'name');
    return `${typeof name === 'string' && name !== '' ? name : 'Error'} (no readable message)`;
  }
  return showValue(value);
}

/**
 * JSON text of a value for messages, falling back to its type when it has no JSON form
 * (`undefined`, a cycle, a throwing getter or `toJSON`, a revoked proxy; symbols and functions add
 * their description or name). Never throws.
 */
export function showValue(value: unknown): string {
  try {
    const text: unknown = JSON.stringify(value);
    if (typeof text === 'string') return text;
  } catch {
    // Fall through to the type description.
  }
  return typeDescription(value);
}

function typeDescription(value: unknown): string {
  if (typeof value === 'symbol') {
    const description = safeGet(value, 'description');
    return typeof description === 'string' ? `Symbol(${description})` : 'symbol';
  }
  if (typeof value === 'function') {
    const name = safeGet(value, 'name');
    return typeof name === 'string' && name !== '' ? `function ${name}` : 'function';
  }
  return typeof value;
}
