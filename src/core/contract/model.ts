import type { Delta } from './delta';
import type { ModelRequest } from './request';
import type { ModelResponse } from './response';

/**
 * A `FallbackModel` moving on from a failed member to the next one.
 * @inline
 */
export interface FallbackTransition {
  /** The name of the member that failed. */
  readonly from: string;
  /** The name of the member tried next. */
  readonly to: string;
  /** The 0-based position of `to` in the chain. */
  readonly index: number;
  /** Why `from` failed. */
  readonly error: unknown;
}

/**
 * Who a model call is for: set by the engine on every call of an agent with middleware (or whose
 * model was wrapped with `wrapModel`), so middleware can key limits and caches on the run's
 * owner, conversation or agent. Adapters ignore it.
 * @inline
 */
export interface CallScope {
  /** The agent's `name` (default `'agent'`). */
  readonly agent: string;
  /** The stored run's id, when the caller chose it. */
  readonly runId?: string | undefined;
  /** The run's `owner` option (a user or tenant), if any. */
  readonly owner?: string | undefined;
  /** The run's `conversation` option, if any. */
  readonly conversationId?: string | undefined;
  /** The 0-based turn of the run this call answers. */
  readonly turn: number;
  /** The 1-based attempt of that turn. */
  readonly attempt: number;
}

/** Options of one provider call. */
export interface GenerateOptions {
  /** Aborts the call; adapters must stop work and reject with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Told, synchronously, each time a `FallbackModel` (at any depth) moves to its next member;
   * exceptions it throws are ignored. The engine sets it when a run is observed (the `fallback`
   * run event) or priced. Adapters ignore it.
   */
  onFallback?: (transition: FallbackTransition) => void;
  /** Who the call is for (agent, runId, owner, conversation, turn, attempt); absent outside a run. */
  scope?: CallScope;
}

/** The provider port: one request in, one normalised response out. */
export interface Model {
  /** A human-readable identifier, e.g. `openai:gpt-4o-mini`, used in errors and events. */
  readonly name?: string;
  generate(request: ModelRequest, options?: GenerateOptions): Promise<ModelResponse>;
}

/** Receives stream fragments in arrival order; an async handler is awaited before reading on. */
export type DeltaHandler = (delta: Delta) => void | Promise<void>;

/** A model that can also stream. A handler error stops the stream and is rethrown as-is. */
export interface StreamingModel extends Model {
  stream(
    request: ModelRequest,
    onDelta: DeltaHandler,
    options?: GenerateOptions,
  ): Promise<ModelResponse>;
}

/** Whether `model` implements the streaming port. */
export function isStreamingModel(model: Model): model is StreamingModel {
  return typeof (model as Partial<StreamingModel>).stream === 'function';
}
