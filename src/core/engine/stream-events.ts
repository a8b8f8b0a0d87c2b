import type { Delta, ToolCallDelta } from '../contract/delta';
import type { ToolCall } from '../contract/message';
import type { RunError } from './errors';
import type { HandoffEvent, ModelEndSucceeded, RunEvent } from './events';
import { notRunText, transferredText } from './handoff';
import type { Result } from './result';
import type { RunStreamEvent, TurnEndEvent } from './stream-event-types';

/** Where the builder puts the events it makes (an array, or a reader that may take one at once). */
export interface EventSink<Output> {
  push(event: RunStreamEvent<Output>): unknown;
}

/** A tool call being streamed in the current turn. */
interface StreamedCall {
  readonly callId: string;
  /** Unknown until a fragment names the tool; its events wait until then. */
  toolName: string | undefined;
  /** The arguments streamed so far. */
  args: string;
  /** Arguments that arrived before the name, sent with the start. */
  held: string;
  ended: boolean;
}

/** A failed attempt, reported as discarded if another attempt of the run follows. */
interface FailedAttempt {
  readonly turn: number;
  readonly attempt: number;
  readonly error: unknown;
}

/**
 * Turns a streaming run's deltas and observer events, in the order the run produced them, into
 * {@link RunStreamEvent}s: tool-call fragments are keyed by their per-turn index and carry the
 * call's id and name on every event; a model turn's end closes its calls with their complete
 * arguments; a failed attempt followed by another becomes `turn-discarded`. Internal.
 */
export class StreamEventBuilder<Output> {
  private turn = 0;
  private calls = new Map<number, StreamedCall>();
  /** The calls of the last committed turn (a handoff answers them). */
  private lastCalls: readonly ToolCall[] = [];
  private failed: FailedAttempt | undefined;

  /** Appends the events of one model fragment to `out`. */
  delta(delta: Delta, out: EventSink<Output>): void {
    const turn = this.turn;
    const thinking = delta.thinking;
    if (thinking !== undefined && Array.isArray(thinking))
      for (const block of thinking) {
        const text = (block as { text?: unknown } | null)?.text;
        if (typeof text === 'string' && text !== '')
          out.push({ type: 'thinking-delta', turn, text });
      }
    const content = delta.content;
    if (typeof content === 'string' && content !== '')
      out.push({ type: 'text-delta', turn, text: content });
    const calls = delta.toolCalls;
    if (calls !== undefined && Array.isArray(calls))
      for (const call of calls as unknown[])
        if (typeof call === 'object' && call !== null)
          this.callFragment(call as ToolCallDelta, out);
  }

  /** Appends the events a run event implies to `out` (most run events imply none). */
  event(event: RunEvent, out: EventSink<Output>): void {
    switch (event.kind) {
      case 'model_start':
        this.discardFailed(out);
        this.startTurn(event.turn, event.attempt, out);
        return;
      case 'fallback':
        // A FallbackModel member failed before sending anything; the next member answers.
        out.push({
          type: 'turn-discarded',
          turn: event.turn,
          attempt: event.attempt,
          error: event.error,
        });
        this.startTurn(event.turn, event.attempt, out);
        return;
      case 'model_end':
        if (event.message === undefined) {
          this.failed = { turn: event.turn, attempt: event.attempt, error: event.error };
          return;
        }
        this.endTurn(event, out);
        return;
      case 'tool_end': {
        const { turn, callId, toolName } = event;
        out.push(
          typeof event.result === 'string'
            ? { type: 'tool-result', turn, callId, toolName, result: event.result }
            : { type: 'tool-error', turn, callId, toolName, error: event.error },
        );
        return;
      }
      case 'tool_resolved': {
        const { turn, callId, toolName, result, resolution } = event;
        out.push({ type: 'tool-result', turn, callId, toolName, result, resolution });
        return;
      }
      case 'output_rejected':
        out.push({ type: 'correction', turn: this.turn, round: event.attempt, error: event.error });
        return;
      case 'handoff':
        this.handoff(event, out);
        return;
      default:
        return;
    }
  }

  /** Appends the last events of a run that ended with `result`: `deferred` (if paused), `finish`. */
  finish(result: Result<Output>, out: EventSink<Output>): void {
    if (result.pending !== undefined)
      out.push({ type: 'deferred', turn: this.turn, pending: result.pending });
    out.push({ type: 'finish', result });
  }

  /** Appends the last event of a run that failed. */
  fail(error: RunError, out: EventSink<Output>): void {
    out.push({ type: 'error', error });
  }

  private discardFailed(out: EventSink<Output>): void {
    const failed = this.failed;
    if (failed === undefined) return;
    this.failed = undefined;
    out.push({ type: 'turn-discarded', ...failed });
  }

  private startTurn(turn: number, attempt: number, out: EventSink<Output>): void {
    this.turn = turn;
    if (this.calls.size > 0) this.calls = new Map();
    out.push({ type: 'turn-start', turn, attempt });
  }

  private callFragment(fragment: ToolCallDelta, out: EventSink<Output>): void {
    const { index, id, name, argsFragment } = fragment;
    let call = this.calls.get(index);
    if (call === undefined) {
      call = {
        // The engine gives every call's first fragment its id; the fallback is for safety only.
        callId: typeof id === 'string' && id !== '' ? id : `golem_stream_${this.turn}_${index}`,
        toolName: undefined,
        args: '',
        held: '',
        ended: false,
      };
      this.calls.set(index, call);
    }
    const turn = this.turn;
    if (call.toolName === undefined && typeof name === 'string' && name !== '') {
      call.toolName = name;
      out.push({ type: 'tool-call-start', turn, callId: call.callId, toolName: name });
      if (call.held !== '') {
        out.push({ ...this.named(call, turn), type: 'tool-call-delta', argsDelta: call.held });
        call.held = '';
      }
    }
    if (typeof argsFragment !== 'string' || argsFragment === '') return;
    call.args += argsFragment;
    if (call.toolName === undefined) call.held += argsFragment;
    else out.push({ ...this.named(call, turn), type: 'tool-call-delta', argsDelta: argsFragment });
  }

  private named(call: StreamedCall, turn: number) {
    return { turn, callId: call.callId, toolName: call.toolName ?? '' };
  }

  /** The turn's calls got their results without running (the transfer's says where it went). */
  private handoff(event: HandoffEvent, out: EventSink<Output>): void {
    const { turn, from, to, callId } = event;
    for (const call of this.lastCalls) {
      const result = call.id === callId ? transferredText(to) : notRunText(to);
      out.push({ type: 'tool-result', turn, callId: call.id, toolName: call.name, result });
    }
    out.push({ type: 'handoff', turn, from, to, callId });
  }

  /** Closes the turn's calls (streamed or not) with the committed arguments, then `turn-end`. */
  private endTurn(event: ModelEndSucceeded, out: EventSink<Output>): void {
    const message = event.message;
    const turn = this.turn;
    const finals: readonly ToolCall[] = message.toolCalls ?? [];
    this.lastCalls = finals;
    for (const final of finals) {
      const call = this.matching(final.id);
      if (call === undefined || call.toolName === undefined)
        out.push({ type: 'tool-call-start', turn, callId: final.id, toolName: final.name });
      if (call !== undefined) call.ended = true;
      out.push({
        type: 'tool-call-end',
        turn,
        callId: final.id,
        toolName: final.name,
        args: final.args,
      });
    }
    // A streamed call the committed message does not hold (a provider that reassembled its calls).
    for (const call of this.calls.values())
      if (!call.ended && call.toolName !== undefined)
        out.push({ ...this.named(call, turn), type: 'tool-call-end', args: call.args });
    this.calls = new Map();
    const end: TurnEndEvent = {
      type: 'turn-end',
      turn,
      attempt: event.attempt,
      message,
      usage: event.usage,
    };
    if (event.finishReason !== undefined) end.finishReason = event.finishReason;
    out.push(end);
  }

  private matching(callId: string): StreamedCall | undefined {
    for (const call of this.calls.values()) if (call.callId === callId && !call.ended) return call;
    return undefined;
  }
}
