import { describeError, safeGet, showValue } from './safe-inspect';

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

/** The brand of a Golem error, or `undefined` for anything else; never throws. */
export function brandOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const brand = safeGet(value, BRAND);
  return typeof brand === 'string' ? brand : undefined;
}

/** Whether `value` carries the brand `kind`. */
export function hasKind(value: unknown, kind: string): boolean {
  return brandOf(value) === kind;
}

export { describeError, showValue };
