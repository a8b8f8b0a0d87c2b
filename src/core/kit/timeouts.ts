/** The largest delay a Node timer honours (about 24.8 days); longer ones would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** Why `value` is not a usable timeout in ms (finite, >= 0, <= MAX_TIMEOUT_MS), or undefined. */
export function timeoutProblem(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    return 'must be a finite number of ms >= 0';
  }
  if (value > MAX_TIMEOUT_MS) return `must be at most ${MAX_TIMEOUT_MS} ms (about 24.8 days)`;
  return undefined;
}

/**
 * A wait a provider asked for, made safe for timers: whole ms rounded **up** (never shorter than
 * asked), saturated at `MAX_TIMEOUT_MS`, which then reads "at least that long" (the engine never
 * waits it: it gives up instead). `undefined` for what is not a wait at all: a non-number, `NaN` or
 * a negative value. `Infinity` (a number too large to represent) saturates like any long wait.
 */
export function requestedWaitMs(value: unknown): number | undefined {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) return undefined;
  if (value >= MAX_TIMEOUT_MS) return MAX_TIMEOUT_MS;
  return Math.ceil(value);
}
