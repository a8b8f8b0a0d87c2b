import type { RunError } from '../core/engine/errors';
import type { Result } from '../core/engine/result';
import type { PendingToolCall } from '../core/engine/deferred-types';
import type { RunStreamEvent, TurnEndEvent } from '../core/engine/stream-event-types';
import type { Message } from '../core/contract/message';
import type { UIMessageChunk } from './chunk-types';
import { failedFinishChunk, finishChunk, parseArgs } from './finish-chunks';
import { DISCARDED_PART, HANDOFF_PART } from './chunk-types';
import type { ResolvedStreamOptions } from './stream-options';

/**
 * What a resumed run's stream must know about the calls the client resolved: denied calls end as
 * `output-denied` parts at once, external results are already on the client (their resolution
 * events add nothing), approved calls get their output when they re-run. Without it (a resumed
 * run stream passed to `toUIMessageStream`), resolution events alone end denied and external
 * calls' parts. Internal.
 */
export interface Continuation {
  approved: readonly string[];
  denied: readonly string[];
  external: readonly string[];
}

type CallState = 'streaming' | 'available' | 'settled';

/** Where the mapper puts the chunks it makes, in order (an array will do). Internal. */
export interface ChunkSink {
  push(chunk: UIMessageChunk): unknown;
}

/**
 * Turns a run's typed events into UI message chunks: steps per model turn, one text or reasoning
 * part per uninterrupted run of fragments, tool parts from the first fragment to their outcome,
 * approval requests for a paused run, and `finish` (or `error`) with the message metadata.
 * Internal; `toUIMessageStream` drives it.
 */
export class ChunkMapper<Output> {
  private stepOpen = false;
  private textId: string | undefined;
  private reasoningId: string | undefined;
  private partSeq = 0;
  private readonly calls = new Map<string, CallState>();
  private readonly quiet: Set<string>;
  private readonly awaitingOutput: Set<string>;
  private lastFinish: string | undefined;

  constructor(
    private readonly options: ResolvedStreamOptions<Output>,
    private readonly continuation?: Continuation,
  ) {
    this.quiet = new Set([...(continuation?.denied ?? []), ...(continuation?.external ?? [])]);
    this.awaitingOutput = new Set(continuation?.approved ?? []);
  }

  /** Adds the chunks that open the message to `out`: `start`, then the denials of a resumed run. */
  start(out: ChunkSink): void {
    const metadata = this.options.messageMetadata?.({ type: 'start' });
    const start: UIMessageChunk = { type: 'start', messageId: this.options.messageId };
    if (metadata !== undefined) start.messageMetadata = metadata;
    out.push(start);
    for (const toolCallId of this.continuation?.denied ?? [])
      out.push({ type: 'tool-output-denied', toolCallId });
  }

  /**
   * Adds the chunks for one event to `out` (the caller's buffer, reused: no array per event).
   * Returns whether the event ends the run (`finish` or `error`).
   */
  map(event: RunStreamEvent<Output>, out: ChunkSink): boolean {
    switch (event.type) {
      case 'turn-start':
        this.closeStep(out);
        out.push({ type: 'start-step' });
        this.stepOpen = true;
        break;
      case 'turn-discarded':
        this.closeParts(out);
        out.push({ type: DISCARDED_PART, data: { turn: event.turn, attempt: event.attempt } });
        this.closeStep(out);
        break;
      case 'text-delta':
        this.textDelta(event.text, out);
        break;
      case 'thinking-delta':
        if (this.options.sendReasoning && event.text !== '') this.reasoning(out, event.text);
        break;
      case 'tool-call-start':
        this.callStart(out, event.callId, event.toolName);
        break;
      case 'tool-call-delta':
        this.callStart(out, event.callId, event.toolName);
        if (event.argsDelta !== '' && this.calls.get(event.callId) === 'streaming')
          out.push({
            type: 'tool-input-delta',
            toolCallId: event.callId,
            inputTextDelta: event.argsDelta,
          });
        break;
      case 'tool-call-end':
        this.callEnd(out, event.callId, event.toolName, event.args);
        break;
      case 'turn-end':
        this.turnEnd(out, event);
        break;
      case 'tool-result':
        this.output(
          out,
          event.callId,
          event.resolution === 'denied'
            ? { type: 'tool-output-denied' }
            : { type: 'tool-output-available', output: event.result },
        );
        break;
      case 'tool-error': {
        const call = { callId: event.callId, toolName: event.toolName };
        const errorText = this.options.toolErrorText(event.error, call);
        this.output(out, event.callId, { type: 'tool-output-error', errorText });
        break;
      }
      case 'correction':
        this.closeParts(out);
        break;
      case 'handoff':
        // A part the UI can show ("Transferred to billing"); the next step is the target's.
        this.closeParts(out);
        out.push({
          type: HANDOFF_PART,
          data: { from: event.from, to: event.to, callId: event.callId },
        });
        break;
      case 'deferred':
        this.closeParts(out);
        for (const call of event.pending.approvals) {
          this.ensureCall(out, call);
          out.push({
            type: 'tool-approval-request',
            approvalId: call.callId,
            toolCallId: call.callId,
          });
        }
        for (const call of event.pending.external) this.ensureCall(out, call);
        break;
      case 'finish':
        this.finish(out, event.result);
        return true;
      case 'error':
        this.fail(out, event.error);
        return true;
    }
    return false;
  }

  /** Adds the chunks of one answer text fragment (a `text-delta` event's) to `out`. */
  textDelta(text: string, out: ChunkSink): void {
    const id = this.textId;
    // The hot path: one more fragment of the open text part.
    if (id !== undefined) {
      if (text !== '') out.push({ type: 'text-delta', id, delta: text });
    } else if (text !== '') this.text(out, text);
  }

  /** Adds the chunks for a run that could not start or whose event stream broke (`error`, `finish`). */
  rejected(error: unknown, out: ChunkSink): void {
    this.closeStep(out);
    out.push({ type: 'error', errorText: this.options.errorText(error) });
    out.push({ type: 'finish', finishReason: 'error', messageMetadata: { pending: null } });
  }

  /** Adds the chunks that end a stream whose events stopped without `finish` or `error`. */
  interrupted(out: ChunkSink): void {
    this.closeStep(out);
    out.push({ type: 'abort', reason: 'the run stopped before it ended' });
  }

  private nextId(kind: string): string {
    this.partSeq += 1;
    return `${kind}-${this.partSeq}`;
  }

  private text(out: ChunkSink, delta: string): void {
    this.closeReasoning(out);
    if (this.textId === undefined) {
      this.textId = this.nextId('text');
      out.push({ type: 'text-start', id: this.textId });
    }
    out.push({ type: 'text-delta', id: this.textId, delta });
  }

  private reasoning(out: ChunkSink, delta: string): void {
    this.closeText(out);
    if (this.reasoningId === undefined) {
      this.reasoningId = this.nextId('reasoning');
      out.push({ type: 'reasoning-start', id: this.reasoningId });
    }
    out.push({ type: 'reasoning-delta', id: this.reasoningId, delta });
  }

  private closeText(out: ChunkSink): void {
    if (this.textId === undefined) return;
    out.push({ type: 'text-end', id: this.textId });
    this.textId = undefined;
  }

  private closeReasoning(out: ChunkSink): void {
    if (this.reasoningId === undefined) return;
    out.push({ type: 'reasoning-end', id: this.reasoningId });
    this.reasoningId = undefined;
  }

  private closeParts(out: ChunkSink): void {
    this.closeText(out);
    this.closeReasoning(out);
  }

  private closeStep(out: ChunkSink): void {
    this.closeParts(out);
    if (this.stepOpen) out.push({ type: 'finish-step' });
    this.stepOpen = false;
  }

  private callStart(out: ChunkSink, callId: string, toolName: string): void {
    if (this.calls.has(callId) || this.quiet.has(callId)) return;
    this.closeParts(out);
    this.calls.set(callId, 'streaming');
    out.push({ type: 'tool-input-start', toolCallId: callId, toolName });
  }

  private callEnd(out: ChunkSink, callId: string, toolName: string, args: string): void {
    const state = this.calls.get(callId);
    if (state === 'available' || state === 'settled' || this.quiet.has(callId)) return;
    this.closeParts(out);
    this.calls.set(callId, 'available');
    const input = parseArgs(args);
    if (input.ok)
      out.push({ type: 'tool-input-available', toolCallId: callId, toolName, input: input.value });
    else {
      this.calls.set(callId, 'settled');
      const errorText = `The arguments of tool "${toolName}" are not valid JSON.`;
      out.push({ type: 'tool-input-error', toolCallId: callId, toolName, input: args, errorText });
    }
  }

  private ensureCall(out: ChunkSink, call: PendingToolCall): void {
    this.callEnd(out, call.callId, call.toolName, call.args);
  }

  private turnEnd(out: ChunkSink, event: TurnEndEvent): void {
    this.closeParts(out);
    for (const call of event.message.toolCalls ?? [])
      this.callEnd(out, call.id, call.name, call.args);
    this.lastFinish = event.finishReason;
  }

  private output(
    out: ChunkSink,
    callId: string,
    chunk:
      | { type: 'tool-output-available'; output: string }
      | { type: 'tool-output-error'; errorText: string }
      | { type: 'tool-output-denied' },
  ): void {
    if (this.quiet.has(callId)) return;
    this.closeParts(out);
    this.calls.set(callId, 'settled');
    this.awaitingOutput.delete(callId);
    if (chunk.type === 'tool-output-available')
      out.push({ type: chunk.type, toolCallId: callId, output: chunk.output });
    else if (chunk.type === 'tool-output-error')
      out.push({ type: chunk.type, toolCallId: callId, errorText: chunk.errorText });
    else out.push({ type: chunk.type, toolCallId: callId });
  }

  /** Outputs of approved calls whose re-run the events did not report, from the evidence. */
  private lateOutputs(out: ChunkSink, messages: readonly Message[] | undefined): void {
    for (const message of messages ?? []) {
      const id = message.toolCallId;
      if (message.role !== 'tool' || id === undefined || !this.awaitingOutput.has(id)) continue;
      this.output(out, id, { type: 'tool-output-available', output: message.content ?? '' });
    }
  }

  private finish(out: ChunkSink, result: Result<Output>): void {
    this.closeStep(out);
    this.lateOutputs(out, result.messages);
    const extra = this.options.messageMetadata?.({ type: 'finish', result });
    out.push(finishChunk(result, this.lastFinish, extra));
  }

  private fail(out: ChunkSink, error: RunError): void {
    this.closeStep(out);
    this.lateOutputs(out, error.partial?.messages);
    out.push({ type: 'error', errorText: this.options.errorText(error) });
    const extra = this.options.messageMetadata?.({ type: 'error', error });
    out.push(failedFinishChunk(error, extra));
  }
}
