import { throwIfCancelled } from '../core/errors/cancellation';
import type { Delta } from '../core/contract/delta';
import type { DeltaHandler, GenerateOptions, Model, StreamingModel } from '../core/contract/model';
import type { ModelRequest } from '../core/contract/request';
import type { ModelResponse } from '../core/contract/response';
import { cloneRequest, cloneResponse } from './deep-copy';
import { RecordingModel } from './request-log';

/** The body of a {@link FunctionModel}: computes one turn from the request. */
export type ModelFunction = (
  request: ModelRequest,
  options: GenerateOptions,
) => ModelResponse | Promise<ModelResponse>;

/** Sends one fragment to the stream's handler and waits for it; the handler's error propagates. */
export type Emit = (delta: Delta) => Promise<void>;

/** The body of a {@link StreamFunctionModel}: computes one turn, emitting fragments on the way. */
export type StreamModelFunction = (
  request: ModelRequest,
  emit: Emit,
  options: GenerateOptions,
) => ModelResponse | Promise<ModelResponse>;

/** Options of the function models. */
export interface FunctionModelOptions {
  /** The model's name, as used in errors and events; default `function`. */
  name?: string;
}

/**
 * Sends `delta` to `onDelta` and awaits it; a null or undefined handler discards the fragment.
 * A handler error propagates unchanged.
 */
export async function emit(onDelta: DeltaHandler | null | undefined, delta: Delta): Promise<void> {
  if (onDelta === null || onDelta === undefined) return;
  await onDelta(delta);
}

/**
 * A plain, deliberately non-streaming model whose turns are computed by a function — the double
 * for "a model that cannot stream". The function receives a private deep copy of the request and
 * the call's options (including the signal, which it is responsible for honouring once called);
 * its response is returned as a deep copy. Every request is recorded as a deep copy. A call made
 * with an already-aborted signal rejects with `cancellationError(signal)` without being recorded.
 */
export class FunctionModel extends RecordingModel implements Model {
  private readonly fn: ModelFunction;

  /** Wraps `fn`. */
  constructor(fn: ModelFunction, options: FunctionModelOptions = {}) {
    super(options.name ?? 'function');
    this.fn = fn;
  }

  /** Calls the function with a copy of the request. */
  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    throwIfCancelled(options.signal);
    this.log.record(request);
    return cloneResponse(await this.fn(cloneRequest(request), options));
  }
}

/**
 * A streaming model whose turns are computed by a function that emits fragments through the
 * `emit` it receives. `stream` forwards them to the handler (awaited, errors propagate as-is);
 * `generate` calls the same function with an `emit` that discards. Requests are recorded and
 * responses copied as in {@link FunctionModel}.
 */
export class StreamFunctionModel extends RecordingModel implements StreamingModel {
  private readonly fn: StreamModelFunction;

  /** Wraps `fn`. */
  constructor(fn: StreamModelFunction, options: FunctionModelOptions = {}) {
    super(options.name ?? 'function');
    this.fn = fn;
  }

  /** Calls the function with an `emit` that discards every fragment. */
  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    return this.run(request, undefined, options);
  }

  /** Calls the function with an `emit` that forwards fragments to `onDelta`. */
  async stream(
    request: ModelRequest,
    onDelta: DeltaHandler | null | undefined,
    options: GenerateOptions = {},
  ): Promise<ModelResponse> {
    return this.run(request, onDelta, options);
  }

  private async run(
    request: ModelRequest,
    onDelta: DeltaHandler | null | undefined,
    options: GenerateOptions,
  ): Promise<ModelResponse> {
    throwIfCancelled(options.signal);
    this.log.record(request);
    const forward: Emit = (delta) => emit(onDelta, delta);
    return cloneResponse(await this.fn(cloneRequest(request), forward, options));
  }
}
