import type { JsonObject } from '../../core/kit/json';
import type { Message, ToolCall } from '../../core/contract/message';
import { partProblem, type Part } from '../../core/contract/part';
import { ModelProtocolError } from '../../core/errors/provider-errors';
import { blockReplayableTo, type ThinkingOrigin } from '../shared/provenance';
import { PROVIDER } from './options';
import { checkInlineSize, mediaBlock } from './encode-parts';
import type {
  WireAssistantBlock,
  WireDocument,
  WireImage,
  WireMessage,
  WireText,
  WireToolResult,
  WireToolUse,
  WireUserBlock,
} from './wire';

/** The conversation in the API's shape: top-level `system` plus alternating turns. */
export interface EncodedConversation {
  system: string | undefined;
  messages: WireMessage[];
  /** The last wire block each neutral message produced, by message index (for cache breakpoints). */
  lastBlocks: ReadonlyMap<number, WireUserBlock | WireAssistantBlock>;
}

/** A request that cannot be encoded faithfully (nothing was sent). */
export function encodingError(message: string): ModelProtocolError {
  return new ModelProtocolError(PROVIDER, `cannot encode the request: ${message}`);
}

type Turn =
  | { role: 'user'; results: WireToolResult[]; blocks: (WireText | WireImage | WireDocument)[] }
  | { role: 'assistant'; blocks: WireAssistantBlock[] };

/**
 * Translates neutral messages. System messages are joined with a blank line into `system`
 * (wherever they appear); user messages and tool results form `user` turns, assistant messages
 * `assistant` turns. Consecutive turns of the same side are merged because the API requires
 * alternation; in a merged user turn the `tool_result` blocks come first, then text, images and
 * documents in order (see `mediaBlock`; inline parts are capped at the API's 32 MB request size). A message that yields no block (empty text, nothing else) is skipped. Thinking is
 * replayed only when it came from `target` (see {@link assistantBlocks}).
 */
export function encodeMessages(
  messages: readonly Message[],
  target: ThinkingOrigin,
): EncodedConversation {
  checkInlineSize(messages);
  const system: string[] = [];
  const turns: Turn[] = [];
  const lastBlocks = new Map<number, WireUserBlock | WireAssistantBlock>();
  const remember = (i: number, block: WireUserBlock | WireAssistantBlock | undefined): void => {
    if (block !== undefined) lastBlocks.set(i, block);
  };
  messages.forEach((message, i) => {
    switch (message.role) {
      case 'system':
        if (message.parts !== undefined && message.parts.length > 0)
          throw encodingError(`message ${i}: parts are only supported on user messages`);
        if (message.content !== undefined && message.content !== '') system.push(message.content);
        return;
      case 'user': {
        const blocks = userBlocks(message, i);
        userTurn(turns).blocks.push(...blocks);
        remember(i, blocks.at(-1));
        return;
      }
      case 'tool': {
        const block = toolResult(message, i);
        userTurn(turns).results.push(block);
        remember(i, block);
        return;
      }
      case 'assistant': {
        const blocks = assistantBlocks(message, i, target);
        if (blocks.length === 0) return;
        remember(i, blocks.at(-1));
        const last = turns.at(-1);
        if (last?.role === 'assistant') last.blocks.push(...blocks);
        else turns.push({ role: 'assistant', blocks });
        return;
      }
      default:
        throw encodingError(`message ${i} has unknown role ${JSON.stringify(message.role)}`);
    }
  });
  const wire: WireMessage[] = [];
  for (const turn of turns) {
    if (turn.role === 'assistant') wire.push({ role: 'assistant', content: turn.blocks });
    else if (turn.results.length + turn.blocks.length > 0)
      wire.push({ role: 'user', content: [...turn.results, ...turn.blocks] });
  }
  return {
    system: system.length === 0 ? undefined : system.join('\n\n'),
    messages: wire,
    lastBlocks,
  };
}

function userTurn(turns: Turn[]): Extract<Turn, { role: 'user' }> {
  const last = turns.at(-1);
  if (last?.role === 'user') return last;
  const turn: Turn = { role: 'user', results: [], blocks: [] };
  turns.push(turn);
  return turn;
}

function userBlocks(message: Message, i: number): (WireText | WireImage | WireDocument)[] {
  const blocks: (WireText | WireImage | WireDocument)[] = [];
  if (message.content !== undefined && message.content !== '')
    blocks.push({ type: 'text', text: message.content });
  (message.parts ?? []).forEach((part, j) => blocks.push(partBlock(part, i, j)));
  return blocks;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function partBlock(part: Part, i: number, j: number): WireImage | WireDocument {
  const problem = partProblem(part);
  if (problem !== undefined) throw encodingError(`message ${i} part ${j}: ${problem}`);
  if (part.kind !== 'image') return mediaBlock(part, { message: i, part: j });
  if (part.data !== undefined && part.data.length > 0)
    return {
      type: 'image',
      source: {
        type: 'base64',
        media_type: part.mediaType ?? '',
        data: Buffer.from(part.data).toString('base64'),
      },
    };
  const url = part.url ?? '';
  const inline = DATA_URL.exec(url);
  if (inline !== null)
    return {
      type: 'image',
      source: { type: 'base64', media_type: inline[1] ?? '', data: inline[2] ?? '' },
    };
  return { type: 'image', source: { type: 'url', url } };
}

function toolResult(message: Message, i: number): WireToolResult {
  if (message.toolCallId === undefined || message.toolCallId === '')
    throw encodingError(`message ${i} is a tool result without a toolCallId`);
  if (message.parts !== undefined && message.parts.length > 0)
    throw encodingError(`message ${i}: parts are only supported on user messages`);
  const block: WireToolResult = { type: 'tool_result', tool_use_id: message.toolCallId };
  if (message.content !== undefined && message.content !== '') block.content = message.content;
  return block;
}

/**
 * Assistant blocks in the order the API requires: stored thinking first (signed blocks as
 * `thinking`, redacted ones as `redacted_thinking`; unsigned text cannot be verified by the API
 * and is not replayed), then the text, then the tool calls. Thinking from another issuer than
 * `target` (another provider, another model; Claude on Bedrock with the same model counts as the
 * same issuer) is left out: its signature would not verify. Unstamped blocks are trusted.
 */
function assistantBlocks(
  message: Message,
  i: number,
  target: ThinkingOrigin,
): WireAssistantBlock[] {
  if (message.parts !== undefined && message.parts.length > 0)
    throw encodingError(`message ${i}: parts are only supported on user messages`);
  const blocks: WireAssistantBlock[] = [];
  for (const block of message.thinking ?? []) {
    if (!blockReplayableTo(block, target)) continue;
    if (block.redacted !== undefined && block.redacted !== '')
      blocks.push({ type: 'redacted_thinking', data: block.redacted });
    else if (block.signature !== undefined && block.signature !== '')
      blocks.push({ type: 'thinking', thinking: block.text ?? '', signature: block.signature });
  }
  if (message.content !== undefined && message.content !== '')
    blocks.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) blocks.push(toolUse(call));
  return blocks;
}

function toolUse(call: ToolCall): WireToolUse {
  return { type: 'tool_use', id: call.id, name: call.name, input: toolInput(call) };
}

/**
 * The `input` object of a stored call. Empty args are `{}`. Args that are not a JSON object (a
 * call cut off by `max_tokens`, say) cannot be replayed as they are; the API only accepts an
 * object, so they are sent as `{}` — the engine has already answered such a call with a
 * rejection naming the problem, and the evidence keeps the raw text.
 */
function toolInput(call: ToolCall): JsonObject {
  if (call.args.trim() === '') return {};
  let input: unknown;
  try {
    input = JSON.parse(call.args);
  } catch {
    input = undefined;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return {};
  return input as JsonObject;
}
