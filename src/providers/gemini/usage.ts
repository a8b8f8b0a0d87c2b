import { isRecord } from '../../core/kit/guards';
import type { Usage } from '../../core/contract/usage';
import { usageOf } from '../../core/contract/usage';

const FIELDS = [
  'promptTokenCount',
  'toolUsePromptTokenCount',
  'cachedContentTokenCount',
  'candidatesTokenCount',
  'thoughtsTokenCount',
] as const;

/**
 * Gemini's `usageMetadata`, the last reported value of each field (a stream repeats it, growing).
 * Neutral usage: input is `promptTokenCount` (cached content included) plus
 * `toolUsePromptTokenCount`; output is `candidatesTokenCount` plus `thoughtsTokenCount` (the API
 * counts thoughts apart, and bills them as output); cache reads are `cachedContentTokenCount`,
 * reasoning is `thoughtsTokenCount`.
 */
export class GeminiUsage {
  private readonly counts: Partial<Record<(typeof FIELDS)[number], number>> = {};

  /** Reads one `usageMetadata` object; fields it lacks keep their earlier value. */
  read(metadata: unknown): void {
    if (!isRecord(metadata)) return;
    for (const field of FIELDS) {
      const n = metadata[field];
      if (typeof n === 'number' && Number.isFinite(n) && n >= 0) this.counts[field] = Math.floor(n);
    }
  }

  /** The neutral usage of what was read. */
  usage(): Usage {
    const c = this.counts;
    return usageOf(
      (c.promptTokenCount ?? 0) + (c.toolUsePromptTokenCount ?? 0),
      (c.candidatesTokenCount ?? 0) + (c.thoughtsTokenCount ?? 0),
      { cacheReadTokens: c.cachedContentTokenCount, reasoningTokens: c.thoughtsTokenCount },
    );
  }
}
