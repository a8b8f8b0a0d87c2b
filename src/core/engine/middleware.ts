import type { CallScope, DeltaHandler, GenerateOptions } from '../contract/model';
import type { ModelRequest } from '../contract/request';
import type { ModelResponse } from '../contract/response';
import type { ToolContext } from '../tool/context';

/**
 * One model call as a middleware sees it.
 * @inline
 */
export interface ModelCall {
  /** The wrapped model's name (`openai:gpt-4o-mini`…), when it has one. */
  readonly model: string | undefined;
  /** The request as it reaches this middleware (outer middleware may have changed it). */
  readonly request: ModelRequest;
  /** The call's options: its signal, and `scope` (who the call is for) inside a run. */
  readonly options: GenerateOptions | undefined;
}

/**
 * One streamed model call as a middleware sees it.
 * @inline
 */
export interface StreamCall extends ModelCall {
  /** Where this layer's fragments go (the caller's handler, or an outer middleware's). */
  readonly onDelta: DeltaHandler;
}

/**
 * One tool execution as a middleware sees it.
 * @inline
 */
export interface ToolInvocation {
  /** The tool's name. */
  readonly tool: string;
  /** The call's id. */
  readonly callId: string;
  /** The arguments, parsed from the model's JSON (before the tool's own validation). */
  readonly args: unknown;
  /** The context the tool receives (deps, signal, owner, conversation, approval…). */
  readonly ctx: ToolContext;
  /** Who the run is (agent, owner, conversation). */
  readonly scope: Omit<CallScope, 'turn' | 'attempt'>;
}

/**
 * A layer around model calls and tool executions. Every hook is optional; an agent's
 * `middleware` list (or `wrapModel(model, [...])`) runs them in order, the first outermost.
 *
 * - `request` changes the request of every call (generated or streamed).
 * - `generate` wraps a call: see and change the request (`next(changed)`), the response, the
 *   error; or answer without calling `next` (a cache hit). A middleware without `stream` wraps
 *   streamed calls with `generate` too: fragments pass straight through to the caller and
 *   `generate` sees the final response (an answer without `next` then streams no fragments).
 * - `stream` wraps a streamed call and its fragments: `next(request, handler)` with your own
 *   handler sees, changes, drops or adds fragments before calling `call.onDelta`.
 * - `tool` wraps each tool execution (after the approval check, inside the tool's deadline):
 *   see the arguments, the result text, the error; change them, or answer without `next`.
 *
 * What a middleware throws fails the call like a provider error: the engine retries it when it
 * is retryable, and otherwise fails the run at the `model` stage (`usage` for a
 * `UsageLimitError`, `tool` for a tool call) with its evidence. Events, deadlines and spans
 * stay outside the chain: `model_start` shows the engine's request, the `chat` span times the
 * whole chain.
 */
export interface Middleware {
  /** A name for errors and logs. */
  readonly name?: string;
  /** Returns the request to send instead of `request` (e.g. defaults, redaction). */
  request?(request: ModelRequest, call: ModelCall): ModelRequest | Promise<ModelRequest>;
  /** Wraps one call; `next` calls the next layer (the model last). */
  generate?(
    call: ModelCall,
    next: (request: ModelRequest) => Promise<ModelResponse>,
  ): Promise<ModelResponse>;
  /** Wraps one streamed call; `next` streams from the next layer into the handler given. */
  stream?(
    call: StreamCall,
    next: (request: ModelRequest, onDelta: DeltaHandler) => Promise<ModelResponse>,
  ): Promise<ModelResponse>;
  /** Wraps one tool execution; `next` runs the next layer (the tool last) with `args`. */
  tool?(call: ToolInvocation, next: (args: unknown) => Promise<string>): Promise<string>;
}
