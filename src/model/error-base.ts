/** Brand key shared by every copy of this package (a `Symbol.for` registry symbol). */
const BRAND = Symbol.for('golem.error.kind');

/**
 * Base of every error Golem throws. Identity checks go through `kind` and a registry-symbol
 * brand, so they work across duplicate copies of the package where `instanceof` does not.
 */
export class GolemError extends Error {
  /** Stable discriminant, e.g. `RunError`, `ModelRetry`. */
  readonly kind: string;

  constructor(kind: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = kind;
    Object.defineProperty(this, BRAND, { value: kind, enumerable: false });
  }

  /** Whether `value` is a Golem error (of any kind, from any copy of the package). */
  static isGolemError(value: unknown): value is GolemError {
    return brandOf(value) !== undefined;
  }
}

/** The brand of a Golem error, or `undefined` for anything else. */
export function brandOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const brand = (value as Record<symbol, unknown>)[BRAND];
  return typeof brand === 'string' ? brand : undefined;
}

/** Whether `value` carries the brand `kind`. */
export function hasKind(value: unknown, kind: string): boolean {
  return brandOf(value) === kind;
}

/** Text of an unknown thrown value, for messages. */
export function describeError(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'string') return value;
  return showValue(value);
}

/** JSON text of a value for messages, falling back to its type when it has none. */
export function showValue(value: unknown): string {
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === 'string' ? text : typeof value;
  } catch {
    return typeof value;
  }
}
