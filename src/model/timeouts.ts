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
