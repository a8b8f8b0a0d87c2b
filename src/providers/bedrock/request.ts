import type { ConverseCommandInput, Tool } from '@aws-sdk/client-bedrock-runtime';
import type { JsonSchema } from '../../core/kit/json';
import type { ModelRequest, ModelSettings, ToolSpec } from '../../core/contract/request';
import { resolveCache } from '../../core/contract/cache';
import { applyCachePoints } from './cache-points';
import { refuseHostedTools } from '../shared/hosted';
import { toConverseConversation, type Document } from './messages';
import { PROVIDER } from './sdk';
import { mergeSettings, settingsFields, validateSettings } from './settings';

/** What the adapter adds to every request. */
export interface RequestDefaults {
  modelId: string;
  /** Adapter-level tuning; the request's settings override it field by field. */
  settings: ModelSettings;
  /** Extra model fields (`additionalModelRequestFields`), merged under `thinking`. */
  additionalModelRequestFields?: Record<string, unknown>;
}

/** The name native structured output is sent under (`outputConfig.textFormat`). */
export const OUTPUT_SCHEMA_NAME = 'output';

/**
 * Builds the Converse / ConverseStream input for `request` (both operations take the same
 * shape). Throws a model `ConfigError` for invalid settings and unsupported content, before
 * anything is signed or sent.
 */
export function toConverseInput(
  request: ModelRequest,
  defaults: RequestDefaults,
): ConverseCommandInput {
  if (request.settings !== undefined) validateSettings(request.settings, 'request settings');
  refuseHostedTools(
    PROVIDER,
    request,
    'Converse runs no provider-hosted tools; use golem/providers/openai-responses, anthropic or gemini for web search',
  );
  const settings = mergeSettings(defaults.settings, request.settings);
  const { system, messages, ends } = toConverseConversation(request.messages, defaults.modelId);
  const fields = settingsFields(settings, defaults.additionalModelRequestFields);
  const input: ConverseCommandInput = { modelId: defaults.modelId, messages };
  if (system.length > 0) input.system = system;
  if (request.tools.length > 0) input.toolConfig = { tools: request.tools.map(toolOf) };
  applyCachePoints(input, request.messages, ends, resolveCache(settings.cache, PROVIDER));
  if (fields.inferenceConfig !== undefined) input.inferenceConfig = fields.inferenceConfig;
  if (fields.additionalModelRequestFields !== undefined)
    input.additionalModelRequestFields = fields.additionalModelRequestFields;
  if (fields.outputConfig !== undefined || request.outputSchema !== undefined)
    input.outputConfig = {
      ...fields.outputConfig,
      ...(request.outputSchema === undefined ? {} : outputFormat(request.outputSchema)),
    };
  return { ...(settings.extraBody as Partial<ConverseCommandInput> | undefined), ...input };
}

function toolOf(spec: ToolSpec): Tool {
  return {
    toolSpec: {
      name: spec.name,
      ...(spec.description === '' ? {} : { description: spec.description }),
      inputSchema: { json: spec.schema as Document },
    },
  };
}

/** Native structured output: `outputConfig.textFormat` json_schema, the schema as JSON text. */
function outputFormat(
  schema: JsonSchema,
): Pick<NonNullable<ConverseCommandInput['outputConfig']>, 'textFormat'> {
  return {
    textFormat: {
      type: 'json_schema',
      structure: { jsonSchema: { name: OUTPUT_SCHEMA_NAME, schema: JSON.stringify(schema) } },
    },
  };
}
