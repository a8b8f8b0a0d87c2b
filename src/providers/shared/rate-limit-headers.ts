import type { ModelResponse, ProviderRateLimit } from '../../core/contract/response';
import { requestedWaitMs } from '../../core/kit/timeouts';

/** Longest header value read; anything longer is not a count, a duration or a timestamp. */
const MAX_VALUE_LENGTH = 64;
const COUNT = /^\d+$/;
/** One `<number><unit>` term of a Go-style duration (`6m0s`, `1h30m`, `20ms`, `2m59.56s`). */
const TERM = /(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/y;
const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5 micro sign
  μs: 1e-3, // U+03BC Greek mu
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
/** RFC 3339 `date-time`: `2025-01-15T12:00:30Z`, `…30.5+01:00`. */
const RFC_3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** One window as a provider reports it (each part absent when missing or unusable). */
interface Window {
  limit?: number;
  remaining?: number;
  resetMs?: number;
}

/**
 * A provider's rate-limit state from its response headers, or `undefined` when it sent none that
 * could be read.
 *
 * - OpenAI and Azure OpenAI (and OpenAI-compatible servers): `x-ratelimit-{limit,remaining,reset}-
 *   {requests,tokens}`; resets are Go-style durations (`1s`, `6m0s`, `20ms`, `1h30m`, `2m59.56s`).
 * - Anthropic: `anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}`; resets are RFC 3339
 *   timestamps, turned into ms from `now()` (a time in the past is `0`). The `tokens-*` headers
 *   are the most restrictive token limit in effect and win; without them, the `input-tokens-*` or
 *   `output-tokens-*` window with the lower `remaining` is taken whole (input on a tie or when
 *   neither says `remaining`), so limit, remaining and reset always describe one window.
 * - Per field, an OpenAI-style header wins over an Anthropic one.
 *
 * Resets are whole ms rounded up, saturated at `MAX_TIMEOUT_MS` (like `Retry-After`). Every value
 * is checked on its own: a malformed, negative, fractional count, list (a repeated header),
 * overlong or impossible value drops that field only. Never throws.
 */
export function rateLimitOf(
  headers: Headers,
  now: () => number = Date.now,
): ProviderRateLimit | undefined {
  const read = (name: string): string | undefined => {
    const value = headers.get(name);
    return value === null || value.length > MAX_VALUE_LENGTH ? undefined : value.trim();
  };
  const openaiWindow = (kind: string): Window => ({
    limit: count(read(`x-ratelimit-limit-${kind}`)),
    remaining: count(read(`x-ratelimit-remaining-${kind}`)),
    resetMs: duration(read(`x-ratelimit-reset-${kind}`)),
  });
  const anthropicWindow = (kind: string): Window => ({
    limit: count(read(`anthropic-ratelimit-${kind}-limit`)),
    remaining: count(read(`anthropic-ratelimit-${kind}-remaining`)),
    resetMs: untilTimestamp(read(`anthropic-ratelimit-${kind}-reset`), now),
  });
  const requests = merge(openaiWindow('requests'), anthropicWindow('requests'));
  const tokens = merge(openaiWindow('tokens'), anthropicTokens(anthropicWindow));
  const limit: ProviderRateLimit = {};
  if (requests.limit !== undefined) limit.limitRequests = requests.limit;
  if (requests.remaining !== undefined) limit.remainingRequests = requests.remaining;
  if (requests.resetMs !== undefined) limit.resetRequestsMs = requests.resetMs;
  if (tokens.limit !== undefined) limit.limitTokens = tokens.limit;
  if (tokens.remaining !== undefined) limit.remainingTokens = tokens.remaining;
  if (tokens.resetMs !== undefined) limit.resetTokensMs = tokens.resetMs;
  return Object.keys(limit).length === 0 ? undefined : limit;
}

/**
 * `response` with `rateLimit` set (read by {@link rateLimitOf} as soon as the response's headers
 * arrived, so a reset is relative to that moment); `response` itself when there is none.
 */
export function withRateLimit(
  response: ModelResponse,
  rateLimit: ProviderRateLimit | undefined,
): ModelResponse {
  return rateLimit === undefined ? response : { ...response, rateLimit };
}

/** Anthropic's token window: `tokens-*`, else the tighter of `input-tokens-*` / `output-tokens-*`. */
function anthropicTokens(window: (kind: string) => Window): Window {
  const total = window('tokens');
  if (!isEmpty(total)) return total;
  const input = window('input-tokens');
  const output = window('output-tokens');
  if (isEmpty(input)) return output;
  if (isEmpty(output)) return input;
  if (output.remaining === undefined) return input;
  if (input.remaining === undefined) return output;
  return output.remaining < input.remaining ? output : input;
}

function merge(first: Window, second: Window): Window {
  return {
    limit: first.limit ?? second.limit,
    remaining: first.remaining ?? second.remaining,
    resetMs: first.resetMs ?? second.resetMs,
  };
}

function isEmpty(window: Window): boolean {
  return (
    window.limit === undefined && window.remaining === undefined && window.resetMs === undefined
  );
}

/** A non-negative whole count no larger than `Number.MAX_SAFE_INTEGER`. */
function count(value: string | undefined): number | undefined {
  if (value === undefined || !COUNT.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A Go-style duration (`1h30m`, `6m0s`, `20ms`; a bare `0`) in ms. */
function duration(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === '0') return 0;
  let total = 0;
  TERM.lastIndex = 0;
  while (TERM.lastIndex < value.length) {
    const m = TERM.exec(value);
    if (m === null) return undefined;
    total += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? Number.NaN);
  }
  return requestedWaitMs(total);
}

/** An RFC 3339 timestamp as ms from `now()` (`0` when it has passed). */
function untilTimestamp(value: string | undefined, now: () => number): number | undefined {
  if (value === undefined) return undefined;
  const m = RFC_3339.exec(value);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60)
    return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // Reject impossible days (30 Feb), which would roll over into the next month.
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  let at = date.getTime() + ((hour * 60 + minute) * 60 + second) * 1000;
  at += m[7] === undefined ? 0 : Number(m[7]) * 1000;
  if (m[8] === undefined) {
    const offsetHours = Number(m[10]);
    const offsetMinutes = Number(m[11]);
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    const offset = (offsetHours * 60 + offsetMinutes) * 60_000;
    at += m[9] === '-' ? offset : -offset;
  }
  return requestedWaitMs(Math.max(0, at - now()));
}
