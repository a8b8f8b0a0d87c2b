/**
 * The OpenAI-compatible services the adapter knows by name: where they live, whether they need a
 * key, and what the adapter may send them. Flags describe the service's chat-completions API as
 * documented; individual models can support less (override with `capabilities`).
 */

/** What a chat-completions endpoint accepts. */
export interface OpenAICapabilities {
  /** Function tools (`tools`). */
  readonly tools: boolean;
  /** Native structured output (`response_format: {type: 'json_schema'}`). */
  readonly structuredOutput: boolean;
  /** Structured output in the same request as tools. */
  readonly structuredOutputWithTools: boolean;
  /** `strict: true` on function tools. */
  readonly strictTools: boolean;
  /** `stream_options: {include_usage: true}` (usage in a final chunk). */
  readonly streamUsage: boolean;
}

/** The body field `settings.maxTokens` is sent as. */
export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

/** One named OpenAI-compatible service. */
export interface OpenAIPreset {
  /** Human-readable service name. */
  readonly label: string;
  /** Base URL; the adapter POSTs to `{baseURL}/chat/completions`. */
  readonly baseURL: string;
  /** Whether `apiKey` must be set. */
  readonly requiresKey: boolean;
  /** The environment variable the CLI and examples read the key from (the adapter never does). */
  readonly apiKeyEnv: string | undefined;
  /** Default body field of `settings.maxTokens`. */
  readonly maxTokensField: MaxTokensField;
  readonly capabilities: OpenAICapabilities;
}

const HOSTED: OpenAICapabilities = Object.freeze({
  tools: true,
  structuredOutput: true,
  structuredOutputWithTools: true,
  strictTools: false,
  streamUsage: true,
});

function hosted(
  label: string,
  baseURL: string,
  apiKeyEnv: string,
  capabilities: Partial<OpenAICapabilities> = {},
  maxTokensField: MaxTokensField = 'max_tokens',
): OpenAIPreset {
  return Object.freeze({
    label,
    baseURL,
    requiresKey: true,
    apiKeyEnv,
    maxTokensField,
    capabilities: Object.freeze({ ...HOSTED, ...capabilities }),
  });
}

function local(label: string, baseURL: string, apiKeyEnv?: string): OpenAIPreset {
  return Object.freeze({
    label,
    baseURL,
    requiresKey: false,
    apiKeyEnv,
    maxTokensField: 'max_tokens',
    capabilities: HOSTED,
  });
}

/** The presets, by name (frozen). */
export const OPENAI_PRESETS = Object.freeze({
  openai: hosted(
    'OpenAI',
    'https://api.openai.com/v1',
    'OPENAI_API_KEY',
    { strictTools: true },
    'max_completion_tokens',
  ),
  groq: hosted('Groq', 'https://api.groq.com/openai/v1', 'GROQ_API_KEY', {
    structuredOutputWithTools: false,
  }),
  openrouter: hosted('OpenRouter', 'https://openrouter.ai/api/v1', 'OPENROUTER_API_KEY'),
  deepseek: hosted('DeepSeek', 'https://api.deepseek.com/v1', 'DEEPSEEK_API_KEY', {
    structuredOutput: false,
    structuredOutputWithTools: false,
  }),
  mistral: hosted('Mistral', 'https://api.mistral.ai/v1', 'MISTRAL_API_KEY', {
    streamUsage: false,
  }),
  xai: hosted('xAI', 'https://api.x.ai/v1', 'XAI_API_KEY'),
  perplexity: hosted('Perplexity', 'https://api.perplexity.ai', 'PERPLEXITY_API_KEY', {
    tools: false,
    structuredOutputWithTools: false,
    streamUsage: false,
  }),
  cerebras: hosted('Cerebras', 'https://api.cerebras.ai/v1', 'CEREBRAS_API_KEY', {
    strictTools: true,
    streamUsage: false,
  }),
  fireworks: hosted('Fireworks AI', 'https://api.fireworks.ai/inference/v1', 'FIREWORKS_API_KEY'),
  together: hosted('Together AI', 'https://api.together.xyz/v1', 'TOGETHER_API_KEY'),
  cohere: hosted(
    'Cohere (compatibility API)',
    'https://api.cohere.ai/compatibility/v1',
    'COHERE_API_KEY',
    {
      streamUsage: false,
    },
  ),
  vllm: local('vLLM', 'http://localhost:8000/v1', 'VLLM_API_KEY'),
  ollama: local('Ollama', 'http://localhost:11434/v1'),
  lmstudio: local('LM Studio', 'http://localhost:1234/v1'),
} satisfies Record<string, OpenAIPreset>);

/** The name of a preset. */
export type OpenAIPresetName = keyof typeof OPENAI_PRESETS;

/** The preset names, in table order. */
export const OPENAI_PRESET_NAMES = Object.keys(OPENAI_PRESETS) as OpenAIPresetName[];

/** Capabilities assumed for a custom `baseURL` without a preset. */
export const CUSTOM_CAPABILITIES: OpenAICapabilities = HOSTED;

/** Whether `name` is a preset name. */
export function isPresetName(name: unknown): name is OpenAIPresetName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(OPENAI_PRESETS, name);
}
