import { GolemError, brandGuard } from '../kit/error-base';
import type { Usage } from '../contract/usage';

/** Bounds on one run; each field 0 or absent means unbounded. */
export interface UsageLimit {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  requests?: number;
  toolCalls?: number;
  /** Reasoning tokens (`usage.reasoningTokens`, where the provider reports them). */
  reasoningTokens?: number;
  /** The run's cost (`result.cost.total`, in the price table's currency); needs the agent's `prices`. */
  cost?: number;
}

/**
 * Which bound a run crossed.
 * @inline
 */
export type UsageLimitKind =
  | 'input token'
  | 'output token'
  | 'total token'
  | 'request'
  | 'tool call'
  | 'reasoning token'
  | 'cost'
  | 'budget';

/**
 * A run crossed a usage bound: one of its `usageLimit`s, or (`limitKind: 'budget'`) a spend cap
 * shared with other runs (`BudgetExceededError` from `golem/middleware`). Thrown by a model call
 * or its middleware, it fails the run at the `usage` stage.
 */
export class UsageLimitError extends GolemError {
  readonly limitKind: UsageLimitKind;
  readonly limit: number;
  readonly actual: number;
  /** The cost's currency, for a `cost` bound. */
  readonly currency: string | undefined;

  constructor(
    limitKind: UsageLimitKind,
    limit: number,
    actual: number,
    currency?: string,
    /** Replaces the default message (a subclass describing its own bound). */
    message?: string,
  ) {
    const unit = currency === undefined ? '' : ` ${currency}`;
    super(
      'UsageLimitError',
      message ??
        `run exceeded the ${limitKind} limit of ${show(limit)}${unit} (used ${show(actual)}${unit})`,
    );
    this.limitKind = limitKind;
    this.limit = limit;
    this.actual = actual;
    this.currency = currency;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<UsageLimitError>('UsageLimitError');
}

/** Integers as they are; fractions (costs) rounded to 6 decimals without trailing zeros. Internal. */
export function show(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6)));
}

/** The counters a usage bound is checked against. */
export interface UsageCounters {
  usage: Usage;
  requests: number;
  toolCalls: number;
  /** The run's cost so far, when the agent prices its responses. */
  cost?: { readonly total: number; readonly currency: string } | undefined;
}

/**
 * The first crossed bound (strictly greater than its limit), in the order input, output, total,
 * request, tool call, reasoning token, cost; `undefined` when none is crossed.
 */
export function crossedLimit(
  limit: UsageLimit | undefined,
  counters: UsageCounters,
): UsageLimitError | undefined {
  if (limit === undefined) return undefined;
  // One check per bound, no list built: every response of every run with a limit comes here.
  const usage = counters.usage;
  const { inputTokens, outputTokens } = usage;
  return (
    crossed('input token', limit.inputTokens, inputTokens) ??
    crossed('output token', limit.outputTokens, outputTokens) ??
    crossed('total token', limit.totalTokens, inputTokens + outputTokens) ??
    crossed('request', limit.requests, counters.requests) ??
    crossed('tool call', limit.toolCalls, counters.toolCalls) ??
    crossed('reasoning token', limit.reasoningTokens, usage.reasoningTokens ?? 0) ??
    crossedCost(limit, counters)
  );
}

/** The error of one bound when `actual` is strictly over it (a bound of 0 or less is none). */
function crossed(
  kind: UsageLimitKind,
  bound: number | undefined,
  actual: number,
): UsageLimitError | undefined {
  return bound !== undefined && bound > 0 && actual > bound
    ? new UsageLimitError(kind, bound, actual)
    : undefined;
}

/** The cost bound's error when the run's priced cost is over it. */
function crossedCost(limit: UsageLimit, counters: UsageCounters): UsageLimitError | undefined {
  const cost = counters.cost;
  if (limit.cost !== undefined && limit.cost > 0 && cost !== undefined && cost.total > limit.cost)
    return new UsageLimitError('cost', limit.cost, cost.total, cost.currency);
  return undefined;
}
