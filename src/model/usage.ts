/** Token usage reported by a provider; absent usage is zeros. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** A zero usage value. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0 };
}

/** The sum of two usages (missing or non-finite counts are zero). */
export function addUsage(a: Usage, b: Usage | undefined): Usage {
  return {
    inputTokens: a.inputTokens + count(b?.inputTokens),
    outputTokens: a.outputTokens + count(b?.outputTokens),
  };
}

function count(n: number | undefined): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}
