import type { Delta } from '../../core/contract/delta';
import { isRecord } from '../../core/kit/guards';
import type { Message, ToolCall } from '../../core/contract/message';
import { ModelProtocolError } from '../../core/errors/provider-errors';
import type { ModelResponse } from '../../core/contract/response';
import type { ThinkingBlock } from '../../core/contract/thinking';
import { stampBlock, stampCall } from '../shared/provenance';
import type { CallIdAllocator } from './call-ids';
import { normaliseFinishReason } from './finish-reason';
import { readGrounding } from './grounding';
import { ArgsAccumulator } from './partial-args';
import { GeminiUsage } from './usage';

interface OpenCall {
  index: number;
  call: ToolCall;
  args: ArgsAccumulator;
}

/**
 * Assembles a response from `GenerateContentResponse` objects: the single body of
 * `generateContent` or each chunk of `streamGenerateContent`, so both paths normalise alike.
 * `push` returns the deltas a chunk produced, in part order.
 *
 * - Only the first candidate counts. Non-thought text parts are concatenated (no separator).
 * - Consecutive `thought: true` parts form one thinking block; a signature on a thought part
 *   closes its block. A `thoughtSignature` on any other non-call part (the answer text, or the
 *   empty text part Gemini 3 sends last) attaches to the last thinking block when that has text
 *   and no signature yet, and otherwise becomes a signature-only block `{signature}`.
 * - `functionCall` parts become tool calls with ids from the {@link CallIdAllocator}, args as
 *   compact JSON text (`{}` when absent) and the part's `thoughtSignature` as `signature`. A
 *   whole call is one delta `{index, id, name, argsFragment}`; a Vertex streamed call
 *   (`willContinue`/`partialArgs`) is `{index, id, name}` first and `{index, argsFragment}`
 *   with the complete args when it ends (an empty `functionCall`, a fragment without
 *   `willContinue`, the next named call, or the finish reason).
 * - Thinking blocks and call signatures are stamped with the adapter's provider and configured
 *   model, the issuer they may be replayed to.
 * - A candidate's `groundingMetadata` (grounding with Google Search; the last one sent wins)
 *   becomes a hosted `web_search` call and `url` citations (see `readGrounding`).
 * - Usage is the last reported value of each `usageMetadata` field (see `GeminiUsage`: output
 *   counts candidates and thoughts; cached content and thoughts are also reported apart).
 * - `responseId` and `modelVersion` are taken from whichever chunk carries them.
 * - `finished` becomes true with the first `finishReason` or a `promptFeedback.blockReason`
 *   (a blocked prompt gets no candidates; it finishes as `content_filter`).
 */
export class ResponseAssembler {
  private text = '';
  private readonly blocks: ThinkingBlock[] = [];
  private thoughtOpen = false;
  private readonly calls: ToolCall[] = [];
  private open: OpenCall | undefined;
  private readonly tokens = new GeminiUsage();
  private responseId: string | undefined;
  private finishReason: string | undefined;
  private blocked = false;
  private modelVersion: string | undefined;
  private candidateSeen = false;
  /** The last `groundingMetadata` a candidate carried (grounding with Google Search). */
  private grounding: unknown;

  constructor(
    private readonly provider: string,
    private readonly model: string,
    private readonly ids: CallIdAllocator,
  ) {}

  /** Whether a finish reason (or a prompt block) arrived: the stream's end-of-response signal. */
  get finished(): boolean {
    return this.finishReason !== undefined || this.blocked;
  }

  /** Whether any chunk carried a candidate or a prompt block. */
  get answered(): boolean {
    return this.candidateSeen || this.blocked;
  }

  /** Applies one response object and returns the deltas it produced. */
  push(chunk: unknown): Delta[] {
    if (!isRecord(chunk)) throw this.protocol('a response is not a JSON object');
    if (typeof chunk.modelVersion === 'string' && chunk.modelVersion !== '')
      this.modelVersion = chunk.modelVersion;
    if (typeof chunk.responseId === 'string' && chunk.responseId !== '')
      this.responseId = chunk.responseId;
    this.tokens.read(chunk.usageMetadata);
    const feedback = chunk.promptFeedback;
    if (isRecord(feedback) && typeof feedback.blockReason === 'string') this.blocked = true;
    const deltas: Delta[] = [];
    const candidates = chunk.candidates;
    if (candidates !== undefined && !Array.isArray(candidates))
      throw this.protocol('candidates is not an array');
    const candidate: unknown = (candidates as unknown[] | undefined)?.[0];
    if (candidate === undefined) return deltas;
    if (!isRecord(candidate)) throw this.protocol('a candidate is not an object');
    this.candidateSeen = true;
    if (candidate.groundingMetadata !== undefined) this.grounding = candidate.groundingMetadata;
    const content = candidate.content;
    const parts = isRecord(content) ? content.parts : undefined;
    if (parts !== undefined && !Array.isArray(parts))
      throw this.protocol('content.parts is not an array');
    for (const part of (parts as unknown[] | undefined) ?? []) {
      if (!isRecord(part)) throw this.protocol('a content part is not an object');
      deltas.push(...this.part(part));
    }
    if (typeof candidate.finishReason === 'string' && candidate.finishReason !== '') {
      this.finishReason = candidate.finishReason;
      if (this.open !== undefined) deltas.push(this.closeOpenCall());
    }
    return deltas;
  }

  /** The normalised response (closing a streamed call left open). */
  result(): ModelResponse {
    if (this.open !== undefined) this.closeOpenCall();
    const message: Message = { role: 'assistant' };
    if (this.text !== '') message.content = this.text;
    const origin = { provider: this.provider, model: this.model };
    if (this.calls.length > 0)
      message.toolCalls = this.calls.map((call) => stampCall(call, origin));
    if (this.blocks.length > 0)
      message.thinking = this.blocks.map((block) => stampBlock(block, origin));
    const { hostedToolCalls, citations } = readGrounding(this.provider, this.grounding, this.text);
    if (hostedToolCalls.length > 0) message.hostedToolCalls = hostedToolCalls;
    if (citations.length > 0) message.citations = citations;
    const response: ModelResponse = {
      message,
      usage: this.tokens.usage(),
      modelName: this.modelVersion ?? this.model,
    };
    if (this.responseId !== undefined) response.responseId = this.responseId;
    if (this.finishReason !== undefined)
      response.finishReason = normaliseFinishReason(this.finishReason, this.calls.length > 0);
    else if (this.blocked) response.finishReason = 'content_filter';
    return response;
  }

  private protocol(message: string): ModelProtocolError {
    return new ModelProtocolError(this.provider, message);
  }

  private part(part: Record<string, unknown>): Delta[] {
    const signature =
      typeof part.thoughtSignature === 'string' && part.thoughtSignature !== ''
        ? part.thoughtSignature
        : undefined;
    if (part.functionCall !== undefined) {
      this.thoughtOpen = false;
      if (!isRecord(part.functionCall)) throw this.protocol('functionCall is not an object');
      return this.functionCall(part.functionCall, signature);
    }
    if (part.thought === true && typeof part.text === 'string')
      return this.thought(part.text, signature);
    this.thoughtOpen = false;
    const deltas: Delta[] = [];
    if (typeof part.text === 'string' && part.text !== '') {
      this.text += part.text;
      deltas.push({ content: part.text });
    }
    if (signature !== undefined) deltas.push(this.attachSignature(signature));
    return deltas;
  }

  private thought(text: string, signature: string | undefined): Delta[] {
    if (text === '' && signature === undefined) return [];
    let index = this.blocks.length - 1;
    const current = this.blocks[index];
    if (!this.thoughtOpen || current === undefined || current.signature !== undefined) {
      this.blocks.push({});
      index++;
    }
    const block = this.blocks[index] as ThinkingBlock;
    const fragment: { index: number; text?: string; signature?: string } = { index };
    if (text !== '') {
      block.text = (block.text ?? '') + text;
      fragment.text = text;
    }
    if (signature !== undefined) {
      block.signature = signature;
      fragment.signature = signature;
    }
    this.thoughtOpen = true;
    return [{ thinking: [fragment] }];
  }

  private attachSignature(signature: string): Delta {
    let index = this.blocks.length - 1;
    const last = this.blocks[index];
    if (last?.text !== undefined && last.signature === undefined) last.signature = signature;
    else {
      this.blocks.push({ signature });
      index++;
    }
    return { thinking: [{ index, signature }] };
  }

  private functionCall(fc: Record<string, unknown>, signature: string | undefined): Delta[] {
    const deltas: Delta[] = [];
    if (fc.args !== undefined && !isRecord(fc.args))
      throw this.protocol('functionCall.args is not an object');
    const name = typeof fc.name === 'string' && fc.name !== '' ? fc.name : undefined;
    if (name === undefined) {
      const open = this.open;
      if (open === undefined) {
        if (fc.args !== undefined || fc.partialArgs !== undefined)
          throw this.protocol('a functionCall without a name');
        return deltas;
      }
      if (signature !== undefined && open.call.signature === undefined)
        open.call.signature = signature;
      open.args.apply(fc.partialArgs);
      if (fc.willContinue !== true) deltas.push(this.closeOpenCall());
      return deltas;
    }
    if (this.open !== undefined) deltas.push(this.closeOpenCall());
    const providerId = typeof fc.id === 'string' ? fc.id : undefined;
    const call: ToolCall = { id: this.ids.next(name, providerId), name, args: '{}' };
    if (signature !== undefined) call.signature = signature;
    const index = this.calls.length;
    this.calls.push(call);
    const args = new ArgsAccumulator(this.provider, fc.args);
    args.apply(fc.partialArgs);
    if (fc.willContinue === true) {
      this.open = { index, call, args };
      deltas.push({ toolCalls: [{ index, id: call.id, name }] });
    } else {
      call.args = args.json();
      deltas.push({ toolCalls: [{ index, id: call.id, name, argsFragment: call.args }] });
    }
    return deltas;
  }

  private closeOpenCall(): Delta {
    const open = this.open as OpenCall;
    this.open = undefined;
    open.call.args = open.args.json();
    return { toolCalls: [{ index: open.index, argsFragment: open.call.args }] };
  }
}
