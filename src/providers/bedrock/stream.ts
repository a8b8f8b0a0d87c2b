import type {
  ContentBlockDelta,
  ConverseStreamOutput,
  ReasoningContentBlockDelta,
  TokenUsage,
} from '@aws-sdk/client-bedrock-runtime';
import type { Delta } from '../../core/contract/delta';
import type { ToolCall } from '../../core/contract/message';
import { ModelProtocolError, StreamInterruptedError } from '../../core/errors/provider-errors';
import { compactJson } from '../../core/kit/raw-json';
import type { ModelResponse } from '../../core/contract/response';
import type { ThinkingBlock } from '../../core/contract/thinking';
import { assistantMessageOf, callId, finishReasonOf, redactedText, usageOf } from './response';
import { PROVIDER } from './sdk';

/** What a content block index of the stream turned out to be. */
type Slot = { kind: 'call'; index: number } | { kind: 'thinking'; index: number };

/**
 * Assembles ConverseStream events into golem deltas and the final response. `messageStop` is
 * the terminal signal (usage arrives after it in `metadata`); a stream that ends without it is a
 * `StreamInterruptedError`. Tool-call and thinking delta indexes are positions among the
 * response's calls and thinking blocks, not Bedrock content-block indexes.
 */
export class StreamAssembler {
  private text = '';
  private readonly calls: ToolCall[] = [];
  private readonly thinking: ThinkingBlock[] = [];
  private readonly redacted = new Map<number, Uint8Array[]>();
  private readonly slots = new Map<number, Slot>();
  private stopReason: string | undefined;
  private usage: TokenUsage | undefined;
  private stopped = false;
  private metadataSeen = false;

  constructor(private readonly modelId: string) {}

  /** Whether `messageStop` arrived. */
  get complete(): boolean {
    return this.stopped;
  }

  /** Whether the stream is over: `metadata` (final usage) followed `messageStop`. */
  get finished(): boolean {
    return this.stopped && this.metadataSeen;
  }

  /** Folds one event in and returns the delta to emit, if any. Unknown events are ignored. */
  accept(event: ConverseStreamOutput): Delta | undefined {
    if (event.contentBlockStart !== undefined) {
      const toolUse = event.contentBlockStart.start?.toolUse;
      if (toolUse === undefined) return undefined;
      const index = this.calls.length;
      const id = callId(toolUse.toolUseId, index);
      const name = toolUse.name ?? '';
      this.calls.push({ id, name, args: '' });
      this.slots.set(event.contentBlockStart.contentBlockIndex ?? 0, { kind: 'call', index });
      return { toolCalls: [{ index, id, name }] };
    }
    if (event.contentBlockDelta !== undefined) {
      const { delta, contentBlockIndex } = event.contentBlockDelta;
      return delta === undefined ? undefined : this.acceptDelta(delta, contentBlockIndex ?? 0);
    }
    if (event.messageStop !== undefined) {
      this.stopReason = event.messageStop.stopReason;
      this.stopped = true;
    } else if (event.metadata !== undefined) {
      this.usage = event.metadata.usage ?? this.usage;
      this.metadataSeen = true;
    }
    return undefined;
  }

  private acceptDelta(delta: ContentBlockDelta, block: number): Delta | undefined {
    if (delta.text !== undefined) {
      this.text += delta.text;
      return delta.text === '' ? undefined : { content: delta.text };
    }
    if (delta.toolUse !== undefined) {
      const slot = this.slots.get(block);
      if (slot?.kind !== 'call')
        throw new ModelProtocolError(
          PROVIDER,
          `tool input for content block ${block} arrived without its contentBlockStart`,
        );
      const fragment = delta.toolUse.input ?? '';
      const call = this.calls[slot.index] as ToolCall;
      call.args += fragment;
      return fragment === ''
        ? undefined
        : { toolCalls: [{ index: slot.index, argsFragment: fragment }] };
    }
    if (delta.reasoningContent !== undefined)
      return this.acceptReasoning(delta.reasoningContent, block);
    return undefined;
  }

  private acceptReasoning(delta: ReasoningContentBlockDelta, block: number): Delta | undefined {
    let slot = this.slots.get(block);
    if (slot === undefined) {
      slot = { kind: 'thinking', index: this.thinking.length };
      this.thinking.push({});
      this.slots.set(block, slot);
    } else if (slot.kind !== 'thinking') {
      throw new ModelProtocolError(
        PROVIDER,
        `reasoning for content block ${block}, which is a tool call`,
      );
    }
    const index = slot.index;
    const thinking = this.thinking[index] as ThinkingBlock;
    if (delta.text !== undefined) {
      thinking.text = (thinking.text ?? '') + delta.text;
      return delta.text === '' ? undefined : { thinking: [{ index, text: delta.text }] };
    }
    if (delta.signature !== undefined) {
      thinking.signature = (thinking.signature ?? '') + delta.signature;
      return delta.signature === ''
        ? undefined
        : { thinking: [{ index, signature: delta.signature }] };
    }
    if (delta.redactedContent !== undefined) {
      const pieces = this.redacted.get(index) ?? [];
      pieces.push(delta.redactedContent);
      this.redacted.set(index, pieces);
    }
    return undefined;
  }

  /** The canonical response; throws `StreamInterruptedError` when `messageStop` never came. */
  finish(): ModelResponse {
    if (!this.stopped)
      throw new StreamInterruptedError(PROVIDER, 'the event stream ended before messageStop');
    const thinking = this.thinking.map((block, index) => {
      const pieces = this.redacted.get(index);
      if (pieces !== undefined) return { redacted: redactedText(Buffer.concat(pieces)) };
      return block.signature === undefined || block.signature === ''
        ? { text: block.text ?? '' }
        : { text: block.text ?? '', signature: block.signature };
    });
    const toolCalls = this.calls.map((call) =>
      call.args.trim() === '' ? { ...call, args: '{}' } : { ...call, args: compactArgs(call.args) },
    );
    const response: ModelResponse = {
      message: assistantMessageOf({ text: this.text, toolCalls, thinking }, this.modelId),
      usage: usageOf(this.usage),
      modelName: this.modelId,
    };
    const finishReason = finishReasonOf(this.stopReason);
    if (finishReason !== undefined) response.finishReason = finishReason;
    return response;
  }
}

/**
 * The streamed input text without insignificant whitespace, so a streamed call equals the one
 * `generate` returns for the same content (Converse sends the input as a parsed document there).
 * Text that is not valid JSON is kept as sent: the engine reports it to the model.
 */
function compactArgs(text: string): string {
  try {
    return compactJson(text);
  } catch {
    return text;
  }
}
