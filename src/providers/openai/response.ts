import { isRecord } from '../../core/kit/guards';
import type { Message, ToolCall } from '../../core/contract/message';
import { ModelProtocolError } from '../../core/errors/provider-errors';
import type { ModelResponse } from '../../core/contract/response';
import type { Usage } from '../../core/contract/usage';
import { parseUsage } from './usage';
import { stampBlock } from '../shared/provenance';
import { embeddedError } from './errors';

/**
 * Normalises a chat-completions response body: the first choice (index 0) wins; text is
 * `message.content` (a string, or the joined text of a content-part array); `reasoning_content`
 * (DeepSeek, xAI, vLLM…) becomes one thinking block, stamped with `provider` and the model the
 * response names (never replayed: see docs/guides/thinking.md); `tool_calls` become calls with their raw
 * argument text (`{}` when empty) and ids (`call-<n>` when the provider sent none); a refusal with
 * no text becomes the content with finish reason `refusal`. A body without choices or with a
 * malformed message throws `ModelProtocolError`; an error object sent with status 200 is thrown as
 * the error it describes.
 */
export function parseChatCompletion(
  provider: string,
  body: unknown,
  secrets: readonly string[],
): ModelResponse {
  if (!isRecord(body)) throw new ModelProtocolError(provider, 'the response is not a JSON object');
  if (body.error !== undefined && body.error !== null && body.choices === undefined)
    throw embeddedError(provider, body, 'body', secrets);
  const choice = firstChoice(body.choices);
  if (choice === undefined) throw new ModelProtocolError(provider, 'the response has no choices');
  const message = choice.message;
  if (!isRecord(message))
    throw new ModelProtocolError(provider, 'the first choice has no message object');
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const toolCalls = calls.map((call: unknown, index) => {
    if (!isRecord(call) || !isRecord(call.function))
      throw new ModelProtocolError(provider, `tool_calls[${index}] has no function object`);
    const { name, arguments: args } = call.function;
    return assembleCall(provider, index, call.id, name, argsText(args));
  });
  return assembleResponse({
    provider,
    content: contentText(message.content),
    refusal: typeof message.refusal === 'string' ? message.refusal : '',
    reasoning: typeof message.reasoning_content === 'string' ? message.reasoning_content : '',
    toolCalls,
    usage: parseUsage(body.usage),
    finishReason: choice.finish_reason,
    model: body.model,
    id: body.id,
  });
}

/** The choice with index 0 (or the first choice when none says its index). */
export function firstChoice(choices: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(choices)) return undefined;
  const records = choices.filter(isRecord);
  return records.find((c) => c.index === 0) ?? records.find((c) => c.index === undefined);
}

/** The text of a `content` field: a string, or the `text` of its text parts joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}

/** Raw argument text: a string as sent, an object (some compatible servers) as JSON. */
export function argsText(args: unknown): string {
  if (typeof args === 'string') return args;
  if (isRecord(args)) return JSON.stringify(args);
  return '';
}

/** A call with its id (or `call-<n>`) and arguments (`{}` when empty); a nameless call throws. */
export function assembleCall(
  provider: string,
  index: number,
  id: unknown,
  name: unknown,
  args: string,
): ToolCall {
  if (typeof name !== 'string' || name === '')
    throw new ModelProtocolError(provider, `tool call ${index} has no function name`);
  return {
    id: typeof id === 'string' && id !== '' ? id : generatedCallId(index),
    name,
    args: args.trim() === '' ? '{}' : args,
  };
}

/** The id given to the call at `index` when the provider sent none. */
export function generatedCallId(index: number): string {
  return `call-${index + 1}`;
}

/** What a response is assembled from (shared by `generate` and the stream assembler). */
export interface ResponseParts {
  /** The adapter's provider id, stamped on the thinking block. */
  provider: string;
  content: string;
  refusal: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: unknown;
  model: unknown;
  /** The response's `id` (`chatcmpl-…`), when it has one. */
  id?: unknown;
}

/** The normalised response from its parts. */
export function assembleResponse(parts: ResponseParts): ModelResponse {
  const message: Message = { role: 'assistant' };
  let finishReason =
    typeof parts.finishReason === 'string' && parts.finishReason !== ''
      ? normaliseFinish(parts.finishReason)
      : undefined;
  if (parts.content !== '') message.content = parts.content;
  else if (parts.refusal !== '') {
    message.content = parts.refusal;
    finishReason = 'refusal';
  }
  if (parts.toolCalls.length > 0) message.toolCalls = parts.toolCalls;
  if (parts.reasoning !== '') {
    const model = typeof parts.model === 'string' ? parts.model : undefined;
    message.thinking = [stampBlock({ text: parts.reasoning }, { provider: parts.provider, model })];
  }
  const response: ModelResponse = { message, usage: parts.usage };
  if (finishReason !== undefined) response.finishReason = finishReason;
  if (typeof parts.model === 'string' && parts.model !== '') response.modelName = parts.model;
  if (typeof parts.id === 'string' && parts.id !== '') response.responseId = parts.id;
  return response;
}

function normaliseFinish(reason: string): string {
  const lower = reason.toLowerCase();
  return lower === 'function_call' ? 'tool_calls' : lower;
}
