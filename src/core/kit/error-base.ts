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

/**
 * Whether `value` is a Golem error of `kind`, from any copy of the package (the brand is a
 * `Symbol.for` registry symbol), exported class or internal. Never throws.
 *
 * @example
 * ```ts
 * if (hasKind(error, 'StreamInterruptedError')) retryLater();
 * ```
 */
export function hasKind(value: unknown, kind: string): value is GolemError {
  return brandOf(value) === kind;
}

/**
 * The brand check of an error class: `static readonly is = brandGuard<RunError>('RunError')`.
 * The guard is true for a Golem error of `kind` from any copy of the package; it never throws.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the class names the type its guard narrows to
export function brandGuard<T extends GolemError>(kind: string): (value: unknown) => value is T {
  return (value: unknown): value is T => brandOf(value) === kind;
}

export { describeError, showValue };
