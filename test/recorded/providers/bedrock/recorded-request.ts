/**
 * Reads a recorded Converse request body back into the golem request that produces it, and
 * states the exact body our adapter must send for it: the recording minus what the recorder's
 * client sent but golem deliberately omits (empty `system: []` and `inferenceConfig: {}`, and
 * `toolChoice`, which golem's request has no field for: the engine narrows `tools` instead).
 */
import type { JsonSchema, Message, ModelRequest, ModelSettings, ToolSpec } from 'golem';
import { fixtureJson } from './recorded';

interface RecordedBlock {
  text?: string;
  image?: { format: string; source: { bytes: string } };
}

interface RecordedRequest {
  messages: { role: string; content: RecordedBlock[] }[];
  system?: { text: string }[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number };
  toolConfig?: {
    tools: {
      toolSpec: { name: string; description?: string; inputSchema: { json: JsonSchema } };
    }[];
    toolChoice?: unknown;
  };
  additionalModelRequestFields?: { thinking?: { type: string; budget_tokens?: number } };
  outputConfig?: {
    textFormat: {
      structure: { jsonSchema: { schema: string; name?: string; description?: string } };
    };
  };
}

/** The recorded request body of `<base>.request.json`. */
export function recordedRequest(base: string): RecordedRequest {
  return fixtureJson(`${base}.request.json`) as RecordedRequest;
}

/** The golem request equivalent to the recording. */
export function requestFromRecording(base: string): ModelRequest {
  const recorded = recordedRequest(base);
  const messages: Message[] = (recorded.system ?? []).map((s) => ({
    role: 'system',
    content: s.text,
  }));
  for (const m of recorded.messages) {
    if (m.role !== 'user') throw new Error(`unexpected recorded role ${m.role}`);
    const text = m.content.flatMap((b) => (b.text === undefined ? [] : [b.text])).join('');
    const parts = m.content.flatMap((b) =>
      b.image === undefined
        ? []
        : [
            {
              kind: 'image' as const,
              mediaType: `image/${b.image.format}`,
              data: new Uint8Array(Buffer.from(b.image.source.bytes, 'base64')),
            },
          ],
    );
    messages.push(
      parts.length > 0 ? { role: 'user', content: text, parts } : { role: 'user', content: text },
    );
  }
  const tools: ToolSpec[] = (recorded.toolConfig?.tools ?? []).map(({ toolSpec }) => ({
    name: toolSpec.name,
    description: toolSpec.description ?? '',
    schema: toolSpec.inputSchema.json,
  }));
  const request: ModelRequest = { messages, tools };
  const settings: ModelSettings = {};
  const inference = recorded.inferenceConfig ?? {};
  if (inference.maxTokens !== undefined) settings.maxTokens = inference.maxTokens;
  if (inference.temperature !== undefined) settings.temperature = inference.temperature;
  if (inference.topP !== undefined) settings.topP = inference.topP;
  const thinking = recorded.additionalModelRequestFields?.thinking;
  if (thinking !== undefined)
    settings.thinking =
      thinking.type === 'enabled'
        ? { mode: 'enabled', budgetTokens: thinking.budget_tokens ?? 0 }
        : { mode: thinking.type as 'adaptive' | 'disabled' };
  if (Object.keys(settings).length > 0) request.settings = settings;
  const schema = recorded.outputConfig?.textFormat.structure.jsonSchema.schema;
  if (schema !== undefined) request.outputSchema = JSON.parse(schema) as JsonSchema;
  return request;
}

/**
 * The exact body golem sends for the recording: empty `system`/`inferenceConfig` and
 * `toolChoice` dropped; native output schemas go out under the name `output` as compact JSON
 * text (the recorder used its own schema name, a description and Python's `", "` spacing).
 */
export function expectedBody(base: string): unknown {
  const body = recordedRequest(base) as RecordedRequest & Record<string, unknown>;
  const out: Record<string, unknown> = { ...body };
  if (Array.isArray(body.system) && body.system.length === 0) delete out.system;
  if (body.inferenceConfig !== undefined && Object.keys(body.inferenceConfig).length === 0)
    delete out.inferenceConfig;
  if (body.toolConfig?.toolChoice !== undefined) {
    const { toolChoice: _dropped, ...toolConfig } = body.toolConfig;
    out.toolConfig = toolConfig;
  }
  const jsonSchema = body.outputConfig?.textFormat.structure.jsonSchema;
  if (jsonSchema !== undefined)
    out.outputConfig = {
      textFormat: {
        type: 'json_schema',
        structure: {
          jsonSchema: { name: 'output', schema: JSON.stringify(JSON.parse(jsonSchema.schema)) },
        },
      },
    };
  return out;
}
