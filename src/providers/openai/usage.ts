import { isRecord } from '../../core/kit/guards';
import type { Usage } from '../../core/contract/usage';
import { usageOf } from '../../core/contract/usage';

/**
 * Token usage from a chat-completions `usage` object: `prompt_tokens` (which already includes
 * cached tokens) and `completion_tokens` (which already includes reasoning tokens), with
 * `prompt_tokens_details.cached_tokens` as cache reads (DeepSeek: `prompt_cache_hit_tokens`) and
 * `completion_tokens_details.reasoning_tokens` as reasoning. Zeros when absent.
 *
 * Some OpenAI-compatible providers (xAI) count reasoning outside `completion_tokens`: their
 * `total_tokens` is prompt + completion + reasoning. Then reasoning is added to the output, so
 * `outputTokens` always includes reasoning (what usage limits and prices count).
 */
export function parseUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { inputTokens: 0, outputTokens: 0 };
  const prompt = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completion = isRecord(usage.completion_tokens_details)
    ? usage.completion_tokens_details
    : {};
  return usageOf(usage.prompt_tokens, outputCount(usage, completion.reasoning_tokens), {
    cacheReadTokens: prompt.cached_tokens ?? usage.prompt_cache_hit_tokens,
    reasoningTokens: completion.reasoning_tokens,
  });
}

/** `completion_tokens`, plus reasoning when the provider counted it apart (see parseUsage). */
function outputCount(usage: Record<string, unknown>, reasoning: unknown): unknown {
  const { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total } = usage;
  if (
    typeof prompt === 'number' &&
    typeof completion === 'number' &&
    typeof total === 'number' &&
    typeof reasoning === 'number' &&
    reasoning > 0 &&
    total !== prompt + completion &&
    total === prompt + completion + reasoning
  )
    return completion + reasoning;
  return completion;
}
