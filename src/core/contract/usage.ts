/**
 * Token usage reported by a provider; absent usage is zeros.
 *
 * One meaning across providers (every adapter converts to it):
 * - `inputTokens` counts **every** input token, cache reads and cache writes included (OpenAI's
 *   `prompt_tokens`; Anthropic's `input_tokens + cache_read_input_tokens +
 *   cache_creation_input_tokens`; Gemini's `promptTokenCount`; Bedrock's `inputTokens +
 *   cacheReadInputTokens + cacheWriteInputTokens`). This is also OpenTelemetry's
 *   `gen_ai.usage.input_tokens`.
 * - `outputTokens` counts **every** output token, reasoning included (Gemini's
 *   `candidatesTokenCount + thoughtsTokenCount`).
 * - The token detail fields are subsets of those totals, present only when the provider reports
 *   a positive count (absent = none, or not reported); `cachedResponses` counts calls.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache (a subset of `inputTokens`). */
  cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache (a subset of `inputTokens`). */
  cacheWriteTokens?: number;
  /** Output tokens spent on reasoning (a subset of `outputTokens`). */
  reasoningTokens?: number;
  /**
   * Model calls answered by a response cache (`responseCache()` from `golem/middleware`) instead
   * of the provider: a count of calls, not tokens. A cached answer's tokens are not counted (nor
   * priced): nothing was spent on them.
   */
  cachedResponses?: number;
}

/** The optional detail counters of {@link Usage}, in contract order. */
export const USAGE_DETAILS = [
  'cacheReadTokens',
  'cacheWriteTokens',
  'reasoningTokens',
  'cachedResponses',
] as const;

/** One detail counter of {@link Usage}. */
export type UsageDetail = (typeof USAGE_DETAILS)[number];

/** A zero usage value. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0 };
}

/**
 * The sum of two usages (missing or non-finite counts are zero). A detail counter is present in
 * the sum when either side has it, so usage without details stays `{ inputTokens, outputTokens }`.
 */
export function addUsage(a: Usage, b: Usage | undefined): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + count(b?.inputTokens),
    outputTokens: a.outputTokens + count(b?.outputTokens),
  };
  // The detail counters one by one (no loop over their names): every response adds its usage.
  const bDetails = b ?? NO_DETAILS;
  addDetail(sum, 'cacheReadTokens', a.cacheReadTokens, bDetails.cacheReadTokens);
  addDetail(sum, 'cacheWriteTokens', a.cacheWriteTokens, bDetails.cacheWriteTokens);
  addDetail(sum, 'reasoningTokens', a.reasoningTokens, bDetails.reasoningTokens);
  addDetail(sum, 'cachedResponses', a.cachedResponses, bDetails.cachedResponses);
  return sum;
}

const NO_DETAILS: Partial<Usage> = {};

/** Sets `key` on `sum` when either side reports it ("not reported" stays absent). */
function addDetail(
  sum: Usage,
  key: UsageDetail,
  left: number | undefined,
  right: number | undefined,
): void {
  if (left !== undefined || right !== undefined) sum[key] = count(left) + count(right);
}

/**
 * A usage value from provider counts (anything not a finite positive number counts 0). A detail
 * counter is set only when it is a positive count, so usage without cache or reasoning tokens
 * stays `{ inputTokens, outputTokens }`.
 */
export function usageOf(
  inputTokens: unknown,
  outputTokens: unknown,
  details: Partial<Record<UsageDetail, unknown>> = {},
): Usage {
  const usage: Usage = { inputTokens: count(inputTokens), outputTokens: count(outputTokens) };
  for (const key of USAGE_DETAILS) {
    const value = count(details[key]);
    if (value > 0) usage[key] = value;
  }
  return usage;
}

function count(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}
