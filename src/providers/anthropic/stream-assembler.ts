import { isRecord } from '../../core/kit/guards';
import type { Delta } from '../../core/contract/delta';
import type { DeltaHandler } from '../../core/contract/model';
import type { ModelResponse } from '../../core/contract/response';
import { redact, redactCause } from '../../core/kit/redact';
import { STOP, type SseEvent, type SseVerdict } from '../shared/sse';
import type { ThinkingOrigin } from '../shared/provenance';
import type { ContextEdit } from '../../core/contract/response';
import { readContextEdits } from './context-management';
import { streamErrorEvent } from './errors';
import { readUsage, toResponse, type WireUsage } from './normalise';
import { readServerEvidence } from './server-tools';
import { preview, protocolError, toolArgs } from './stream-args';
import { applyDelta, foldBlocks, openBlock, openingDelta, type Block } from './stream-blocks';

/**
 * Folds the Messages API's stream events into deltas and the final response. The event type is
 * read from the payload's `type` (so streams without `event:` lines work), falling back to the
 * SSE event name. `ping` and unknown events are ignored; an `error` event throws a
 * `StreamInterruptedError`; malformed frames throw `ModelProtocolError`. The applied context edits
 * arrive in `message_delta`'s `context_management` (read as in `generate`). Delta indexes are
 * positions among the response's tool calls / thinking blocks, not the wire block index.
 */
export class StreamAssembler {
  private readonly blocks = new Map<number, Block>();
  private readonly order: Block[] = [];
  private readonly ordinals = { tools: 0, thoughts: 0 };
  private usage: WireUsage = {};
  private stopReason: unknown;
  /** Applied context edits, from `message_start` or (later, overriding) `message_delta`. */
  private contextEdits: ContextEdit[] | undefined;
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
        this.contextEdits = readContextEdits(message.context_management) ?? this.contextEdits;
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
        this.contextEdits = readContextEdits(payload.context_management) ?? this.contextEdits;
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
    const { text, toolCalls, thinking, content } = foldBlocks(this.order);
    return toResponse({
      text,
      toolCalls,
      thinking,
      usage: this.usage,
      stopReason: this.stopReason,
      model: this.head.model,
      id: this.head.id,
      origin: this.origin,
      contextEdits: this.contextEdits,
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
    const block = openBlock(cb, index, this.ordinals);
    this.blocks.set(index, block);
    this.order.push(block);
    const opening = openingDelta(block);
    if (opening !== undefined) await this.emit(opening);
  }

  private async delta(payload: Record<string, unknown>): Promise<void> {
    const block = this.block(payload);
    const delta = payload.delta;
    if (!isRecord(delta)) throw protocolError('content_block_delta has no delta object');
    const out = applyDelta(block, delta);
    if (out !== undefined) await this.emit(out);
  }

  private stop(payload: Record<string, unknown>): void {
    const block = this.block(payload);
    if (block.kind !== 'tool') return;
    block.stopped = true;
    toolArgs(block); // a finished call's input must be valid JSON: fail now, not later
  }
}
