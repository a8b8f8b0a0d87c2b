import type { Message, ToolCall } from '../core/contract/message';
import type { ModelResponse } from '../core/contract/response';
import type { Usage } from '../core/contract/usage';
import { USAGE_DETAILS } from '../core/contract/usage';

/** A tool call to script with {@link toolCallResponse}. */
export interface ScriptedToolCall {
  /** The call id the tool result will answer. */
  id: string;
  /** The tool to call. */
  name: string;
  /** Raw JSON text of the arguments, or a value serialised with `JSON.stringify`; default `{}`. */
  args?: string | object;
  /** Opaque provider reasoning evidence bound to the call. */
  signature?: string;
}

/**
 * A final assistant answer: `content` with finish reason `stop` and the given usage (missing
 * counts are zero).
 */
export function textResponse(content: string, usage?: Partial<Usage>): ModelResponse {
  const message: Message = { role: 'assistant' };
  if (content !== '') message.content = content;
  return { message, usage: usageOf(usage), finishReason: 'stop' };
}

/**
 * An assistant turn requesting `calls` in order (finish reason `tool_calls`), with optional text
 * alongside. Object arguments are serialised with `JSON.stringify`; absent arguments are `{}`.
 */
export function toolCallResponse(
  calls: readonly ScriptedToolCall[],
  usage?: Partial<Usage>,
  content?: string,
): ModelResponse {
  const toolCalls = calls.map((call): ToolCall => {
    const made: ToolCall = { id: call.id, name: call.name, args: argsText(call) };
    if (call.signature !== undefined) made.signature = call.signature;
    return made;
  });
  const message: Message = { role: 'assistant' };
  if (content !== undefined && content !== '') message.content = content;
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  return { message, usage: usageOf(usage), finishReason: 'tool_calls' };
}

function argsText(call: ScriptedToolCall): string {
  if (call.args === undefined) return '{}';
  if (typeof call.args === 'string') return call.args;
  const text = JSON.stringify(call.args) as string | undefined;
  if (text === undefined) {
    throw new TypeError(
      `toolCallResponse: arguments of call "${call.id}" are not JSON-serialisable`,
    );
  }
  return text;
}

function usageOf(usage: Partial<Usage> | undefined): Usage {
  const out: Usage = {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
  };
  // Detail counters (cache, reasoning) are kept only when given: "not reported" is not zero.
  for (const key of USAGE_DETAILS) {
    const value = usage?.[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
