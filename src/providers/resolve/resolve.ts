import type { StreamingModel } from '../../core/contract/model';
import type { AnthropicModel } from '../anthropic';
import type { AzureChatModel } from '../azure';
import type { BedrockModel } from '../bedrock';
import type { GeminiModel } from '../gemini';
import type { OpenAIChatModel, OpenAIPresetName } from '../openai';
import type { OpenAIResponsesModel } from '../openai-responses';
import { redact } from '../../core/kit/redact';
import { build, type Context } from './build-model';
import { secretValues } from './environment';
import { resolutionError } from './errors';
import { checkOptions, overrideSecrets, type ResolveModelOptions } from './options';
import { isSpecProblem, parseModelSpec, quote } from './spec';

/**
 * The model type `resolveModel` returns for a model string known at compile time:
 * `AnthropicModel` for `anthropic:…`, `OpenAIChatModel` for `openai:…` and every preset, and so
 * on; `StreamingModel` for `test` and strings only known at run time.
 */
export type ResolvedModel<S extends string> = S extends `anthropic:${string}`
  ? AnthropicModel
  : S extends `gemini:${string}`
    ? GeminiModel
    : S extends `azure:${string}`
      ? AzureChatModel
      : S extends `bedrock:${string}`
        ? BedrockModel
        : S extends `openai-responses:${string}`
          ? OpenAIResponsesModel
          : S extends `${OpenAIPresetName}:${string}`
            ? OpenAIChatModel
            : StreamingModel;

/**
 * Builds the model a `provider:model` string names, reading keys and endpoints from `env`
 * (default `process.env`) — the only place in Golem that reads the environment:
 *
 * | string | adapter | environment |
 * | --- | --- | --- |
 * | `openai:gpt-4o-mini` | `openai` | `OPENAI_API_KEY` |
 * | `anthropic:claude-sonnet-4-5` | `anthropic` | `ANTHROPIC_API_KEY` |
 * | `gemini:gemini-2.5-flash` | `gemini` | `GEMINI_API_KEY`, else `GOOGLE_API_KEY` |
 * | `azure:<deployment>` | `azure` | `AZURE_OPENAI_ENDPOINT`, `AZURE_OPENAI_API_KEY`,
 * `AZURE_OPENAI_API_VERSION` |
 * | `openai-responses:gpt-5` | `openaiResponses` | `OPENAI_API_KEY` |
 * | `bedrock:<model id>` | `bedrock` | `AWS_REGION` / `AWS_DEFAULT_REGION` if set, else the AWS
 * SDK's chain; credentials from the SDK's chain |
 * | `groq:…`, `mistral:…`, … | `openaiCompatible(preset)` | the preset's `apiKeyEnv` (`VLLM_API_KEY` optional) |
 * | `ollama:llama3.2`, `lmstudio:…` | `openaiCompatible(preset)` | `GOLEM_LOCAL_BASE_URL` overrides
 * the base URL |
 * | `test`, `test:<label>` | `options.testModel(name)` | none |
 *
 * The string splits at the first `:` (Bedrock ids keep their own colons). Blank variables count
 * as unset. `options.overrides` layers adapter options over the environment's per provider, and
 * `options.fetch` goes to every fetch-based adapter. Throws `ConfigError` (component `resolve`),
 * reason `malformed`, `unknown-provider` (listing the known ones, suggesting the closest),
 * `missing-env` (naming the variables to set), `missing-test-model` or `invalid-config` (the
 * adapter's `ConfigError` as `cause`). No message contains a key or other secret value from the
 * environment.
 */
export function resolveModel<S extends string>(
  spec: S,
  options?: ResolveModelOptions,
): ResolvedModel<S> {
  const checked = checkOptions(options);
  const secrets = [...secretValues(checked.env), ...overrideSecrets(checked.overrides)];
  const show = (text: string): string => quote(redact(text, secrets));
  const parsed = parseModelSpec(spec, show);
  if (isSpecProblem(parsed)) {
    const { provider, suggestion } = parsed.init;
    throw resolutionError(redact(parsed.message, secrets), {
      ...parsed.init,
      ...(provider === undefined ? {} : { provider: redact(provider, secrets) }),
      ...(suggestion === undefined ? {} : { suggestion: redact(suggestion, secrets) }),
    });
  }
  const text = (spec as string).trim();
  const context: Context = { ...checked, spec: parsed, text, shown: show(text), secrets };
  return build(context) as ResolvedModel<S>;
}
