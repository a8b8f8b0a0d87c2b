import { OPENAI_PRESET_NAMES, type OpenAIPresetName } from '../openai';

/** A provider name a model string can start with. */
export type ProviderName =
  'anthropic' | 'gemini' | 'azure' | 'bedrock' | 'openai-responses' | OpenAIPresetName | 'test';

/**
 * Every provider a model string can name, in the order error messages list them: OpenAI and the
 * other adapters first, then the remaining OpenAI-compatible presets, then `test`.
 */
export const KNOWN_PROVIDERS: readonly ProviderName[] = Object.freeze([
  'openai',
  'anthropic',
  'gemini',
  'azure',
  'bedrock',
  'openai-responses',
  ...OPENAI_PRESET_NAMES.filter((name) => name !== 'openai'),
  'test',
]);

/** Whether `name` is one of {@link KNOWN_PROVIDERS}. */
export function isProviderName(name: string): name is ProviderName {
  return (KNOWN_PROVIDERS as readonly string[]).includes(name);
}

/**
 * The model `detectDefaultModel` picks for a provider when its model variable is not set, and
 * the example given in error messages.
 */
export const DEFAULT_MODEL_IDS = Object.freeze({
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-4-5',
  gemini: 'gemini-2.5-flash',
  ollama: 'llama3.2',
});

/** Example model ids for messages (`write "groq:<model>", e.g. …`). */
export const EXAMPLE_MODELS: Readonly<Record<string, string>> = Object.freeze({
  ...DEFAULT_MODEL_IDS,
  azure: '<deployment name>',
  bedrock: 'us.amazon.nova-micro-v1:0',
  'openai-responses': 'gpt-5',
  groq: 'llama-3.3-70b-versatile',
  lmstudio: 'qwen2.5-7b-instruct',
});

/** Names people write for a provider, mapped to the one Golem uses (for suggestions only). */
export const PROVIDER_ALIASES: Readonly<Record<string, ProviderName>> = Object.freeze({
  google: 'gemini',
  'google-genai': 'gemini',
  vertex: 'gemini',
  claude: 'anthropic',
  aws: 'bedrock',
  'amazon-bedrock': 'bedrock',
  'azure-openai': 'azure',
  responses: 'openai-responses',
  'openai-response': 'openai-responses',
  azure_openai: 'azure',
  grok: 'xai',
  'x-ai': 'xai',
  'lm-studio': 'lmstudio',
  lm_studio: 'lmstudio',
  'together-ai': 'together',
  togetherai: 'together',
  'fireworks-ai': 'fireworks',
  fireworksai: 'fireworks',
  'mistral-ai': 'mistral',
  mistralai: 'mistral',
});
