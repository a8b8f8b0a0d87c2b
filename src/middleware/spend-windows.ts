import type { CallScope } from '../core/contract/model';
import type { SpendWindow } from '../core/durable/spend-port';
import { ConfigError } from '../core/kit/config-error';
import { isRecord } from '../core/kit/guards';

/**
 * Whose spend a cap bounds: the run's `owner` (a user or tenant), its `conversation`, its agent
 * (by `name`), or every call (`global`).
 * @inline
 */
export type SpendCapSubject = 'owner' | 'conversation' | 'agent' | 'global';

/** The period a cap resets on (UTC calendar days and months), or `total` (never resets). */
export type SpendPeriod = 'day' | 'month' | 'total';

/** One spend cap of `spendCap()`. */
export interface SpendCapRule {
  /** Whose spend it bounds. */
  per: SpendCapSubject;
  /** When it resets; default `total`. */
  period?: SpendPeriod;
  /** The most it allows, in the price table's currency (> 0). */
  limit: number;
  /**
   * A call without the subject (no `owner` or `conversation` in the run options): `skip` (the
   * default) leaves the cap out for it, `refuse` fails it with `BudgetExceededError`.
   */
  missing?: 'skip' | 'refuse';
}

/** A cap as one call meets it: its window, or `refuse` when its subject is missing. Internal. */
export interface CapWindow {
  readonly rule: SpendCapRule;
  readonly subject: string | undefined;
  readonly window: SpendWindow;
}

const PERIODS: readonly SpendPeriod[] = ['day', 'month', 'total'];
const SUBJECTS: readonly SpendCapSubject[] = ['owner', 'conversation', 'agent', 'global'];
/** How long a finished period's totals are kept (a late settle, a report of yesterday). */
const GRACE_MS = 2 * 86_400_000;

/** Validates `spendCap`'s `caps` (ConfigError, component `middleware`). Internal. */
export function checkCaps(caps: unknown): readonly SpendCapRule[] {
  const fail = (message: string) =>
    new ConfigError(`spendCap: ${message}`, { component: 'middleware', option: 'caps' });
  if (!Array.isArray(caps) || caps.length === 0)
    throw fail(
      "`caps` must be a non-empty array, e.g. [{ per: 'owner', period: 'day', limit: 5 }]",
    );
  return (caps as unknown[]).map((cap, i) => {
    if (!isRecord(cap)) throw fail(`caps[${i}] must be an object { per, period?, limit }`);
    const { per, period = 'total', limit, missing = 'skip' } = cap;
    if (!SUBJECTS.includes(per as SpendCapSubject))
      throw fail(`caps[${i}].per must be one of ${SUBJECTS.join(', ')}`);
    if (!PERIODS.includes(period as SpendPeriod))
      throw fail(`caps[${i}].period must be one of ${PERIODS.join(', ')}`);
    if (typeof limit !== 'number' || !Number.isFinite(limit) || limit <= 0)
      throw fail(`caps[${i}].limit must be a number > 0 (in the price table's currency)`);
    if (missing !== 'skip' && missing !== 'refuse')
      throw fail(`caps[${i}].missing must be 'skip' or 'refuse'`);
    return { per, period, limit, missing } as SpendCapRule;
  });
}

/** The UTC period containing `now`: its stamp (`2026-12-06`, `2026-12`) and bounds. Internal. */
export function periodOf(
  period: SpendPeriod,
  now: number,
): { stamp: string | undefined; from: number; to: number } {
  const date = new Date(now);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  if (period === 'day') {
    const from = Date.UTC(y, m, date.getUTCDate());
    return { stamp: date.toISOString().slice(0, 10), from, to: from + 86_400_000 };
  }
  if (period === 'month')
    return {
      stamp: date.toISOString().slice(0, 7),
      from: Date.UTC(y, m, 1),
      to: Date.UTC(y, m + 1, 1),
    };
  return { stamp: undefined, from: 0, to: Number.MAX_SAFE_INTEGER };
}

/** The subject of `rule` in `scope` (`undefined` when the run has none). */
function subjectOf(rule: SpendCapRule, scope: CallScope | undefined): string | undefined {
  if (rule.per === 'global') return '';
  if (rule.per === 'owner') return scope?.owner;
  if (rule.per === 'conversation') return scope?.conversationId;
  return scope?.agent;
}

/**
 * The windows a call at `now` falls under (`owner:alice:day:2026-12-06`, `global:total`…); caps
 * whose subject is missing are left out, or returned in `refused` when they say `refuse`.
 * Subjects are URI-encoded in the key so no two subjects share a window. Internal.
 */
export function windowsOf(
  rules: readonly SpendCapRule[],
  scope: CallScope | undefined,
  now: number,
): { windows: CapWindow[]; refused: SpendCapRule | undefined } {
  const windows: CapWindow[] = [];
  for (const rule of rules) {
    const subject = subjectOf(rule, scope);
    if (subject === undefined) {
      if (rule.missing === 'refuse') return { windows, refused: rule };
      continue;
    }
    const period = rule.period ?? 'total';
    const { stamp, to } = periodOf(period, now);
    const parts: string[] = [rule.per];
    if (rule.per !== 'global') parts.push(encodeURIComponent(subject));
    parts.push(period);
    if (stamp !== undefined) parts.push(stamp);
    const window: SpendWindow =
      stamp === undefined
        ? { key: parts.join(':'), limit: rule.limit }
        : { key: parts.join(':'), limit: rule.limit, expiresAt: to + GRACE_MS };
    windows.push({ rule, subject: rule.per === 'global' ? undefined : subject, window });
  }
  return { windows, refused: undefined };
}
