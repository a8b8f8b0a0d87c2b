import { isRecord } from '../../core/kit/guards';
import { modelConfigError } from '../../core/errors/provider-errors';
import type {
  ModelRequest,
  ModelSettings,
  ThinkingSettings,
  ToolSpec,
} from '../../core/contract/request';
import { resolveCache } from '../../core/contract/cache';
import { applyCacheControl } from './cache-control';
import { contextManagementOf } from './context-management';
import { encodeMessages } from './encode-messages';
import { checkThinking, isIntegerAtLeast, PROVIDER, type AnthropicConfig } from './options';
import { compileOutputSchema } from './schema';
import { serverTools } from './server-tools';
import type {
  WireOutputConfig,
  WireRequest,
  WireServerTool,
  WireThinkingConfig,
  WireTool,
} from './wire';

/** `reasoningEffort` → `output_config.effort`; the API has no `minimal`, the closest is `low`. */
const EFFORT_OF_REASONING: Readonly<Record<string, string>> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
};

/** Top-level fields `extraBody` may not replace: they carry the conversation and the transport. */
const RESERVED = ['model', 'messages', 'stream'];

function fail(message: string): never {
  throw modelConfigError(PROVIDER, message);
}

/**
 * Builds the request body. Settings are validated here (a model `ConfigError`, nothing sent):
 * temperature and topP in [0, 1], maxTokens an integer >= 0 where 0 (or unset) means the adapter
 * default. Unset settings are never sent; `seed`, `presencePenalty` and `frequencyPenalty` have
 * no Anthropic equivalent and are ignored. `compaction` becomes `context_management` (see
 * `contextManagementOf`; the model adds its beta header). `extraBody` is merged last (shallow).
 */
export function encodeRequest(
  config: AnthropicConfig,
  request: ModelRequest,
  stream: boolean,
): WireRequest {
  if (!isRecord(request) || !Array.isArray(request.messages))
    fail('the request must have a `messages` array');
  const settings: ModelSettings = request.settings ?? {};
  const { system, messages, lastBlocks } = encodeMessages(request.messages, {
    provider: PROVIDER,
    model: config.model,
  });
  const body: WireRequest = {
    model: config.model,
    max_tokens: maxTokens(settings.maxTokens, config.maxTokens),
    messages,
    stream,
  };
  if (system !== undefined) body.system = system;
  const tools = toolList((request as { tools?: unknown }).tools);
  const wireTools: (WireTool | WireServerTool)[] = tools.map(encodeTool);
  wireTools.push(
    ...serverTools(
      request,
      tools.map((tool) => tool.name),
    ),
  );
  if (wireTools.length > 0) body.tools = wireTools;
  applyCacheControl(body, request.messages, lastBlocks, resolveCache(settings.cache, PROVIDER));
  if (settings.temperature !== undefined)
    body.temperature = unitInterval(settings.temperature, 'temperature');
  if (settings.topP !== undefined) body.top_p = unitInterval(settings.topP, 'topP');
  const stop = stopSequences(settings.stop);
  if (stop !== undefined) body.stop_sequences = stop;
  const thinking = thinkingConfig(
    checkThinking(settings.thinking, 'settings.thinking') ?? config.thinking,
  );
  if (thinking !== undefined) body.thinking = thinking;
  const output: WireOutputConfig = {};
  const effort = effortOf(settings.reasoningEffort) ?? config.effort;
  if (effort !== undefined) output.effort = effort;
  if (request.outputSchema !== undefined) {
    if (!isRecord(request.outputSchema)) fail('`outputSchema` must be a JSON Schema object');
    output.format = { type: 'json_schema', schema: compileOutputSchema(request.outputSchema) };
  }
  if (Object.keys(output).length > 0) body.output_config = output;
  const contextManagement = contextManagementOf(settings.compaction);
  if (contextManagement !== undefined) body.context_management = contextManagement;
  return withExtraBody(body, settings.extraBody);
}

function maxTokens(value: number | undefined, fallback: number): number {
  if (value === undefined || value === 0) return fallback;
  if (!isIntegerAtLeast(value, 0))
    fail(`\`settings.maxTokens\` must be an integer >= 0, got ${String(value)}`);
  return value;
}

function unitInterval(value: number, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
    fail(`\`settings.${field}\` must be a number in [0, 1] for Anthropic, got ${String(value)}`);
  return value;
}

function stopSequences(value: string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((s) => typeof s !== 'string'))
    fail('`settings.stop` must be an array of strings');
  return value.length === 0 ? undefined : [...value];
}

function effortOf(value: ModelSettings['reasoningEffort']): string | undefined {
  if (value === undefined) return undefined;
  const effort = EFFORT_OF_REASONING[value];
  if (effort === undefined)
    fail(`\`settings.reasoningEffort\` must be 'minimal', 'low', 'medium' or 'high'`);
  return effort;
}

/** `enabled` → budget; `adaptive`; `disabled`. `includeThoughts` selects the display. */
function thinkingConfig(settings: ThinkingSettings | undefined): WireThinkingConfig | undefined {
  if (settings === undefined) return undefined;
  if (settings.mode === 'disabled') return { type: 'disabled' };
  const config: WireThinkingConfig =
    settings.mode === 'enabled'
      ? { type: 'enabled', budget_tokens: settings.budgetTokens ?? 0 }
      : { type: 'adaptive' };
  if (settings.includeThoughts !== undefined)
    config.display = settings.includeThoughts ? 'summarized' : 'omitted';
  return config;
}

function toolList(value: unknown): ToolSpec[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail('`tools` must be an array of tool specs');
  return value as ToolSpec[];
}

function encodeTool(tool: ToolSpec, i: number): WireTool {
  if (!isRecord(tool) || typeof tool.name !== 'string' || tool.name === '')
    fail(`tool ${i} has no name`);
  if (!isRecord(tool.schema)) fail(`tool ${JSON.stringify(tool.name)} has no schema object`);
  const wire: WireTool = { name: tool.name, input_schema: tool.schema };
  if (typeof tool.description === 'string' && tool.description !== '')
    wire.description = tool.description;
  return wire;
}

function withExtraBody(body: WireRequest, extra: Record<string, unknown> | undefined): WireRequest {
  if (extra === undefined) return body;
  if (!isRecord(extra)) fail('`settings.extraBody` must be an object');
  const merged: WireRequest = { ...body };
  for (const [key, value] of Object.entries(extra)) {
    if (RESERVED.includes(key))
      fail(`\`settings.extraBody\` cannot set ${JSON.stringify(key)}; the adapter owns it`);
    Object.defineProperty(merged, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return merged;
}
