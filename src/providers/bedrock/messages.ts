import type {
  ContentBlock,
  ImageFormat,
  Message as BedrockMessage,
  SystemContentBlock,
  ToolUseBlock,
} from '@aws-sdk/client-bedrock-runtime';
import type { Message } from '../../core/contract/message';
import type { Part } from '../../core/contract/part';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ThinkingBlock } from '../../core/contract/thinking';
import { blockReplayableTo, type ThinkingOrigin } from '../shared/provenance';
import { mediaBlock, type DocumentNames } from './media';
import { PROVIDER } from './sdk';

/** A JSON document as the SDK types it (tool input, schemas, extra model fields). */
export type Document = NonNullable<ToolUseBlock['input']>;

/** The conversation half of a Converse input. */
export interface ConverseConversation {
  system: SystemContentBlock[];
  messages: BedrockMessage[];
  /** Where each neutral message's blocks end: its turn's content array and its last block's index. */
  ends: ReadonlyMap<number, { blocks: ContentBlock[]; last: number }>;
}

const IMAGE_FORMATS: Record<string, ImageFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * Translates golem messages to Converse: system messages to `system` text blocks; user messages
 * to `user` text, image, document and audio blocks (see `mediaBlock`); assistant messages to
 * stored reasoning (replayed unchanged), then text, then `toolUse` blocks; tool results to
 * `toolResult` blocks on the user side. Consecutive messages of the same side are merged (Converse
 * requires alternation); messages with nothing to send are skipped. Unsupported content throws a
 * model `ConfigError` before anything is signed or sent. Reasoning is replayed only to the model
 * that produced it (`modelId`; Claude reasoning from the Anthropic API counts when it names the
 * same Claude model).
 */
export function toConverseConversation(
  messages: readonly Message[],
  modelId: string,
): ConverseConversation {
  const target: ThinkingOrigin = { provider: PROVIDER, model: modelId };
  const system: SystemContentBlock[] = [];
  const out: BedrockMessage[] = [];
  const names: DocumentNames = new Set();
  const ends = new Map<number, { blocks: ContentBlock[]; last: number }>();
  messages.forEach((message, i) => {
    if (message.role === 'system') {
      if (message.content !== undefined && message.content !== '')
        system.push({ text: message.content });
      return;
    }
    if (message.parts !== undefined && message.parts.length > 0 && message.role !== 'user')
      throw modelConfigError(
        PROVIDER,
        `message ${i}: parts are only supported on user messages (role ${message.role})`,
      );
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message, i, target, names);
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    let turn = blocks;
    if (last?.role === role) (turn = last.content ??= []).push(...blocks);
    else out.push({ role, content: blocks });
    ends.set(i, { blocks: turn, last: turn.length - 1 });
  });
  return { system, messages: out, ends };
}

function blocksOf(
  message: Message,
  index: number,
  target: ThinkingOrigin,
  names: DocumentNames,
): ContentBlock[] {
  switch (message.role) {
    case 'assistant':
      return assistantBlocks(message, target);
    case 'tool':
      return [toolResultBlock(message, index)];
    default:
      return userBlocks(message, index, names);
  }
}

function userBlocks(message: Message, index: number, names: DocumentNames): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (message.content !== undefined && message.content !== '')
    blocks.push({ text: message.content });
  (message.parts ?? []).forEach((part, j) =>
    blocks.push(
      part.kind === 'image'
        ? imageBlock(part, index, j)
        : mediaBlock(message, part, { message: index, part: j }, names),
    ),
  );
  return blocks;
}

/** Reasoning from `target` (or unstamped) first, then text, then `toolUse` blocks. */
function assistantBlocks(message: Message, target: ThinkingOrigin): ContentBlock[] {
  const blocks: ContentBlock[] = (message.thinking ?? [])
    .filter((block) => blockReplayableTo(block, target) && travelsUnchanged(block))
    .map(reasoningBlock);
  if (message.content !== undefined && message.content !== '')
    blocks.push({ text: message.content });
  for (const call of message.toolCalls ?? [])
    blocks.push({ toolUse: { toolUseId: call.id, name: call.name, input: toolInput(call.args) } });
  return blocks;
}

function toolResultBlock(message: Message, index: number): ContentBlock {
  if (message.toolCallId === undefined || message.toolCallId === '')
    throw modelConfigError(PROVIDER, `message ${index}: a tool result needs a toolCallId`);
  return {
    toolResult: { toolUseId: message.toolCallId, content: [{ text: message.content ?? '' }] },
  };
}

/**
 * Whether Converse can carry `block` unchanged. Redacted data travels as bytes, so it must be
 * canonical base64 (what this adapter stores; Claude's `redacted_thinking` data from the Anthropic
 * API is too); anything else would be altered, so it is left out.
 */
function travelsUnchanged(block: ThinkingBlock): boolean {
  const data = block.redacted;
  if (data === undefined || data === '') return true;
  return Buffer.from(data, 'base64').toString('base64') === data;
}

/** A stored thinking block replayed unchanged: signed text, or the redacted bytes. */
function reasoningBlock(block: ThinkingBlock): ContentBlock {
  if (block.redacted !== undefined && block.redacted !== '')
    return { reasoningContent: { redactedContent: Buffer.from(block.redacted, 'base64') } };
  return {
    reasoningContent: {
      reasoningText:
        block.signature === undefined
          ? { text: block.text ?? '' }
          : { text: block.text ?? '', signature: block.signature },
    },
  };
}

/**
 * The tool input document for recorded args: the parsed JSON object; `{}` for empty text and for
 * text that is not a JSON object (Converse accepts only an object here).
 */
function toolInput(args: string): Document {
  if (args.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Document)
      : {};
  } catch {
    return {};
  }
}

function imageBlock(part: Part, message: number, index: number): ContentBlock {
  const where = `message ${message} part ${index}`;
  const inline = part.data ?? dataUrlBytes(part.url);
  const mediaType = part.data !== undefined ? part.mediaType : dataUrlType(part.url);
  if (inline === undefined || inline.length === 0)
    throw modelConfigError(
      PROVIDER,
      `${where}: Bedrock Converse does not accept image URLs (${part.url ?? 'no url'}); send the image bytes with imageData(mediaType, bytes)`,
    );
  const format = IMAGE_FORMATS[(mediaType ?? '').toLowerCase()];
  if (format === undefined)
    throw modelConfigError(
      PROVIDER,
      `${where}: image media type "${mediaType ?? ''}" is not supported by Bedrock Converse (png, jpeg, gif, webp)`,
    );
  return { image: { format, source: { bytes: inline } } };
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function dataUrlBytes(url: string | undefined): Uint8Array | undefined {
  const match = url === undefined ? null : DATA_URL.exec(url);
  return match === null ? undefined : new Uint8Array(Buffer.from(match[2] ?? '', 'base64'));
}

function dataUrlType(url: string | undefined): string | undefined {
  const match = url === undefined ? null : DATA_URL.exec(url);
  return match?.[1];
}
