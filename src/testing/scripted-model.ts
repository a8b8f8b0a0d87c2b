import { throwIfCancelled } from '../core/errors/cancellation';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../core/contract/model';
import type { ModelRequest } from '../core/contract/request';
import type { ModelResponse } from '../core/contract/response';
import { cloneRequest, cloneResponse } from './deep-copy';
import { replayResponse, SCRIPTED_REPLAY } from './replay';
import { RecordingModel } from './request-log';

/**
 * Computes a scripted turn from the request. It receives a private deep copy of the request and
 * the call's options; it may throw (or reject) to fail the call.
 */
export type ScriptedResponder = (
  request: ModelRequest,
  options: GenerateOptions,
) => ModelResponse | Promise<ModelResponse>;

/**
 * One queued outcome of a {@link ScriptedModel}: a response to return, an error to throw (the
 * very same instance, so cause identity can be asserted), or a function computing the response.
 */
export type ScriptedOutcome = ModelResponse | Error | ScriptedResponder;

/** Options of a {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** The model's name, as used in errors and events; default `scripted`. */
  name?: string;
}

/**
 * A streaming model that plays a queue of outcomes in order, one per call, offline and
 * deterministically. It records a deep copy of every request it receives (see
 * {@link ScriptedModel.requests}), returns deep copies of the scripted responses, and fails with an
 * error mentioning `no queued outcome` when the queue is exhausted — it never blocks.
 *
 * A call made with an already-aborted signal rejects with `cancellationError(signal)` without
 * being recorded or consuming an outcome; a signal aborted while a function outcome runs or while
 * fragments replay rejects the same way.
 *
 * `stream` replays the response as fragments: one per thinking block (`{thinking: [{index, text,
 * signature}]}`), then one content fragment if the content is non-empty, then one per tool call
 * (`{toolCalls: [{index, id, name}]}`, no arguments). Each handler call is awaited; a handler error
 * stops the replay and is rethrown as-is; a null or undefined handler discards the fragments.
 *
 * @example
 * const model = new ScriptedModel([
 *   toolCallResponse([{ id: 'call-1', name: 'roll', args: { sides: 6 } }]),
 *   textResponse('You rolled a 4.'),
 * ]);
 */
export class ScriptedModel extends RecordingModel implements StreamingModel {
  private readonly queue: ScriptedOutcome[] = [];

  /** Creates a model that will play `outcomes` in order. */
  constructor(outcomes: Iterable<ScriptedOutcome> = [], options: ScriptedModelOptions = {}) {
    super(options.name ?? 'scripted');
    this.push(...outcomes);
  }

  /** Enqueues more outcomes after the ones still queued; returns the model for chaining. */
  push(...outcomes: ScriptedOutcome[]): this {
    outcomes.forEach((outcome, i) => {
      if (!isOutcome(outcome)) {
        throw new TypeError(
          `ScriptedModel "${this.name}": outcome ${this.queue.length + i} is not a ModelResponse, an Error or a function`,
        );
      }
    });
    this.queue.push(...outcomes);
    return this;
  }

  /** How many outcomes are still queued. */
  get remaining(): number {
    return this.queue.length;
  }

  /** Plays the next queued outcome. */
  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    return this.next(request, options);
  }

  /** Plays the next queued outcome and replays it to `onDelta` as fragments. */
  async stream(
    request: ModelRequest,
    onDelta: DeltaHandler | null | undefined,
    options: GenerateOptions = {},
  ): Promise<ModelResponse> {
    const response = await this.next(request, options);
    await replayResponse(response, onDelta, options.signal, SCRIPTED_REPLAY);
    return response;
  }

  private async next(request: ModelRequest, options: GenerateOptions): Promise<ModelResponse> {
    throwIfCancelled(options.signal);
    this.log.record(request);
    const call = this.log.count;
    const outcome = this.queue.shift();
    if (outcome === undefined) {
      throw new Error(
        `ScriptedModel "${this.name}": no queued outcome for call ${call}; ` +
          'queue more responses or errors with push(...)',
      );
    }
    if (typeof outcome === 'function') {
      const response = await outcome(cloneRequest(request), options);
      throwIfCancelled(options.signal);
      return cloneResponse(response);
    }
    if (isError(outcome)) throw outcome;
    return cloneResponse(outcome);
  }
}

function isError(value: unknown): value is Error {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

function isOutcome(value: unknown): value is ScriptedOutcome {
  if (typeof value === 'function' || isError(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const message = (value as { message?: unknown }).message;
  return typeof message === 'object' && message !== null;
}
