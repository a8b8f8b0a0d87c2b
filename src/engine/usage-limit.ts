import { GolemError, hasKind } from '../model/error-base';
import type { Usage } from '../model/usage';

/** Bounds on one run; each field 0 or absent means unbounded. */
export interface UsageLimit {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  requests?: number;
  toolCalls?: number;
}

/** Which bound a run crossed. */
export type UsageLimitKind =
  'input token' | 'output token' | 'total token' | 'request' | 'tool call';

/** A run crossed a usage bound. */
export class UsageLimitError extends GolemError {
  readonly limitKind: UsageLimitKind;
  readonly limit: number;
  readonly actual: number;

  constructor(limitKind: UsageLimitKind, limit: number, actual: number) {
    super('UsageLimitError', `run exceeded the ${limitKind} limit of ${limit} (used ${actual})`);
    this.limitKind = limitKind;
    this.limit = limit;
    this.actual = actual;
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is UsageLimitError {
    return hasKind(value, 'UsageLimitError');
  }
}

/** The counters a usage bound is checked against. */
export interface UsageCounters {
  usage: Usage;
  requests: number;
  toolCalls: number;
}

/**
 * The first crossed bound (strictly greater than its limit), in the order input, output, total,
 * request, tool call; `undefined` when none is crossed.
 */
export function crossedLimit(
  limit: UsageLimit | undefined,
  counters: UsageCounters,
): UsageLimitError | undefined {
  if (limit === undefined) return undefined;
  const { inputTokens, outputTokens } = counters.usage;
  const checks: [UsageLimitKind, number | undefined, number][] = [
    ['input token', limit.inputTokens, inputTokens],
    ['output token', limit.outputTokens, outputTokens],
    ['total token', limit.totalTokens, inputTokens + outputTokens],
    ['request', limit.requests, counters.requests],
    ['tool call', limit.toolCalls, counters.toolCalls],
  ];
  for (const [kind, bound, actual] of checks) {
    if (bound !== undefined && bound > 0 && actual > bound)
      return new UsageLimitError(kind, bound, actual);
  }
  return undefined;
}
