import { isRecord } from '../../model/guards';
import type { Usage } from '../../model/usage';
import { usageOf } from '../../model/usage';

/**
 * Token usage from a chat-completions `usage` object: `prompt_tokens` (which already includes
 * cached tokens) and `completion_tokens` (which already includes reasoning tokens), with
 * `prompt_tokens_details.cached_tokens` as cache reads (DeepSeek: `prompt_cache_hit_tokens`) and
 * `completion_tokens_details.reasoning_tokens` as reasoning. Zeros when absent.
 */
export function parseUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { inputTokens: 0, outputTokens: 0 };
  const prompt = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completion = isRecord(usage.completion_tokens_details)
    ? usage.completion_tokens_details
    : {};
  return usageOf(usage.prompt_tokens, usage.completion_tokens, {
    cacheReadTokens: prompt.cached_tokens ?? usage.prompt_cache_hit_tokens,
    reasoningTokens: completion.reasoning_tokens,
  });
}
