import type { Delta } from '../../core/contract/delta';
import { isRecord } from '../../core/kit/guards';
import { ModelProtocolError, StreamInterruptedError } from '../../core/errors/provider-errors';
import type { ModelResponse } from '../../core/contract/response';
import { redact } from '../../core/kit/redact';
import type { SseEvent } from '../shared/sse';
import { failureOf } from './errors';
import { PROVIDER } from './options';
import { parseResponse } from './output';

/** What the assembler knows about one output item, by `output_index`. */
interface ItemState {
  type: string;
  /** Position among the response's function calls (tool-call deltas' index). */
  call?: number;
  /** Position among its reasoning items (thinking deltas' index). */
  thought?: number;
}

/**
 * Folds the Responses API's typed stream events into deltas and the final response. The event
 * type is read from the payload's `type` (falling back to the SSE event name):
 * - `response.output_text.delta` / `response.refusal.delta` → `content`;
 * - `response.output_item.added` of a `function_call` → a tool-call delta with its `call_id` and
 *   name; `response.function_call_arguments.delta` → its argument fragments (by `output_index`);
 * - `response.reasoning_summary_text.delta` → thinking text (a blank line between summary parts,
 *   so the fragments spell the final block);
 * - `response.output_item.done` keeps the finished item;
 * - `response.completed` / `response.incomplete` end the stream: their `response` is parsed as a
 *   `generate` body (its `output`, or the items collected from `output_item.done` when the
 *   terminal event leaves it empty);
 * - `response.failed` and `error` throw `ResponseFailedError`; a frame that is not JSON throws
 *   `ModelProtocolError`; every other event (`response.created`, hosted tools' progress,
 *   annotations, `…done` events) carries nothing the deltas need.
 */
export class ResponsesStreamAssembler {
  private readonly items = new Map<number, ItemState>();
  private readonly finished = new Map<number, unknown>();
  private calls = 0;
  private thoughts = 0;
  private terminal: Record<string, unknown> | undefined;

  constructor(
    private readonly model: string,
    private readonly secrets: readonly string[],
  ) {}

  /** Whether the terminal event arrived: nothing after it is read. */
  get ended(): boolean {
    return this.terminal !== undefined;
  }

  /** The delta one event carries, or `undefined`; throws on failures and malformed frames. */
  push(event: SseEvent): Delta | undefined {
    if (this.terminal !== undefined) return undefined;
    const data = event.data.trim();
    if (data === '' || data === '[DONE]') return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      throw new ModelProtocolError(
        PROVIDER,
        `a stream event is not valid JSON: ${JSON.stringify(redact(data.slice(0, 120), this.secrets))}`,
      );
    }
    if (!isRecord(payload))
      throw new ModelProtocolError(PROVIDER, 'a stream event is not an object');
    const type = typeof payload.type === 'string' ? payload.type : event.event;
    switch (type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return typeof payload.delta === 'string' && payload.delta !== ''
          ? { content: payload.delta }
          : undefined;
      case 'response.output_item.added':
        return this.added(payload);
      case 'response.function_call_arguments.delta':
        return this.argsDelta(payload);
      case 'response.reasoning_summary_part.added':
        return this.summaryPart(payload);
      case 'response.reasoning_summary_text.delta':
        return this.summaryDelta(payload);
      case 'response.output_item.done':
        if (typeof payload.output_index === 'number')
          this.finished.set(payload.output_index, payload.item);
        return undefined;
      case 'response.completed':
      case 'response.incomplete':
        if (!isRecord(payload.response))
          throw new ModelProtocolError(PROVIDER, `${type} has no response object`);
        this.terminal = payload.response;
        return undefined;
      case 'response.failed':
        throw failureOf(payload.response, this.secrets);
      case 'error':
        throw failureOf(payload, this.secrets);
      default:
        return undefined;
    }
  }

  /**
   * The assembled response, the same `generate` returns for the same output. Throws
   * `StreamInterruptedError` when the stream ended before its terminal event.
   */
  finish(): ModelResponse {
    const terminal = this.terminal;
    if (terminal === undefined)
      throw new StreamInterruptedError(PROVIDER, 'the stream ended before response.completed');
    const output = terminal.output;
    const collected = [...this.finished.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, item]) => item);
    const complete =
      Array.isArray(output) && output.length > 0 ? terminal : { ...terminal, output: collected };
    return parseResponse(complete, this.model, this.secrets);
  }

  private item(payload: Record<string, unknown>): ItemState | undefined {
    return typeof payload.output_index === 'number'
      ? this.items.get(payload.output_index)
      : undefined;
  }

  private added(payload: Record<string, unknown>): Delta | undefined {
    const item = payload.item;
    if (typeof payload.output_index !== 'number' || !isRecord(item))
      throw new ModelProtocolError(
        PROVIDER,
        'response.output_item.added has no output_index or item',
      );
    const state: ItemState = { type: typeof item.type === 'string' ? item.type : '' };
    this.items.set(payload.output_index, state);
    if (state.type === 'reasoning') state.thought = this.thoughts++;
    if (state.type !== 'function_call') return undefined;
    state.call = this.calls++;
    if (typeof item.call_id !== 'string' || typeof item.name !== 'string')
      throw new ModelProtocolError(PROVIDER, 'a function_call item has no call_id or name');
    const delta = { index: state.call, id: item.call_id, name: item.name, argsFragment: '' };
    if (typeof item.arguments === 'string' && item.arguments !== '')
      delta.argsFragment = item.arguments;
    const { argsFragment, ...announced } = delta;
    return { toolCalls: [argsFragment === '' ? announced : delta] };
  }

  private argsDelta(payload: Record<string, unknown>): Delta | undefined {
    const state = this.item(payload);
    if (state?.call === undefined)
      throw new ModelProtocolError(
        PROVIDER,
        'function call arguments for an item that never started',
      );
    return typeof payload.delta === 'string' && payload.delta !== ''
      ? { toolCalls: [{ index: state.call, argsFragment: payload.delta }] }
      : undefined;
  }

  private summaryPart(payload: Record<string, unknown>): Delta | undefined {
    const state = this.item(payload);
    const index = payload.summary_index;
    if (state?.thought === undefined || typeof index !== 'number' || index < 1) return undefined;
    return { thinking: [{ index: state.thought, text: '\n\n' }] };
  }

  private summaryDelta(payload: Record<string, unknown>): Delta | undefined {
    const state = this.item(payload);
    if (state?.thought === undefined || typeof payload.delta !== 'string' || payload.delta === '')
      return undefined;
    return { thinking: [{ index: state.thought, text: payload.delta }] };
  }
}
