import { requestedWaitMs } from '../../core/kit/timeouts';

const DELAY = /^\d+(?:\.\d+)?$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate, the preferred form). */
const IMF_FIXDATE = new RegExp(`^[a-z]{3}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} gmt$`, 'i');
/** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete RFC 850 form). */
const RFC_850 = new RegExp(`^[a-z]{6,9}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} gmt$`, 'i');
/** `Sun Nov  6 08:49:37 1994` (obsolete asctime form). */
const ASCTIME = new RegExp(`^[a-z]{3} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`, 'i');

/**
 * Milliseconds the provider asked to wait, from `retry-after-ms` (OpenAI-style, ms) or else
 * `Retry-After` (delay-seconds or an HTTP-date, RFC 9110 §10.2.3).
 *
 * - Rounded up to whole ms, so a retry never comes sooner than asked; a date in the past is `0`.
 * - A request longer than a timer can hold (a date in 2100, `99999999` seconds, values above
 *   2^31 ms) saturates at `MAX_TIMEOUT_MS`, meaning "at least that long": the engine then gives
 *   up with `RetryAfterTooLongError` rather than retrying early.
 * - `undefined` when the headers are absent or unusable (negative, fractional garbage, lists,
 *   free text, impossible dates): the retry policy then uses its own backoff.
 *
 * Never `NaN`, negative or above `MAX_TIMEOUT_MS`. `now` is injectable for tests.
 */
export function retryAfterMs(headers: Headers, now: () => number = Date.now): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms !== undefined && DELAY.test(ms)) return requestedWaitMs(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (value === undefined) return undefined;
  if (DELAY.test(value)) return requestedWaitMs(Number(value) * 1000);
  const at = httpDate(value, now);
  return at === undefined ? undefined : requestedWaitMs(Math.max(0, at - now()));
}

/** The instant of an HTTP-date in any of its three forms, or `undefined` when it is not one. */
function httpDate(text: string, now: () => number): number | undefined {
  let m = IMF_FIXDATE.exec(text);
  if (m !== null) return utc(m[3], m[2], m[1], m[4], m[5], m[6]);
  m = RFC_850.exec(text);
  if (m !== null) return utc(fullYear(Number(m[3]), now), m[2], m[1], m[4], m[5], m[6]);
  m = ASCTIME.exec(text);
  if (m !== null) return utc(m[6], m[1], m[2], m[3], m[4], m[5]);
  return undefined;
}

/** RFC 9110: a two-digit year more than 50 years ahead means the most recent such past year. */
function fullYear(twoDigits: number, now: () => number): number {
  const current = new Date(now()).getUTCFullYear();
  const candidate = current - (current % 100) + twoDigits;
  return candidate > current + 50 ? candidate - 100 : candidate;
}

function utc(
  year: string | number | undefined,
  month: string | undefined,
  day: string | undefined,
  hour: string | undefined,
  minute: string | undefined,
  second: string | undefined,
): number | undefined {
  const y = Number(year);
  const mo = MONTHS.indexOf((month ?? '').toLowerCase());
  const d = Number(day);
  const [h, mi, s] = [Number(hour), Number(minute), Number(second)];
  if (mo < 0 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, mo, d); // not Date.UTC, which reads years 0-99 as 1900-1999
  // Reject impossible days (30 Feb), which would roll over into the next month.
  if (date.getUTCMonth() !== mo || date.getUTCDate() !== d) return undefined;
  return date.getTime() + ((h * 60 + mi) * 60 + s) * 1000;
}
