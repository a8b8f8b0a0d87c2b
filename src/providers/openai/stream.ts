import type { Delta, ToolCallDelta } from '../../core/contract/delta';
import { isRecord } from '../../core/kit/guards';
import { ModelProtocolError, StreamInterruptedError } from '../../core/errors/provider-errors';
import type { ModelResponse } from '../../core/contract/response';
import type { Usage } from '../../core/contract/usage';
import { redact } from '../../core/kit/redact';
import type { SseEvent } from '../shared/sse';
import { embeddedError } from './errors';
import { argsText, assembleCall, assembleResponse, firstChoice, generatedCallId } from './response';
import { parseUsage } from './usage';

interface CallState {
  position: number;
  id: string;
  name: string;
  args: string;
}

/**
 * Assembles a streamed chat completion (`chat.completion.chunk` frames, then `data: [DONE]`).
 * `push` turns one server-sent event into the delta it carries (or `undefined`): reasoning
 * (`reasoning_content`), text, and tool-call fragments keyed by their `index` (by `id` when a
 * server omits the index; a fragment bringing a new id at a known index starts a new call). A
 * call's `id` and `name` are announced with its first fragment; its arguments are complete only
 * at the end of the stream. Usage and the model name are taken from whichever chunk carries them
 * (the final usage-only chunk has `choices: []`). `finish` returns the canonical response, the
 * same as `generate` would for the same content.
 */
export class ChatStreamAssembler {
  private content = '';
  private refusal = '';
  private reasoning = '';
  private readonly calls: CallState[] = [];
  private readonly keys = new Map<string, CallState>();
  private finishReason: unknown;
  private usage: Usage | undefined;
  private model: unknown;
  private id: unknown;
  private sawChoice = false;
  private done = false;

  /**
   * @param usageRequested whether the request asked for a final usage chunk
   *   (`stream_options.include_usage`): the response is then {@link settled} only once it came.
   */
  constructor(
    private readonly provider: string,
    private readonly secrets: readonly string[],
    private readonly usageRequested = false,
  ) {}

  /** Whether `data: [DONE]` arrived: the stream is over, nothing after it is read. */
  get ended(): boolean {
    return this.done;
  }

  /**
   * Whether the response is complete even without `data: [DONE]`: the finish reason arrived and,
   * when the request asked for it, the final usage chunk too. A connection cut after that loses
   * nothing.
   */
  get settled(): boolean {
    return (
      this.done ||
      (this.finishReason !== undefined && (!this.usageRequested || this.usage !== undefined))
    );
  }

  /** The delta carried by `event`; throws on error frames and malformed JSON. */
  push(event: SseEvent): Delta | undefined {
    if (this.done) return undefined;
    const data = event.data.trim();
    if (data === '') return undefined;
    if (data === '[DONE]') {
      this.done = true;
      return undefined;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch (cause) {
      if (event.event === 'error')
        throw embeddedError(this.provider, { error: { message: data } }, 'stream', this.secrets);
      throw new ModelProtocolError(
        this.provider,
        `a stream frame is not valid JSON: ${redact(data.length > 120 ? `${data.slice(0, 120)}…` : data, this.secrets)}`,
        { cause },
      );
    }
    if (event.event === 'error' || (isRecord(chunk) && isRecord(chunk.error)))
      throw embeddedError(this.provider, chunk, 'stream', this.secrets);
    if (!isRecord(chunk))
      throw new ModelProtocolError(this.provider, 'a stream frame is not a JSON object');
    if (typeof chunk.model === 'string' && chunk.model !== '') this.model = chunk.model;
    if (typeof chunk.id === 'string' && chunk.id !== '') this.id = chunk.id;
    if (isRecord(chunk.usage)) this.usage = parseUsage(chunk.usage);
    const choice = firstChoice(chunk.choices);
    if (choice === undefined) return undefined;
    this.sawChoice = true;
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    return isRecord(choice.delta) ? this.absorb(choice.delta) : undefined;
  }

  private absorb(wire: Record<string, unknown>): Delta | undefined {
    const delta: Delta = {};
    const { reasoning_content: reasoning, content, refusal } = wire;
    if (typeof reasoning === 'string' && reasoning !== '') {
      this.reasoning += reasoning;
      delta.thinking = [{ index: 0, text: reasoning }];
    }
    if (typeof content === 'string' && content !== '') {
      this.content += content;
      delta.content = content;
    }
    if (typeof refusal === 'string') this.refusal += refusal;
    if (Array.isArray(wire.tool_calls)) {
      const calls = wire.tool_calls.filter(isRecord).map((call) => this.absorbCall(call));
      if (calls.length > 0) delta.toolCalls = calls;
    }
    return Object.keys(delta).length > 0 ? delta : undefined;
  }

  private absorbCall(wire: Record<string, unknown>): ToolCallDelta {
    const id = typeof wire.id === 'string' ? wire.id : '';
    const key =
      typeof wire.index === 'number'
        ? `index:${wire.index}`
        : id !== ''
          ? `id:${id}`
          : `position:${Math.max(0, this.calls.length - 1)}`;
    const fn = isRecord(wire.function) ? wire.function : {};
    const fragment = argsText(fn.arguments);
    // An id seen before continues its call; a new id at a known index is a new call (some
    // compatible servers reuse index 0 for every call); no id continues the latest call there.
    const known = id === '' ? undefined : this.keys.get(`id:${id}`);
    let state = known ?? this.keys.get(key);
    if (known === undefined && state !== undefined && id !== '' && state.id !== '')
      state = undefined;
    const first = state === undefined;
    if (state === undefined) {
      state = { position: this.calls.length, id: '', name: '', args: '' };
      this.calls.push(state);
      this.keys.set(`position:${state.position}`, state);
    }
    this.keys.set(key, state);
    if (state.id === '' && id !== '') {
      state.id = id;
      this.keys.set(`id:${id}`, state);
    }
    if (state.name === '' && typeof fn.name === 'string') state.name = fn.name;
    state.args += fragment;
    const delta: ToolCallDelta = { index: state.position };
    if (first) {
      delta.id = state.id === '' ? generatedCallId(state.position) : state.id;
      delta.name = state.name;
    }
    if (fragment !== '') delta.argsFragment = fragment;
    return delta;
  }

  /**
   * The assembled response. Throws `StreamInterruptedError` when the stream ended before
   * `data: [DONE]` and before it was {@link settled} (it was cut short: nothing is executed from
   * partial arguments), and `ModelProtocolError` when no chunk carried a choice.
   */
  finish(): ModelResponse {
    if (!this.settled)
      throw new StreamInterruptedError(this.provider, 'the stream ended before "data: [DONE]"');
    if (!this.sawChoice)
      throw new ModelProtocolError(this.provider, 'the stream carried no choices');
    return assembleResponse({
      provider: this.provider,
      content: this.content,
      refusal: this.refusal,
      reasoning: this.reasoning,
      toolCalls: this.calls.map((c) =>
        assembleCall(this.provider, c.position, c.id, c.name, c.args),
      ),
      usage: this.usage ?? { inputTokens: 0, outputTokens: 0 },
      finishReason: this.finishReason,
      model: this.model,
      id: this.id,
    });
  }
}
