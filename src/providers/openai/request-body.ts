import { isRecord } from '../../core/kit/guards';
import type { JsonSchema } from '../../core/kit/json';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelRequest, ModelSettings, ToolSpec } from '../../core/contract/request';
import { refuseHostedTools } from '../shared/hosted';
import { cacheFields } from './cache';
import { toWireMessages } from './messages';
import type { MaxTokensField, OpenAICapabilities } from './presets';
import { mergeSettings, settingsFields, validateSettings } from './settings';
import { StrictSchemaError, toStrictSchema } from './strict-schema';
import type { WireChatBody, WireResponseFormat, WireTool } from './wire';

/** What the request translation needs to know about the endpoint. */
export interface ChatBodyConfig {
  /** Provider id used in errors (`openai`, `groq`, `azure`…). */
  readonly provider: string;
  /** The `model` body field; `undefined` leaves it out (Azure deployment URLs). */
  readonly model: string | undefined;
  readonly capabilities: OpenAICapabilities;
  /** The body field `settings.maxTokens` is sent as. */
  readonly maxTokensField: MaxTokensField;
  /** Send tools with `strict: true` and their schemas compiled to the strict dialect. */
  readonly strictSchemas: boolean;
  /** Adapter-level settings, overlaid by the request's. */
  readonly defaults: ModelSettings | undefined;
}

/** Name of the `response_format.json_schema` (spec §25). */
export const OUTPUT_SCHEMA_NAME = 'output';

/**
 * The chat-completions body for `request`: `model`, `messages`, `tools`, `response_format` (the
 * output schema compiled to strict mode), `stream` + `stream_options`, the settings' fields (unset
 * ones never sent), then `extraBody` merged last (it may override anything). Throws
 * a model `ConfigError` before anything is sent when the request cannot be encoded or the endpoint
 * lacks a capability it needs.
 */
export function buildChatBody(
  config: ChatBodyConfig,
  request: ModelRequest,
  stream: boolean,
): Record<string, unknown> {
  const { provider, capabilities } = config;
  if (!isRecord(request) || !Array.isArray(request.messages))
    throw modelConfigError(provider, 'the request needs a messages array');
  validateSettings(provider, request.settings);
  refuseHostedTools(
    provider,
    request,
    'chat completions runs no provider-hosted tools; use golem/providers/openai-responses (web search, file search, code interpreter)',
  );
  const settings = mergeSettings(config.defaults, request.settings);
  const messages = toWireMessages(provider, request.messages);
  const body: WireChatBody =
    config.model === undefined ? { messages } : { model: config.model, messages };
  const specs: readonly ToolSpec[] = Array.isArray(request.tools) ? request.tools : [];
  if (specs.length > 0) {
    if (!capabilities.tools)
      throw modelConfigError(provider, 'this endpoint does not support tools (function calling)');
    body.tools = specs.map((spec) => toWireTool(config, spec));
  }
  if (request.outputSchema !== undefined)
    body.response_format = responseFormat(config, request.outputSchema, specs.length > 0);
  if (stream) {
    body.stream = true;
    if (capabilities.streamUsage) body.stream_options = { include_usage: true };
  }
  Object.assign(body, settingsFields(settings, config.maxTokensField));
  Object.assign(body, cacheFields(provider, settings?.cache));
  return settings?.extraBody === undefined ? body : { ...body, ...settings.extraBody };
}

function toWireTool(config: ChatBodyConfig, spec: ToolSpec): WireTool {
  if (!isRecord(spec) || typeof spec.name !== 'string' || spec.name === '')
    throw modelConfigError(config.provider, 'every tool needs a name');
  if (!isRecord(spec.schema))
    throw modelConfigError(config.provider, `tool "${spec.name}" needs a JSON Schema object`);
  const fn: WireTool['function'] = { name: spec.name, parameters: spec.schema };
  if (typeof spec.description === 'string') fn.description = spec.description;
  if (config.strictSchemas) {
    try {
      fn.parameters = toStrictSchema(spec.schema);
    } catch (error) {
      if (!StrictSchemaError.is(error)) throw error;
      throw modelConfigError(
        config.provider,
        `tool "${spec.name}": ${error.message}; fix the schema or turn strictSchemas off`,
      );
    }
    fn.strict = true;
  }
  return { type: 'function', function: fn };
}

function responseFormat(
  config: ChatBodyConfig,
  schema: unknown,
  withTools: boolean,
): WireResponseFormat {
  const { provider, capabilities } = config;
  const fallback = 'use tool-mode structured output (Agent `outputTool`) instead';
  if (!capabilities.structuredOutput)
    throw modelConfigError(
      provider,
      `this endpoint has no native structured output (response_format json_schema); ${fallback}`,
    );
  if (withTools && !capabilities.structuredOutputWithTools)
    throw modelConfigError(
      provider,
      `this endpoint cannot combine native structured output with tools; ${fallback}`,
    );
  if (!isRecord(schema))
    throw modelConfigError(provider, 'outputSchema must be a JSON Schema object');
  try {
    const strict = toStrictSchema(schema as JsonSchema);
    return {
      type: 'json_schema',
      json_schema: { name: OUTPUT_SCHEMA_NAME, schema: strict, strict: true },
    };
  } catch (error) {
    if (!StrictSchemaError.is(error)) throw error;
    throw modelConfigError(provider, `outputSchema: ${error.message}; ${fallback}`);
  }
}
