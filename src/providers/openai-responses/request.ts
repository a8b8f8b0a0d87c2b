import { isRecord } from '../../core/kit/guards';
import type { JsonSchema } from '../../core/kit/json';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelRequest, ModelSettings, ToolSpec } from '../../core/contract/request';
import { hostedToolsOf } from '../shared/hosted';
import { mergeSettings, validateSettings } from '../openai/settings';
import { StrictSchemaError, toStrictSchema } from '../openai/strict-schema';
import { encodeHostedTool } from './hosted';
import { encodeInput } from './input';
import { PROVIDER, type ResponsesConfig } from './options';
import type {
  WireContextManagement,
  WireFunctionTool,
  WireHostedTool,
  WireResponsesBody,
} from './wire';

/** Name of the `text.format` json_schema. */
export const OUTPUT_SCHEMA_NAME = 'output';

/** Top-level fields `extraBody` may not replace: they carry the conversation and the transport. */
const RESERVED = ['model', 'input', 'stream'];

/**
 * The Responses API body for `request`: `model`, `instructions`, `input`, `tools` (function tools
 * with an explicit `strict`, then the hosted tools), `text.format` (the output schema compiled to
 * strict mode), `reasoning` (`effort` from `reasoningEffort`, `summary` from the adapter option or
 * `thinking.includeThoughts`), `include` (encrypted reasoning when stateless, hosted tools'
 * results), `store`, `previous_response_id` (chain mode), `temperature`, `top_p`,
 * `max_output_tokens`, `context_management` (server-side compaction from `compaction`),
 * `stream`; `extraBody` merged last. `stop`, `seed` and the penalties have no
 * Responses equivalent and are not sent. Everything that can fail does so here, before sending.
 */
export function buildBody(
  config: ResponsesConfig,
  request: ModelRequest,
  stream: boolean,
): WireResponsesBody {
  if (!isRecord(request) || !Array.isArray(request.messages))
    throw modelConfigError(PROVIDER, 'the request needs a messages array');
  validateSettings(PROVIDER, request.settings);
  const settings = mergeSettings(config.settings, request.settings) ?? {};
  const encoded = encodeInput(request.messages, {
    target: { provider: PROVIDER, model: config.model },
    chain: config.previousResponseId === 'auto',
    store: config.store,
  });
  const body: WireResponsesBody = {
    model: config.model,
    input: encoded.input,
    store: config.store,
  };
  if (encoded.instructions !== undefined) body.instructions = encoded.instructions;
  if (encoded.previousResponseId !== undefined)
    body.previous_response_id = encoded.previousResponseId;
  const include = config.encryptedReasoning ? ['reasoning.encrypted_content'] : [];
  const tools: (WireFunctionTool | WireHostedTool)[] = (
    Array.isArray(request.tools) ? request.tools : []
  ).map((spec) => functionTool(config, spec));
  for (const hosted of hostedToolsOf(PROVIDER, request)) {
    const { tool, include: more } = encodeHostedTool(hosted);
    tools.push(tool);
    for (const entry of more) if (!include.includes(entry)) include.push(entry);
  }
  if (tools.length > 0) body.tools = tools;
  if (request.outputSchema !== undefined) body.text = textFormat(request.outputSchema);
  const reasoning = reasoningOf(config, settings);
  if (reasoning !== undefined) body.reasoning = reasoning;
  if (include.length > 0) body.include = include;
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxTokens !== undefined && settings.maxTokens > 0)
    body.max_output_tokens = settings.maxTokens;
  const compaction = contextManagementOf(settings.compaction);
  if (compaction !== undefined) body.context_management = compaction;
  if (stream) body.stream = true;
  return withExtraBody(body, settings.extraBody);
}

function functionTool(config: ResponsesConfig, spec: ToolSpec): WireFunctionTool {
  if (!isRecord(spec) || typeof spec.name !== 'string' || spec.name === '')
    throw modelConfigError(PROVIDER, 'every tool needs a name');
  if (!isRecord(spec.schema))
    throw modelConfigError(PROVIDER, `tool "${spec.name}" needs a JSON Schema object`);
  const tool: WireFunctionTool = {
    type: 'function',
    name: spec.name,
    parameters: spec.schema,
    strict: false,
  };
  if (typeof spec.description === 'string' && spec.description !== '')
    tool.description = spec.description;
  if (!config.strictSchemas) return tool;
  try {
    return { ...tool, parameters: toStrictSchema(spec.schema), strict: true };
  } catch (error) {
    if (!StrictSchemaError.is(error)) throw error;
    throw modelConfigError(
      PROVIDER,
      `tool "${spec.name}": ${error.message}; fix the schema or turn strictSchemas off`,
    );
  }
}

function textFormat(schema: unknown): NonNullable<WireResponsesBody['text']> {
  if (!isRecord(schema))
    throw modelConfigError(PROVIDER, 'outputSchema must be a JSON Schema object');
  try {
    const strict = toStrictSchema(schema as JsonSchema);
    return {
      format: { type: 'json_schema', name: OUTPUT_SCHEMA_NAME, schema: strict, strict: true },
    };
  } catch (error) {
    if (!StrictSchemaError.is(error)) throw error;
    throw modelConfigError(
      PROVIDER,
      `outputSchema: ${error.message}; use tool-mode structured output (Agent \`outputTool\`) instead`,
    );
  }
}

function reasoningOf(
  config: ResponsesConfig,
  settings: ModelSettings,
): WireResponsesBody['reasoning'] {
  const reasoning: NonNullable<WireResponsesBody['reasoning']> = {};
  if (settings.reasoningEffort !== undefined) reasoning.effort = settings.reasoningEffort;
  const summary =
    config.reasoningSummary ?? (settings.thinking?.includeThoughts === true ? 'auto' : undefined);
  if (summary !== undefined) reasoning.summary = summary;
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}

/**
 * `settings.compaction` as `context_management`: one `compaction` entry whose
 * `compact_threshold` is `triggerTokens` (a positive integer, else a model `ConfigError`). The
 * Anthropic-only fields (`keepToolUses`, `clearAtLeastTokens`, `excludeTools`,
 * `clearToolInputs`) have no Responses equivalent and are ignored.
 */
function contextManagementOf(value: unknown): WireContextManagement[] | undefined {
  if (value === undefined) return undefined;
  const trigger = isRecord(value) ? value.triggerTokens : undefined;
  if (typeof trigger !== 'number' || !Number.isSafeInteger(trigger) || trigger < 1)
    throw modelConfigError(
      PROVIDER,
      'settings.compaction.triggerTokens must be a positive whole number of tokens',
    );
  return [{ type: 'compaction', compact_threshold: trigger }];
}

function withExtraBody(
  body: WireResponsesBody,
  extra: Record<string, unknown> | undefined,
): WireResponsesBody {
  if (extra === undefined) return body;
  const merged: WireResponsesBody = { ...body };
  for (const [key, value] of Object.entries(extra)) {
    if (RESERVED.includes(key))
      throw modelConfigError(
        PROVIDER,
        `settings.extraBody cannot set ${JSON.stringify(key)}; the adapter owns it`,
      );
    Object.defineProperty(merged, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return merged;
}
