import { KNOWN_PROVIDERS, PROVIDER_ALIASES, type ProviderName } from './providers';

/** Edit distance (insertions, deletions, substitutions) between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known provider `name` most likely meant, or `undefined` when none is close: the same name
 * in lower case, a common alias (`google` → `gemini`, `claude` → `anthropic`), a known name it
 * starts (`open` → `openai`), or the nearest name within an edit distance of a third of its
 * length (at least 1; ties go to the earlier name in `KNOWN_PROVIDERS`).
 */
export function closestProvider(name: string): ProviderName | undefined {
  const lower = name.toLowerCase();
  const exact = KNOWN_PROVIDERS.find((known) => known === lower);
  if (exact !== undefined) return exact;
  if (Object.prototype.hasOwnProperty.call(PROVIDER_ALIASES, lower)) return PROVIDER_ALIASES[lower];
  if (lower.length >= 3) {
    const prefixed = KNOWN_PROVIDERS.find((known) => known.startsWith(lower));
    if (prefixed !== undefined) return prefixed;
  }
  let best: ProviderName | undefined;
  let bestDistance = Math.max(1, Math.floor(lower.length / 3));
  for (const known of KNOWN_PROVIDERS) {
    const distance = editDistance(lower, known);
    if (distance < bestDistance || (distance === bestDistance && best === undefined)) {
      best = known;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The provider a bare model id most likely belongs to, for a "did you mean" on a string without
 * a provider: `gpt-4o` → `openai`, `claude-…` → `anthropic`, `gemini-…` → `gemini`, a Bedrock
 * id such as `anthropic.claude-…` or `us.amazon.nova-…` → `bedrock`.
 */
export function providerForModelId(model: string): ProviderName | undefined {
  if (/^(?:[a-z]{2,4}\.)?(?:amazon|anthropic|meta|mistral|cohere|ai21|deepseek|qwen)\./.test(model))
    return 'bedrock';
  if (/^(?:gpt-|chatgpt-|o\d(?:-|$))/.test(model)) return 'openai';
  if (model.startsWith('claude')) return 'anthropic';
  if (model.startsWith('gemini')) return 'gemini';
  return undefined;
}
