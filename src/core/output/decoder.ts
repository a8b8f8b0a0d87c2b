import type { ModelResponse } from '../contract/response';

/** What a decoder receives about the run. */
export interface DecodeContext {
  /** The run's cancellation signal. */
  readonly signal: AbortSignal;
  /** The run's dependency value. */
  readonly deps: unknown;
}

/**
 * Turns the final response into the typed output. Throw `ModelRetry` for a correctable rejection
 * (fed back within `outputRetries`); any other error fails the run at the `decode` stage.
 */
export type OutputDecoder<O> = (response: ModelResponse, ctx: DecodeContext) => O | Promise<O>;

/**
 * The mark of a built-in decoder known not to read its context (the text and JSON decoders): a
 * property under a module-private symbol, read per run at the cost of a property load (a
 * `WeakSet` lookup hashes the function every run).
 */
const CONTEXT_FREE: unique symbol = Symbol('golem.contextFree');

/** Marks a built-in decoder that never reads its `ctx`. Internal. */
export function contextFree<O>(decoder: OutputDecoder<O>): OutputDecoder<O> {
  Object.defineProperty(decoder, CONTEXT_FREE, { value: true });
  return decoder;
}

/** Whether `decoder` never reads its `ctx` (the engine then builds none). Internal. */
export function isContextFree<O>(decoder: OutputDecoder<O>): boolean {
  return (decoder as { [CONTEXT_FREE]?: boolean })[CONTEXT_FREE] === true;
}
