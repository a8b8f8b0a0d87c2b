import type { Citation, HostedToolCall } from '../../core/contract/evidence';
import { isRecord } from '../../core/kit/guards';
import type { CompactionItem, Message, ToolCall } from '../../core/contract/message';
import { ModelProtocolError } from '../../core/errors/provider-errors';
import type { ModelResponse } from '../../core/contract/response';
import type { ThinkingBlock } from '../../core/contract/thinking';
import { usageOf, type Usage } from '../../core/contract/usage';
import { stampBlock } from '../shared/provenance';
import { failureOf } from './errors';
import { PROVIDER } from './options';

/** Hosted tool call item types → the neutral tool type. */
const HOSTED: Readonly<Record<string, string>> = {
  web_search_call: 'web_search',
  file_search_call: 'file_search',
  code_interpreter_call: 'code_interpreter',
};

function protocol(message: string): ModelProtocolError {
  return new ModelProtocolError(PROVIDER, message);
}

/**
 * Normalises a response object (a `POST /responses` body, or the `response` of a stream's
 * terminal event), reading its `output` items in order:
 * - `message`: `output_text` parts concatenated into the content, their annotations as citations
 *   (offsets shifted to the whole content); a `refusal` becomes the content when there is no text
 *   (finish reason `refusal`);
 * - `function_call`: a tool call (`call_id` as id, the `arguments` text, `{}` when empty);
 * - `reasoning`: a thinking block — the summary texts joined by a blank line (or the reasoning
 *   text), `encrypted_content` as `signature`, the item id as `id` — stamped with the adapter's
 *   provider and `model`; an item with neither text nor encrypted content is left out;
 * - `web_search_call`, `file_search_call`, `code_interpreter_call` (and any other `…_call` the
 *   API runs itself): a hosted tool call with its input (action, queries, code) and output
 *   (sources, results, outputs) as JSON text;
 * - `compaction`: the message's `compaction` (`encrypted_content` as `data`, its id, stamped with
 *   the adapter's provider and `model`; the last one wins), reported as a `compacted` context
 *   edit; one without encrypted content is left out.
 * Usage maps `input_tokens_details.cached_tokens` and `output_tokens_details.reasoning_tokens`.
 * The finish reason is `tool_calls` (function calls), `stop`, `length` (incomplete:
 * `max_output_tokens`), `content_filter`, or `refusal`. A `failed` response throws
 * `ResponseFailedError`; anything not a finished response, `ModelProtocolError`.
 */
export function parseResponse(
  body: unknown,
  model: string,
  secrets: readonly string[],
): ModelResponse {
  if (!isRecord(body)) throw protocol('the response is not a JSON object');
  if (body.status === 'failed' || (isRecord(body.error) && body.output === undefined))
    throw failureOf(body, secrets);
  // A missing status (some compatible gateways) counts as completed.
  if (body.status !== undefined && body.status !== 'completed' && body.status !== 'incomplete')
    throw protocol(
      `the response is not finished (status ${JSON.stringify(body.status)}); background responses are not supported`,
    );
  if (!Array.isArray(body.output)) throw protocol('the response has no output array');
  const turn = readOutput(body.output as unknown[], model);
  const message: Message = { role: 'assistant' };
  let finish = finishOf(body, turn.calls.length > 0);
  if (turn.text !== '') message.content = turn.text;
  else if (turn.refusal !== '') {
    message.content = turn.refusal;
    finish = 'refusal';
  }
  if (turn.calls.length > 0) message.toolCalls = turn.calls;
  if (turn.thinking.length > 0) message.thinking = turn.thinking;
  if (turn.hosted.length > 0) message.hostedToolCalls = turn.hosted;
  if (turn.citations.length > 0) message.citations = turn.citations;
  if (typeof body.id === 'string' && body.id !== '') message.responseId = body.id;
  if (turn.compaction !== undefined) message.compaction = turn.compaction;
  const response: ModelResponse = { message, usage: usageFrom(body.usage), finishReason: finish };
  if (turn.compaction !== undefined)
    response.contextEdits = [{ kind: 'compacted', type: 'compaction' }];
  if (typeof body.model === 'string' && body.model !== '') response.modelName = body.model;
  if (typeof body.id === 'string' && body.id !== '') response.responseId = body.id;
  return response;
}

interface Turn {
  text: string;
  refusal: string;
  calls: ToolCall[];
  thinking: ThinkingBlock[];
  hosted: HostedToolCall[];
  citations: Citation[];
  /** The last compaction item of the output. */
  compaction?: CompactionItem;
}

function readOutput(items: readonly unknown[], model: string): Turn {
  const turn: Turn = { text: '', refusal: '', calls: [], thinking: [], hosted: [], citations: [] };
  items.forEach((item, i) => {
    if (!isRecord(item)) throw protocol(`output[${i}] is not an object`);
    const type = typeof item.type === 'string' ? item.type : '';
    if (type === 'message') readMessage(item, i, turn);
    else if (type === 'function_call') turn.calls.push(functionCall(item, i));
    else if (type === 'reasoning') {
      const block = reasoningBlock(item);
      if (block !== undefined) turn.thinking.push(stampBlock(block, { provider: PROVIDER, model }));
    } else if (type === 'compaction') {
      const compaction = compactionItem(item, model);
      if (compaction !== undefined) turn.compaction = compaction;
    } else if (type.endsWith('_call')) turn.hosted.push(hostedCall(item, type, i));
  });
  return turn;
}

function readMessage(item: Record<string, unknown>, i: number, turn: Turn): void {
  if (!Array.isArray(item.content)) throw protocol(`output[${i}] (message) has no content array`);
  for (const part of item.content as unknown[]) {
    if (!isRecord(part)) continue;
    if (part.type === 'output_text' && typeof part.text === 'string') {
      const offset = turn.text.length;
      turn.text += part.text;
      if (Array.isArray(part.annotations))
        for (const annotation of part.annotations as unknown[]) {
          const citation = citationOf(annotation, offset);
          if (citation !== undefined) turn.citations.push(citation);
        }
    } else if (part.type === 'refusal' && typeof part.refusal === 'string')
      turn.refusal += part.refusal;
  }
}

/** A function call item as a tool call; exported for the stream assembler's deltas. */
export function functionCall(item: Record<string, unknown>, i: number): ToolCall {
  const id = item.call_id;
  const name = item.name;
  if (typeof id !== 'string' || id === '')
    throw protocol(`output[${i}] (function_call) has no call_id`);
  if (typeof name !== 'string' || name === '')
    throw protocol(`output[${i}] (function_call) has no name`);
  const args = typeof item.arguments === 'string' ? item.arguments : '';
  return { id, name, args: args.trim() === '' ? '{}' : args };
}

function reasoningBlock(item: Record<string, unknown>): ThinkingBlock | undefined {
  const texts = (list: unknown, type: string): string[] =>
    Array.isArray(list)
      ? (list as unknown[]).flatMap((p) =>
          isRecord(p) && p.type === type && typeof p.text === 'string' && p.text !== ''
            ? [p.text]
            : [],
        )
      : [];
  const summary = texts(item.summary, 'summary_text');
  const text = (summary.length > 0 ? summary : texts(item.content, 'reasoning_text')).join('\n\n');
  const encrypted = typeof item.encrypted_content === 'string' ? item.encrypted_content : '';
  if (text === '' && encrypted === '') return undefined;
  const block: ThinkingBlock = {};
  if (text !== '') block.text = text;
  if (encrypted !== '') block.signature = encrypted;
  if (typeof item.id === 'string' && item.id !== '') block.id = item.id;
  return block;
}

/**
 * A `compaction` item as the message's compaction, stamped with the adapter's provider and
 * `model`. One without a non-empty string `encrypted_content` carries nothing replayable and is
 * left out (like a reasoning item with nothing in it): the next request then sends the full
 * history, which is what it stood for.
 */
function compactionItem(item: Record<string, unknown>, model: string): CompactionItem | undefined {
  const data = item.encrypted_content;
  if (typeof data !== 'string' || data === '') return undefined;
  const compaction: CompactionItem = { provider: PROVIDER, data };
  if (model !== '') compaction.model = model;
  if (typeof item.id === 'string' && item.id !== '') compaction.id = item.id;
  return compaction;
}

function hostedCall(item: Record<string, unknown>, type: string, i: number): HostedToolCall {
  if (typeof item.id !== 'string' || item.id === '')
    throw protocol(`output[${i}] (${type}) has no id`);
  const call: HostedToolCall = {
    id: item.id,
    type: HOSTED[type] ?? type.slice(0, -5),
    provider: PROVIDER,
  };
  if (typeof item.status === 'string' && item.status !== '') call.status = item.status;
  const { input, output } = hostedIo(item, type);
  if (input !== undefined) call.input = JSON.stringify(input);
  if (output !== undefined && output !== null) call.output = JSON.stringify(output);
  return call;
}

function hostedIo(
  item: Record<string, unknown>,
  type: string,
): { input?: unknown; output?: unknown } {
  switch (type) {
    case 'web_search_call': {
      const action = isRecord(item.action) ? item.action : undefined;
      if (action === undefined) return {};
      const { sources, ...asked } = action;
      return sources === undefined ? { input: asked } : { input: asked, output: { sources } };
    }
    case 'file_search_call':
      return { input: { queries: item.queries ?? [] }, output: item.results };
    case 'code_interpreter_call':
      return {
        input: { code: item.code ?? '', container_id: item.container_id },
        output: item.outputs,
      };
    default: {
      const { id: _id, type: _type, status: _status, ...rest } = item;
      return { input: rest };
    }
  }
}

function citationOf(annotation: unknown, offset: number): Citation | undefined {
  if (!isRecord(annotation)) return undefined;
  const at = (value: unknown): number | undefined =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? offset + value
      : undefined;
  const citation: Citation = { type: 'url' };
  switch (annotation.type) {
    case 'url_citation':
      if (typeof annotation.url !== 'string') return undefined;
      citation.url = annotation.url;
      if (typeof annotation.title === 'string' && annotation.title !== '')
        citation.title = annotation.title;
      break;
    case 'file_citation':
    case 'file_path':
    case 'container_file_citation':
      citation.type = annotation.type === 'container_file_citation' ? 'container_file' : 'file';
      if (typeof annotation.file_id === 'string') citation.fileId = annotation.file_id;
      if (typeof annotation.filename === 'string' && annotation.filename !== '')
        citation.filename = annotation.filename;
      break;
    default:
      return undefined;
  }
  const start = at(annotation.start_index) ?? at(annotation.index);
  const end = at(annotation.end_index) ?? at(annotation.index);
  if (start !== undefined) citation.start = start;
  if (end !== undefined) citation.end = end;
  return citation;
}

function finishOf(body: Record<string, unknown>, calls: boolean): string {
  if (body.status === 'incomplete') {
    const reason = isRecord(body.incomplete_details) ? body.incomplete_details.reason : undefined;
    if (reason === 'max_output_tokens') return 'length';
    return typeof reason === 'string' && reason !== '' ? reason.toLowerCase() : 'length';
  }
  return calls ? 'tool_calls' : 'stop';
}

/** Usage from a `usage` object, with the cached-input and reasoning details when reported. */
export function usageFrom(usage: unknown): Usage {
  if (!isRecord(usage)) return { inputTokens: 0, outputTokens: 0 };
  const input = isRecord(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const output = isRecord(usage.output_tokens_details) ? usage.output_tokens_details : {};
  return usageOf(Number(usage.input_tokens), Number(usage.output_tokens), {
    cacheReadTokens: input.cached_tokens,
    reasoningTokens: output.reasoning_tokens,
  });
}
