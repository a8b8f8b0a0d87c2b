import { UsageLimitError, show } from '../core/engine/usage-limit';
import type { SpendCapSubject, SpendPeriod } from './spend-windows';

/**
 * The cap a call was refused by.
 * @inline
 */
export interface SpendCapHit {
  /** Whose spend it bounds. */
  readonly per: SpendCapSubject;
  readonly period: SpendPeriod;
  /** The owner, conversation or agent (absent for `global`, or when the run had none). */
  readonly subject?: string | undefined;
  /** The store's window key (`owner:alice:day:2026-12-06`). */
  readonly key: string;
  readonly limit: number;
}

/**
 * A model call was refused before it was made because it could cross a spend cap
 * (`spendCap()`): the cap's window has `spent` settled and `reserved` held by calls in flight,
 * and this call's `estimate` does not fit under `cap.limit`. A `UsageLimitError` of `limitKind`
 * `budget` (`limit` = the cap, `actual` = spent so far), so the run fails at the `usage` stage
 * with its evidence and is not retried.
 */
export class BudgetExceededError extends UsageLimitError {
  /** The cap that refused the call. */
  readonly cap: SpendCapHit;
  /** What the cap's window has spent (settled calls). */
  readonly spent: number;
  /** What calls in flight hold on it. */
  readonly reserved: number;
  /** What this call was estimated to cost (0 when refused for a missing owner or conversation). */
  readonly estimate: number;

  constructor(init: {
    cap: SpendCapHit;
    spent: number;
    reserved: number;
    estimate: number;
    currency: string;
    message?: string;
  }) {
    const { cap, spent, reserved, estimate, currency } = init;
    super(
      'budget',
      cap.limit,
      spent,
      currency,
      init.message ??
        `spend cap per ${cap.per}${cap.subject === undefined ? '' : ` ${JSON.stringify(cap.subject)}`}` +
          ` (${cap.period}) of ${show(cap.limit)} ${currency} reached: spent ${show(spent)}, ` +
          `reserved by calls in flight ${show(reserved)}, this call needs up to ${show(estimate)}`,
    );
    // Its brand (`kind`) stays UsageLimitError, so every check for a usage bound sees it.
    this.name = 'BudgetExceededError';
    this.cap = cap;
    this.spent = spent;
    this.reserved = reserved;
    this.estimate = estimate;
  }

  /** A `UsageLimitError` of `limitKind` `budget`, from any copy of the package. */
  static override readonly is = (value: unknown): value is BudgetExceededError =>
    UsageLimitError.is(value) && value.limitKind === 'budget';
}
