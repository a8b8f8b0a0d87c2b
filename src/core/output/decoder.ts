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
