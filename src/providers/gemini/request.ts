import { isRecord } from '../../core/kit/guards';
import type { JsonSchema } from '../../core/kit/json';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelRequest, ToolSpec } from '../../core/contract/request';
import { toGeminiConversation } from './messages';
import type { ResolvedGeminiOptions } from './options';
import { toGeminiSchema } from './schema-dialect';
import { mergeSettings, samplingConfig, thinkingConfig, validateSettings } from './settings';
import { hostedToolsOf } from '../shared/hosted';
import { groundingTool } from './grounding';
import type {
  GeminiFunctionDeclaration,
  GeminiGenerationConfig,
  GeminiRequestBody,
  GeminiTool,
} from './wire';

/**
 * Builds the `generateContent` body for `request`. Everything that can fail does so here, before
 * any network call: invalid settings and schemas (a model `ConfigError`), an output schema together
 * with tools (a model `ConfigError` pointing to `outputTool`), history Gemini cannot take
 * (`HistoryFormatError`). `generationConfig` is only sent when something in it is set (§23).
 * `settings.extraBody` is merged last at the top level, its `generationConfig` one level deep.
 */
export function buildRequestBody(
  request: ModelRequest,
  options: ResolvedGeminiOptions,
): GeminiRequestBody {
  const settings = mergeSettings(options.settings, request.settings);
  validateSettings(options.provider, settings);
  if (request.outputSchema !== undefined && request.tools.length > 0)
    throw modelConfigError(
      options.provider,
      'Gemini cannot combine a native output schema (responseMimeType application/json) with ' +
        'function declarations; use tool-mode structured output (the agent option `outputTool`) instead',
    );
  const body: GeminiRequestBody = {
    ...toGeminiConversation(request.messages, {
      provider: options.provider,
      model: options.model,
    }),
  };
  const tools: GeminiTool[] = [];
  if (request.tools.length > 0)
    tools.push({ functionDeclarations: request.tools.map(functionDeclaration) });
  for (const tool of hostedToolsOf(options.provider, request))
    tools.push(groundingTool(options.provider, tool));
  if (tools.length > 0) body.tools = tools;
  const config: GeminiGenerationConfig = samplingConfig(settings);
  if (request.outputSchema !== undefined) {
    config.responseMimeType = 'application/json';
    if (options.outputSchemaField === 'responseSchema')
      config.responseSchema = toGeminiSchema(request.outputSchema, 'output schema');
    else config.responseJsonSchema = jsonSchemaForGemini(request.outputSchema);
  }
  const thinking = thinkingConfig(options.thinking, settings);
  if (thinking !== undefined) config.thinkingConfig = thinking;
  if (Object.keys(config).length > 0) body.generationConfig = config;
  if (settings?.extraBody !== undefined) mergeExtraBody(body, settings.extraBody);
  return body;
}

/**
 * A tool as a function declaration: `description` only when non-empty, `parameters` compiled to
 * Gemini's schema dialect and omitted for an object schema without properties (Gemini rejects an
 * `OBJECT` with empty `properties` in a declaration).
 */
export function functionDeclaration(tool: ToolSpec): GeminiFunctionDeclaration {
  const declaration: GeminiFunctionDeclaration = { name: tool.name };
  if (tool.description !== '') declaration.description = tool.description;
  const parameters = toGeminiSchema(tool.schema, `tool "${tool.name}" schema`);
  const properties = parameters.properties;
  const empty =
    parameters.type === 'OBJECT' && (!isRecord(properties) || Object.keys(properties).length === 0);
  if (!empty && Object.keys(parameters).length > 0) declaration.parameters = parameters;
  return declaration;
}

/** The output schema for `responseJsonSchema`: unchanged except for the `$schema` keyword. */
function jsonSchemaForGemini(schema: JsonSchema): Record<string, unknown> {
  const { $schema: _schema, ...rest } = schema;
  return rest;
}

function mergeExtraBody(body: GeminiRequestBody, extra: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(extra)) {
    if (key === '__proto__') continue;
    if (key === 'generationConfig' && isRecord(value))
      body.generationConfig = { ...(body.generationConfig ?? {}), ...value };
    else body[key] = value;
  }
}
