import type { SpendDimension, SpendRow, SpendStore } from '../core/durable/spend-port';
import { ConfigError } from '../core/kit/config-error';
import { periodOf } from './spend-windows';

/** Options of {@link spendReport}: a UTC period containing `at`, or an explicit range. */
export type SpendReportOptions = {
  /** What the rows are grouped by (`['owner']`, `['agent', 'model']`…); default none. */
  by?: readonly SpendDimension[];
} & (
  | {
      /** The UTC day or month containing `at` (default now). */
      period: 'day' | 'month';
      /** A moment in the period (ms since the epoch or a Date); default now. */
      at?: number | Date;
    }
  | {
      /** From (inclusive), ms since the epoch or a Date. */
      from: number | Date;
      /** To (exclusive), ms since the epoch or a Date. */
      to: number | Date;
    }
);

/**
 * Spend by owner, agent, model or conversation over a period, from a spend store's ledger (every
 * call `spendCap()` settled): one row per group and currency with its cost, calls and tokens.
 *
 * ```ts
 * const rows = await spendReport(store, { period: 'month', by: ['owner', 'model'] });
 * ```
 */
export function spendReport(store: SpendStore, options: SpendReportOptions): Promise<SpendRow[]> {
  const by = options.by ?? [];
  let from: number;
  let to: number;
  if ('period' in options) {
    const period: string = options.period;
    if (period !== 'day' && period !== 'month')
      throw new ConfigError("spendReport: `period` must be 'day' or 'month'", {
        component: 'middleware',
        option: 'period',
      });
    const at = options.at === undefined ? Date.now() : +options.at;
    ({ from, to } = periodOf(options.period, at));
  } else {
    from = +options.from;
    to = +options.to;
  }
  if (!Number.isFinite(from) || !Number.isFinite(to))
    throw new ConfigError('spendReport: the period bounds must be dates or ms since the epoch', {
      component: 'middleware',
      option: 'from',
    });
  return store.report({ from, to, by });
}
