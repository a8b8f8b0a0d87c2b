import { isRecord } from '../../core/kit/guards';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../../core/contract/model';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelRequest } from '../../core/contract/request';
import type { ModelResponse } from '../../core/contract/response';
import type { ChatEndpoint } from './chat-core';
import { chatEndpoint, generateChat, streamChat } from './chat-core';
import type { CommonChatOptions } from './config-checks';
import { checkCommon } from './config-checks';
import { openaiAuth, openaiTarget } from './target';
import type { OpenAIPresetName } from './presets';
import { CUSTOM_CAPABILITIES, OPENAI_PRESETS, OPENAI_PRESET_NAMES, isPresetName } from './presets';

/** Configuration of an OpenAI-compatible chat-completions model. */
export interface OpenAIOptions extends CommonChatOptions {
  /** Model id as the service spells it, e.g. `gpt-4o-mini`, `llama3.2`. */
  model: string;
  /** Sent as `Authorization: Bearer …`; required by hosted presets, optional for local ones. */
  apiKey?: string;
  /** A named service (see `OPENAI_PRESETS`); default `openai` when `baseURL` is not set either. */
  preset?: OpenAIPresetName;
  /** Base URL; `{baseURL}/chat/completions` is called. Overrides the preset's. */
  baseURL?: string;
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
}

/**
 * A chat model behind an OpenAI-compatible `POST {baseURL}/chat/completions` endpoint: OpenAI
 * itself, the hosted services of `OPENAI_PRESETS`, local Ollama, LM Studio and vLLM servers, or
 * any other compatible server (`baseURL` without a preset). Configuration is validated here and
 * throws a model `ConfigError`; no environment variable is ever read.
 */
export class OpenAIChatModel implements StreamingModel {
  /** `<provider>:<model>`, e.g. `openai:gpt-4o-mini`, `ollama:llama3.2`. */
  readonly name: string;
  /** The preset name, or `openai-compatible` for a custom `baseURL`. */
  readonly provider: string;
  readonly model: string;
  readonly baseURL: string;
  private readonly endpoint: ChatEndpoint;

  constructor(options: OpenAIOptions) {
    if (!isRecord(options))
      throw modelConfigError('openai', 'options must be an object with at least `model`');
    const presetName = options.preset ?? (options.baseURL === undefined ? 'openai' : undefined);
    if (presetName !== undefined && !isPresetName(presetName))
      throw modelConfigError(
        'openai',
        `unknown preset ${JSON.stringify(presetName)}; known: ${OPENAI_PRESET_NAMES.join(', ')}`,
      );
    const preset = presetName === undefined ? undefined : OPENAI_PRESETS[presetName];
    const provider = presetName ?? 'openai-compatible';
    this.provider = provider;
    const target = openaiTarget(provider, preset, options);
    this.model = target.model;
    this.name = `${provider}:${this.model}`;
    this.baseURL = target.baseURL;
    const common = checkCommon(
      provider,
      options,
      preset?.capabilities ?? CUSTOM_CAPABILITIES,
      preset?.maxTokensField ?? 'max_tokens',
    );
    const auth = openaiAuth(target, common.headers);
    this.endpoint = chatEndpoint(common, {
      provider,
      url: `${this.baseURL}/chat/completions`,
      model: this.model,
      auth: () => ({ headers: { ...auth.headers }, secrets: [...auth.secrets] }),
    });
  }

  /** One chat completion. */
  generate(request: ModelRequest, options?: GenerateOptions): Promise<ModelResponse> {
    return generateChat(this.endpoint, request, options);
  }

  /** One streamed chat completion; `onDelta` receives fragments in order. */
  stream(
    request: ModelRequest,
    onDelta: DeltaHandler,
    options?: GenerateOptions,
  ): Promise<ModelResponse> {
    return streamChat(this.endpoint, request, onDelta, options);
  }
}

/** An OpenAI-compatible chat model: `openai({ model: 'gpt-4o-mini', apiKey })`. */
export function openai(options: OpenAIOptions): OpenAIChatModel {
  return new OpenAIChatModel(options);
}

/**
 * A chat model of a named OpenAI-compatible service:
 * `openaiCompatible('groq', { model: 'llama-3.3-70b-versatile', apiKey })`,
 * `openaiCompatible('ollama', { model: 'llama3.2' })`.
 */
export function openaiCompatible(
  preset: OpenAIPresetName,
  options: Omit<OpenAIOptions, 'preset'>,
): OpenAIChatModel {
  return new OpenAIChatModel({ ...options, preset });
}
