import { isRecord } from '../../model/guards';
import type { Delta } from '../../model/delta';
import type { DeltaHandler } from '../../model/model';
import { ModelProtocolError } from '../../model/provider-errors';
import type { ModelResponse } from '../../model/response';
import { redact, redactCause } from '../shared/redact';
import { STOP, type SseEvent, type SseVerdict } from '../shared/sse';
import type { ThinkingOrigin } from '../shared/provenance';
import { streamErrorEvent } from './errors';
import { readUsage, thinkingBlock, toResponse, type WireUsage } from './normalise';
import { PROVIDER } from './options';
import { readServerEvidence } from './server-tools';
import { preview, toolArgs } from './stream-args';

type Block =
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

function protocolError(message: string, cause?: unknown): ModelProtocolError {
  return new ModelProtocolError(PROVIDER, `stream: ${message}`, { cause });
}

function str(value: unknown, what: string): string {
  if (typeof value !== 'string') throw protocolError(`${what} is not a string`);
  return value;
}

/**
 * Folds the Messages API's stream events into deltas and the final response. The event type is
 * read from the payload's `type` (so streams without `event:` lines work), falling back to the
 * SSE event name. `ping` and unknown events are ignored; an `error` event throws a
 * `StreamInterruptedError`; malformed frames throw `ModelProtocolError`. Delta indexes are
 * positions among the response's tool calls / thinking blocks, not the wire block index.
 */
export class StreamAssembler {
  private readonly blocks = new Map<number, Block>();
  private readonly order: Block[] = [];
  private tools = 0;
  private thoughts = 0;
  private usage: WireUsage = {};
  private stopReason: unknown;
  /** The `model` and `id` of `message_start`. */
  private head: { model?: unknown; id?: unknown } = {};
  private done = false;
  private final = false;

  constructor(
    private readonly onDelta: DeltaHandler,
    private readonly secrets: readonly string[],
    /** Who produces the stream; its thinking blocks are stamped with it. */
    private readonly origin?: ThinkingOrigin,
  ) {}

  /**
   * Whether the response is complete: `message_stop` arrived, or a `message_delta` carried the
   * stop reason and the final usage — Anthropic's own SDKs finish on the same bytes, so a stream
   * cut after that point (EOF or a reset) completes instead of being interrupted.
   */
  get settled(): boolean {
    return this.done || this.final;
  }

  /**
   * Handles one SSE event, awaiting the delta handler before returning; returns `STOP` at
   * `message_stop`, the terminal event.
   */
  async onEvent(event: SseEvent): Promise<SseVerdict> {
    if (this.done) return STOP;
    let payload: unknown;
    try {
      payload = JSON.parse(event.data);
    } catch (cause) {
      const shown = redact(event.data, this.secrets);
      const safe = shown === event.data ? cause : redactCause(cause, this.secrets);
      throw protocolError(`a data frame is not valid JSON: ${preview(shown)}`, safe);
    }
    if (!isRecord(payload))
      throw protocolError(
        `a data frame is not an object: ${preview(redact(event.data, this.secrets))}`,
      );
    const type = typeof payload.type === 'string' ? payload.type : event.event;
    switch (type) {
      case 'message_start': {
        const message = isRecord(payload.message) ? payload.message : {};
        this.head = { model: message.model, id: message.id };
        this.usage = readUsage(message.usage, this.usage);
        return;
      }
      case 'content_block_start':
        return this.start(payload);
      case 'content_block_delta':
        return this.delta(payload);
      case 'content_block_stop':
        this.stop(payload);
        return;
      case 'message_delta': {
        const stopReason = isRecord(payload.delta) ? payload.delta.stop_reason : undefined;
        if (stopReason !== undefined) this.stopReason = stopReason;
        this.usage = readUsage(payload.usage, this.usage);
        if (typeof stopReason === 'string' && stopReason !== '' && isRecord(payload.usage))
          this.final = true;
        return;
      }
      case 'message_stop':
        this.done = true;
        return STOP;
      case 'error':
        throw streamErrorEvent(payload, this.secrets);
      default:
        return; // ping and event types added after this adapter was written
    }
  }

  /** The assembled response; the same `generate` returns for the same content. */
  response(): ModelResponse {
    let text = '';
    const toolCalls = [];
    const thinking = [];
    const content: unknown[] = []; // text and server-tool blocks, for the hosted-tool evidence
    for (const block of this.order) {
      if (block.kind === 'text') {
        text += block.text;
        content.push({ type: 'text', text: block.text, citations: block.citations });
      } else if (block.kind === 'other')
        content.push(block.input === '' ? block.raw : { ...block.raw, input: parsed(block.input) });
      else if (block.kind === 'tool')
        toolCalls.push({ id: block.id, name: block.name, args: toolArgs(block) });
      else if (block.kind === 'redacted') {
        if (block.data !== '') thinking.push({ redacted: block.data });
      } else {
        const assembled = thinkingBlock(block.text, block.signature);
        if (assembled !== undefined) thinking.push(assembled);
      }
    }
    return toResponse({
      text,
      toolCalls,
      thinking,
      usage: this.usage,
      stopReason: this.stopReason,
      model: this.head.model,
      id: this.head.id,
      origin: this.origin,
      ...readServerEvidence(content),
    });
  }

  private async emit(delta: Delta): Promise<void> {
    await this.onDelta(delta);
  }

  private index(payload: Record<string, unknown>): number {
    const index = payload.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0)
      throw protocolError(`${String(payload.type)} has no valid block index`);
    return index;
  }

  private block(payload: Record<string, unknown>): Block {
    const index = this.index(payload);
    const block = this.blocks.get(index);
    if (block === undefined)
      throw protocolError(`${String(payload.type)} for block ${index}, which never started`);
    return block;
  }

  private async start(payload: Record<string, unknown>): Promise<void> {
    const index = this.index(payload);
    if (this.blocks.has(index)) throw protocolError(`block ${index} started twice`);
    const cb = payload.content_block;
    if (!isRecord(cb)) throw protocolError(`content_block_start ${index} has no content_block`);
    const block = this.create(cb, index);
    this.blocks.set(index, block);
    this.order.push(block);
    if (block.kind === 'text' && block.text !== '') await this.emit({ content: block.text });
    if (block.kind === 'tool')
      await this.emit({ toolCalls: [{ index: block.ordinal, id: block.id, name: block.name }] });
    if (block.kind === 'thinking' && (block.text !== '' || block.signature !== '')) {
      const fragment: { index: number; text?: string; signature?: string } = {
        index: block.ordinal,
      };
      if (block.text !== '') fragment.text = block.text;
      if (block.signature !== '') fragment.signature = block.signature;
      await this.emit({ thinking: [fragment] });
    }
  }

  private create(cb: Record<string, unknown>, index: number): Block {
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
          ordinal: this.tools++,
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
          ordinal: this.thoughts++,
          text: str(cb.thinking ?? '', `${where} thinking`),
          signature: str(cb.signature ?? '', `${where} signature`),
        };
      case 'redacted_thinking':
        return { kind: 'redacted', ordinal: this.thoughts++, data: str(cb.data, `${where} data`) };
      default: // server tools (web search) and block types added later: kept for the evidence
        return { kind: 'other', raw: cb, input: '' };
    }
  }

  private async delta(payload: Record<string, unknown>): Promise<void> {
    const block = this.block(payload);
    const delta = payload.delta;
    if (!isRecord(delta)) throw protocolError('content_block_delta has no delta object');
    if (block.kind === 'other') {
      if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string')
        block.input += delta.partial_json; // a server tool's input (the search query)
      return;
    }
    const mismatch = (): ModelProtocolError =>
      protocolError(`a ${String(delta.type)} arrived for a ${block.kind} block`);
    switch (delta.type) {
      case 'text_delta': {
        if (block.kind !== 'text') throw mismatch();
        const text = str(delta.text, 'text_delta.text');
        block.text += text;
        if (text !== '') await this.emit({ content: text });
        return;
      }
      case 'input_json_delta': {
        if (block.kind !== 'tool') throw mismatch();
        const fragment = str(delta.partial_json, 'input_json_delta.partial_json');
        block.args += fragment;
        if (fragment !== '')
          await this.emit({ toolCalls: [{ index: block.ordinal, argsFragment: fragment }] });
        return;
      }
      case 'thinking_delta': {
        if (block.kind !== 'thinking') throw mismatch();
        const text = str(delta.thinking, 'thinking_delta.thinking');
        block.text += text;
        if (text !== '') await this.emit({ thinking: [{ index: block.ordinal, text }] });
        return;
      }
      case 'signature_delta': {
        if (block.kind !== 'thinking') throw mismatch();
        const signature = str(delta.signature, 'signature_delta.signature');
        block.signature += signature;
        if (signature !== '') await this.emit({ thinking: [{ index: block.ordinal, signature }] });
        return;
      }
      case 'citations_delta':
        if (block.kind === 'text' && isRecord(delta.citation)) block.citations.push(delta.citation);
        return;
      default:
        return; // delta types added later carry nothing this adapter keeps
    }
  }

  private stop(payload: Record<string, unknown>): void {
    const block = this.block(payload);
    if (block.kind !== 'tool') return;
    block.stopped = true;
    toolArgs(block); // a finished call's input must be valid JSON: fail now, not later
  }
}

/** A server tool's streamed input: the parsed JSON, or the raw text when it does not parse. */
function parsed(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
