import type { UIMessageChunk } from './chunk-types';
import type { Continuation } from './chunk-mapper';
import type { ChunkReader } from './chunk-source';
import { ChunkSource } from './chunk-source';
import type { UIEventSource, UIMessageStreamOptions } from './stream-options';
import type { AsyncIterableStream } from './iterable-stream';
import type { Claim } from './pull-stream';
import { claimStream, pullStream, sourceOf } from './pull-stream';

/**
 * Claims a chunk stream (see `claimStream`) with its chunk source; `undefined` for any other
 * stream, or a chunk stream already read through its queue or ended. Internal.
 */
export function claimChunks(stream: ReadableStream<UIMessageChunk>): ChunkClaim | undefined {
  if (!(sourceOf(stream) instanceof ChunkSource)) return undefined;
  return claimStream(stream) as ChunkClaim | undefined;
}

/** A claim of a chunk source (a run's, or a chunk stream's). Internal. */
export interface ChunkClaim extends Claim<UIMessageChunk> {
  readonly source: ChunkReader;
}

/**
 * A web `ReadableStream` of AI SDK UI message chunks (protocol v1) from a streaming run: `start`
 * (with the message id), a step per model turn, text and reasoning parts, tool parts from their
 * first argument fragment to their output or error, approval requests when a pausable run pauses,
 * and `finish` with Golem's message metadata (`runId`, `usage`, `pending`) — or, for a failed
 * run, an `error` chunk (the stage, never a secret) then `finish`. Cancelling the stream (a client
 * that went away) stops the run; its evidence is kept on the run's result or error. Iterating it
 * with `for await` reads the run's chunks directly, without a queue per chunk.
 *
 * @example
 * const chunks = toUIMessageStream(agent.runStream('Hello'));
 */
export function toUIMessageStream<Output>(
  run: UIEventSource<Output>,
  options?: UIMessageStreamOptions<Output>,
): AsyncIterableStream<UIMessageChunk> {
  return chunkStream(run, options, undefined);
}

/** `toUIMessageStream` for a resumed run (the chat helpers). Internal. */
export function chunkStream<Output>(
  run: UIEventSource<Output>,
  options: UIMessageStreamOptions<Output> | undefined,
  continuation: Continuation | undefined,
): AsyncIterableStream<UIMessageChunk> {
  return pullStream(new ChunkSource(run, options, continuation));
}
