import { isRecord } from '../../core/kit/guards';
import { ModelProtocolError } from '../../core/errors/provider-errors';
import type { ModelResponse } from '../../core/contract/response';
import type { ThinkingOrigin } from '../shared/provenance';
import { readContextEdits } from './context-management';
import { errorFromEnvelope } from './errors';
import { readUsage, thinkingBlock, toResponse, type AssembledTurn } from './normalise';
import { PROVIDER } from './options';
import { readServerEvidence } from './server-tools';

function protocolError(message: string, cause?: unknown): ModelProtocolError {
  return new ModelProtocolError(PROVIDER, message, { cause });
}

function str(value: unknown, what: string): string {
  if (typeof value !== 'string') throw protocolError(`${what} is not a string`);
  return value;
}

/**
 * Normalises a non-streamed message body: text blocks concatenated in order, `tool_use` blocks
 * as tool calls (args = the JSON text of `input`, `{}` when absent), `thinking` and
 * `redacted_thinking` blocks as thinking blocks in order; server tool blocks (web search) and
 * text citations become the message's `hostedToolCalls` and `citations` (`readServerEvidence`);
 * other block types are ignored. Thinking blocks are stamped with `origin` (the adapter's provider and
 * configured model). `context_management.applied_edits` becomes `contextEdits` (read leniently,
 * see `readContextEdits`). A body that is not a message is a `ModelProtocolError`.
 */
export function decodeMessage(
  body: unknown,
  secrets: readonly string[],
  origin?: ThinkingOrigin,
): ModelResponse {
  if (!isRecord(body)) throw protocolError('the response body is not a JSON object');
  if (body.type === 'error') throw errorFromEnvelope(body, secrets);
  if (!Array.isArray(body.content))
    throw protocolError('the response body has no `content` array; it is not a message');
  const turn: AssembledTurn = {
    text: '',
    toolCalls: [],
    thinking: [],
    usage: readUsage(body.usage),
    stopReason: body.stop_reason,
    model: body.model,
    id: body.id,
    origin,
    contextEdits: readContextEdits(body.context_management),
  };
  body.content.forEach((block: unknown, i) => {
    if (!isRecord(block)) throw protocolError(`content[${i}] is not an object`);
    switch (block.type) {
      case 'text':
        turn.text += str(block.text, `content[${i}].text`);
        return;
      case 'tool_use': {
        const input = block.input;
        if (input !== undefined && input !== null && !isRecord(input))
          throw protocolError(`content[${i}].input is not an object`);
        turn.toolCalls.push({
          id: str(block.id, `content[${i}].id`),
          name: str(block.name, `content[${i}].name`),
          args: input === undefined || input === null ? '{}' : JSON.stringify(input),
        });
        return;
      }
      case 'thinking': {
        const signature = block.signature ?? '';
        const thinking = thinkingBlock(
          str(block.thinking ?? '', `content[${i}].thinking`),
          str(signature, `content[${i}].signature`),
        );
        if (thinking !== undefined) turn.thinking.push(thinking);
        return;
      }
      case 'redacted_thinking': {
        const data = str(block.data, `content[${i}].data`);
        if (data !== '') turn.thinking.push({ redacted: data });
        return;
      }
      default:
        return;
    }
  });
  return toResponse({ ...turn, ...readServerEvidence(body.content) });
}
