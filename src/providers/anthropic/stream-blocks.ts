import { isRecord } from '../../core/kit/guards';
import type { Delta } from '../../core/contract/delta';
import type { ToolCall } from '../../core/contract/message';
import type { ModelProtocolError } from '../../core/errors/provider-errors';
import type { ThinkingBlock } from '../../core/contract/thinking';
import { thinkingBlock } from './normalise';
import { protocolError, toolArgs } from './stream-args';

/** One content block of a streamed message, as it accumulates. Internal. */
export type Block =
  | { kind: 'text'; text: string; citations: unknown[] }
  | {
      kind: 'tool';
      ordinal: number;
      id: string;
      name: string;
      args: string;
      startInput: string;
      stopped: boolean;
    }
  | { kind: 'thinking'; ordinal: number; text: string; signature: string }
  | { kind: 'redacted'; ordinal: number; data: string }
  | { kind: 'other'; raw: Record<string, unknown>; input: string };

/** How many tool calls and thinking blocks the message has opened so far (delta indexes). */
export interface Ordinals {
  tools: number;
  thoughts: number;
}

function str(value: unknown, what: string): string {
  if (typeof value !== 'string') throw protocolError(`${what} is not a string`);
  return value;
}

/**
 * The block a `content_block_start` opens (`cb` is its `content_block`); tool calls and thinking
 * blocks take the next ordinal. Server tools and block types added later are kept for the
 * evidence. Internal.
 */
export function openBlock(cb: Record<string, unknown>, index: number, ordinals: Ordinals): Block {
  const where = `content_block_start ${index}`;
  switch (cb.type) {
    case 'text':
      return {
        kind: 'text',
        text: str(cb.text ?? '', `${where} text`),
        citations: Array.isArray(cb.citations) ? [...(cb.citations as unknown[])] : [],
      };
    case 'tool_use': {
      const input = cb.input;
      if (input !== undefined && input !== null && !isRecord(input))
        throw protocolError(`${where} input is not an object`);
      return {
        kind: 'tool',
        ordinal: ordinals.tools++,
        id: str(cb.id, `${where} id`),
        name: str(cb.name, `${where} name`),
        args: '',
        startInput: isRecord(input) && Object.keys(input).length > 0 ? JSON.stringify(input) : '',
        stopped: false,
      };
    }
    case 'thinking':
      return {
        kind: 'thinking',
        ordinal: ordinals.thoughts++,
        text: str(cb.thinking ?? '', `${where} thinking`),
        signature: str(cb.signature ?? '', `${where} signature`),
      };
    case 'redacted_thinking':
      return {
        kind: 'redacted',
        ordinal: ordinals.thoughts++,
        data: str(cb.data, `${where} data`),
      };
    default:
      return { kind: 'other', raw: cb, input: '' };
  }
}

/** The delta a just-opened block sends (its start content, the call's id and name), if any. */
export function openingDelta(block: Block): Delta | undefined {
  if (block.kind === 'text' && block.text !== '') return { content: block.text };
  if (block.kind === 'tool')
    return { toolCalls: [{ index: block.ordinal, id: block.id, name: block.name }] };
  if (block.kind === 'thinking' && (block.text !== '' || block.signature !== '')) {
    const fragment: { index: number; text?: string; signature?: string } = {
      index: block.ordinal,
    };
    if (block.text !== '') fragment.text = block.text;
    if (block.signature !== '') fragment.signature = block.signature;
    return { thinking: [fragment] };
  }
  return undefined;
}

/**
 * Adds one `content_block_delta` to its block and returns the delta to send, if any. A delta of
 * the wrong kind for its block is a protocol error; delta types added later are ignored.
 */
export function applyDelta(block: Block, delta: Record<string, unknown>): Delta | undefined {
  if (block.kind === 'other') {
    if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string')
      block.input += delta.partial_json; // a server tool's input (the search query)
    return undefined;
  }
  const mismatch = (): ModelProtocolError =>
    protocolError(`a ${String(delta.type)} arrived for a ${block.kind} block`);
  switch (delta.type) {
    case 'text_delta': {
      if (block.kind !== 'text') throw mismatch();
      const text = str(delta.text, 'text_delta.text');
      block.text += text;
      return text !== '' ? { content: text } : undefined;
    }
    case 'input_json_delta': {
      if (block.kind !== 'tool') throw mismatch();
      const fragment = str(delta.partial_json, 'input_json_delta.partial_json');
      block.args += fragment;
      return fragment !== ''
        ? { toolCalls: [{ index: block.ordinal, argsFragment: fragment }] }
        : undefined;
    }
    case 'thinking_delta': {
      if (block.kind !== 'thinking') throw mismatch();
      const text = str(delta.thinking, 'thinking_delta.thinking');
      block.text += text;
      return text !== '' ? { thinking: [{ index: block.ordinal, text }] } : undefined;
    }
    case 'signature_delta': {
      if (block.kind !== 'thinking') throw mismatch();
      const signature = str(delta.signature, 'signature_delta.signature');
      block.signature += signature;
      return signature !== '' ? { thinking: [{ index: block.ordinal, signature }] } : undefined;
    }
    case 'citations_delta':
      if (block.kind === 'text' && isRecord(delta.citation)) block.citations.push(delta.citation);
      return undefined;
    default:
      return undefined; // delta types added later carry nothing this adapter keeps
  }
}

/** What the finished blocks hold, in order: the parts of the response. */
export interface FoldedBlocks {
  text: string;
  toolCalls: ToolCall[];
  thinking: ThinkingBlock[];
  /** Text and server-tool blocks, for the hosted-tool evidence. */
  content: unknown[];
}

/** Folds the message's blocks, in order, into the parts of its response. */
export function foldBlocks(order: readonly Block[]): FoldedBlocks {
  const folded: FoldedBlocks = { text: '', toolCalls: [], thinking: [], content: [] };
  for (const block of order) {
    if (block.kind === 'text') {
      folded.text += block.text;
      folded.content.push({ type: 'text', text: block.text, citations: block.citations });
    } else if (block.kind === 'other')
      folded.content.push(
        block.input === '' ? block.raw : { ...block.raw, input: parsed(block.input) },
      );
    else if (block.kind === 'tool')
      folded.toolCalls.push({ id: block.id, name: block.name, args: toolArgs(block) });
    else if (block.kind === 'redacted') {
      if (block.data !== '') folded.thinking.push({ redacted: block.data });
    } else {
      const assembled = thinkingBlock(block.text, block.signature);
      if (assembled !== undefined) folded.thinking.push(assembled);
    }
  }
  return folded;
}

/** A server tool's streamed input: the parsed JSON, or the raw text when it does not parse. */
function parsed(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
