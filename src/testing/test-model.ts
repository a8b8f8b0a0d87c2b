import { throwIfCancelled } from '../core/errors/cancellation';
import type { JsonValue } from '../core/kit/json';
import type { Message, ToolCall } from '../core/contract/message';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../core/contract/model';
import type { ModelRequest, ToolSpec } from '../core/contract/request';
import type { ModelResponse } from '../core/contract/response';
import type { Usage } from '../core/contract/usage';
import { replayResponse, type ReplayStyle } from './replay';
import { RecordingModel } from './request-log';
import { sampleFromSchema, type SampleOptions } from './schema-sample';
import { toolFacts, withFacts } from './tool-facts';

/** Options of a {@link TestModel}. */
export interface TestModelOptions {
  /** The model's name, as used in errors and events; default `test`. */
  name?: string;
  /**
   * Which advertised tools the first turn calls: `'all'` (default) calls every non-output tool,
   * a list calls only the advertised tools it names, `'none'` calls none.
   */
  callTools?: 'all' | 'none' | readonly string[];
  /** Final text answer, used when the request has neither an output tool nor an output schema. */
  text?: string;
  /** How tool arguments and structured output are generated from their schemas. */
  sample?: SampleOptions;
  /**
   * Whether structured final answers draw on the conversation's tool results (default true): a
   * top-level output field named like a key of a tool's JSON result takes that value when it fits
   * the field's schema. `false` gives the purely sampled value.
   */
  useToolResults?: boolean;
}

/**
 * A model that needs no script: any agent runs offline end to end against it, deterministically.
 *
 * Each turn is derived from the request:
 * 1. If no tool result follows the last user message and non-output tools are advertised
 *    (filtered by `callTools`), it calls each of them once, in advertised order, with arguments
 *    generated from the tool's JSON Schema by {@link sampleFromSchema}; call ids are
 *    `test-call-1`, `test-call-2`… unique over the model's life.
 * 2. Otherwise it finishes: it calls the first advertised output tool (`ToolSpec.output`) with
 *    generated arguments; or, when `request.outputSchema` is set, answers with the JSON of a value
 *    generated from it; or answers `text`; or answers a JSON object mapping each tool that
 *    produced a result since the last user message to its latest result text (keys in first-call
 *    order), e.g. `{"get_weather":"sunny"}` — `success (no tool calls)` when there was none.
 *    A structured answer (output tool or output schema) draws on the tool results: each top-level
 *    field whose name is a key of a tool result that is a JSON object (the latest result naming
 *    it, anywhere in the request) takes that value when it provably fits the field's schema;
 *    otherwise the field keeps its generated value. `useToolResults: false` turns this off.
 *
 * Usage is a deterministic estimate: input tokens = whitespace-separated words in the request
 * messages (contents and tool-call argument texts), output tokens = words in the response
 * (content and tool-call argument texts). Finish reasons are `tool_calls` and `stop`.
 *
 * `stream` replays the response as fragments: content in word chunks (concatenating to the
 * content), then one fragment per tool call carrying its id, name and whole arguments text. A
 * schema the sampler does not support makes the call fail with an error naming the tool and
 * wrapping the `SchemaSampleError`. Requests are recorded as deep copies, and an aborted
 * signal rejects with `cancellationError(signal)` as for {@link ScriptedModel}.
 */
export class TestModel extends RecordingModel implements StreamingModel {
  private readonly options: TestModelOptions;
  private nextId = 1;

  /** Creates a test model. */
  constructor(options: TestModelOptions = {}) {
    super(options.name ?? 'test');
    const callTools = options.callTools;
    this.options = {
      ...options,
      ...(typeof callTools === 'object' && { callTools: [...callTools] }),
    };
  }

  /** Computes the next turn from the request. */
  generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    return new Promise((resolve) => {
      throwIfCancelled(options.signal);
      this.log.record(request);
      resolve(this.respond(request));
    });
  }

  /** Computes the next turn and replays it to `onDelta` as fragments. */
  async stream(
    request: ModelRequest,
    onDelta: DeltaHandler | null | undefined,
    options: GenerateOptions = {},
  ): Promise<ModelResponse> {
    const response = await this.generate(request, options);
    await replayResponse(response, onDelta, options.signal, TEST_REPLAY);
    return response;
  }

  private respond(request: ModelRequest): ModelResponse {
    const since = afterLastUserMessage(request.messages);
    const tools = request.tools.filter((t) => t.output !== true && this.selected(t.name));
    if (tools.length > 0 && !since.some((m) => m.role === 'tool')) {
      return this.response(
        request,
        '',
        tools.map((t) => this.call(t)),
      );
    }
    const facts =
      this.options.useToolResults === false
        ? new Map<string, JsonValue>()
        : toolFacts(request.messages);
    const outputTool = request.tools.find((t) => t.output === true);
    if (outputTool !== undefined) return this.response(request, '', [this.call(outputTool, facts)]);
    if (request.outputSchema !== undefined) {
      const value = this.sample(request.outputSchema, 'the output schema');
      return this.response(
        request,
        JSON.stringify(withFacts(value, request.outputSchema, facts)),
        [],
      );
    }
    return this.response(request, this.options.text ?? summary(since), []);
  }

  private selected(name: string): boolean {
    const callTools = this.options.callTools ?? 'all';
    if (callTools === 'all') return true;
    if (callTools === 'none') return false;
    return callTools.includes(name);
  }

  private call(tool: ToolSpec, facts?: ReadonlyMap<string, JsonValue>): ToolCall {
    const sampled = this.sample(tool.schema, `tool "${tool.name}"`);
    const args = JSON.stringify(
      facts === undefined ? sampled : withFacts(sampled, tool.schema, facts),
    );
    return { id: `test-call-${this.nextId++}`, name: tool.name, args };
  }

  private sample(schema: ToolSpec['schema'], what: string): JsonValue {
    try {
      return sampleFromSchema(schema, this.options.sample);
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new Error(`TestModel "${this.name}": cannot generate a value for ${what}: ${reason}`, {
        cause,
      });
    }
  }

  private response(request: ModelRequest, content: string, toolCalls: ToolCall[]): ModelResponse {
    const message: Message = { role: 'assistant' };
    if (content !== '') message.content = content;
    if (toolCalls.length > 0) message.toolCalls = toolCalls;
    const usage: Usage = {
      inputTokens: request.messages.reduce((n, m) => n + messageWords(m), 0),
      outputTokens: messageWords(message),
    };
    return {
      message,
      usage,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      modelName: this.name,
    };
  }
}

/** Splits text into chunks of one word each, leading whitespace attached; they concatenate to `text`. */
export function wordChunks(text: string): string[] {
  const chunks = text.match(/\s*\S+/g) ?? [];
  const last = chunks.pop();
  if (last === undefined) return text === '' ? [] : [text];
  const tail = /\s+$/.exec(text)?.[0] ?? '';
  return [...chunks, last + tail];
}

const TEST_REPLAY: ReplayStyle = { argsFragments: true, chunkContent: wordChunks };

function afterLastUserMessage(messages: readonly Message[]): Message[] {
  let last = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') last = i;
  });
  return messages.slice(last + 1);
}

function summary(messages: readonly Message[]): string {
  const names = new Map<string, string>();
  for (const m of messages) for (const c of m.toolCalls ?? []) names.set(c.id, c.name);
  const results = new Map<string, string>();
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    const name =
      m.toolName ?? (m.toolCallId === undefined ? undefined : names.get(m.toolCallId)) ?? '';
    results.set(name, m.content ?? '');
  }
  return results.size === 0
    ? 'success (no tool calls)'
    : JSON.stringify(Object.fromEntries(results));
}

function messageWords(message: Message): number {
  let n = words(message.content ?? '');
  for (const call of message.toolCalls ?? []) n += words(call.args);
  return n;
}

function words(text: string): number {
  return text.split(/\s+/).filter((w) => w !== '').length;
}
