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

/** Decoders known not to read their context (the built-in text decoder). */
const CONTEXT_FREE = new WeakSet<OutputDecoder<unknown>>();

/** Marks a built-in decoder that never reads its `ctx`. Internal. */
export function contextFree<O>(decoder: OutputDecoder<O>): OutputDecoder<O> {
  CONTEXT_FREE.add(decoder);
  return decoder;
}

/** Whether `decoder` never reads its `ctx` (the engine then builds none). Internal. */
export function isContextFree<O>(decoder: OutputDecoder<O>): boolean {
  return CONTEXT_FREE.has(decoder);
}
