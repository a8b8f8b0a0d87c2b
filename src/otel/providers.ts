import { modelRef } from '../core/contract/model-name';

/** golem provider ids whose convention value (`gen_ai.provider.name`) differs or is well known. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = Object.freeze({
  openai: 'openai',
  azure: 'azure.ai.openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  vertex: 'gcp.vertex_ai',
  bedrock: 'aws.bedrock',
  groq: 'groq',
  deepseek: 'deepseek',
  mistral: 'mistral_ai',
  xai: 'x_ai',
  perplexity: 'perplexity',
  cohere: 'cohere',
});

/** A model as the conventions name it. */
export interface ModelIdentity {
  /** `gen_ai.provider.name`: the convention's well-known value, else golem's provider id. */
  readonly provider: string;
  /** `gen_ai.request.model`. */
  readonly model: string;
}

/**
 * The convention's identity of a golem model name (`openai:gpt-4o-mini` → `openai`,
 * `gpt-4o-mini`; `gemini:…` → `gcp.gemini`). A `FallbackModel` (`fallback(a, b)`) is named by its
 * primary member; a name without a provider (`test`, `scripted`) is its own provider.
 */
export function identify(name: string | undefined): ModelIdentity {
  const key = name ?? '';
  let identity = known.get(key);
  if (identity === undefined) {
    identity = Object.freeze(compute(name));
    if (known.size >= MAX_KNOWN) known.clear();
    known.set(key, identity);
  }
  return identity;
}

/** Identities by model name (a process has few models); bounded so odd names cannot grow it. */
const known = new Map<string, ModelIdentity>();
const MAX_KNOWN = 256;

function compute(name: string | undefined): ModelIdentity {
  const primary = fallbackPrimary(name) ?? name;
  const ref = modelRef(primary);
  const provider =
    ref.provider === undefined ? ref.model : (PROVIDER_NAMES[ref.provider] ?? ref.provider);
  return { provider, model: ref.model };
}

/** The first member of a `fallback(a, b, …)` name, or `undefined` for any other name. */
function fallbackPrimary(name: string | undefined): string | undefined {
  if (name === undefined || !name.startsWith('fallback(') || !name.endsWith(')')) return undefined;
  const inner = name.slice('fallback('.length, -1);
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0)
      return fallbackPrimary(inner.slice(0, i)) ?? inner.slice(0, i);
  }
  return inner;
}
