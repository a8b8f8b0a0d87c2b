import type { RunStreamEvent } from '../core/engine/stream-event-types';
import type { UIMessageChunk } from './chunk-types';
import type { Continuation } from './chunk-mapper';
import { ChunkMapper } from './chunk-mapper';
import type { UIEventSource, UIMessageStreamOptions } from './stream-options';
import { resolveStreamOptions } from './stream-options';
import type { AsyncIterableStream } from './iterable-stream';
import { iterableStream } from './iterable-stream';

/**
 * A web `ReadableStream` of AI SDK UI message chunks (protocol v1) from a streaming run: `start`
 * (with the message id), a step per model turn, text and reasoning parts, tool parts from their
 * first argument fragment to their output or error, approval requests when a pausable run pauses,
 * and `finish` with Golem's message metadata (`runId`, `usage`, `pending`) — or, for a failed
 * run, an `error` chunk (the stage, never a secret) then `finish`. Cancelling the stream (a client
 * that went away) stops the run; its evidence is kept on the run's result or error.
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
  const mapper = new ChunkMapper<Output>(resolveStreamOptions(options), continuation);
  let events: AsyncIterator<RunStreamEvent<Output>> | undefined;
  let ended = false;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of mapper.start()) controller.enqueue(chunk);
    },
    async pull(controller) {
      events ??= run.events[Symbol.asyncIterator]();
      for (;;) {
        let step: IteratorResult<RunStreamEvent<Output>>;
        try {
          step = await events.next();
        } catch (error) {
          // The run could not start (a run failure arrives as an `error` event instead).
          for (const chunk of mapper.rejected(error)) controller.enqueue(chunk);
          controller.close();
          return;
        }
        if (step.done === true) {
          if (!ended) for (const chunk of mapper.interrupted()) controller.enqueue(chunk);
          controller.close();
          return;
        }
        const chunks = mapper.map(step.value);
        if (step.value.type === 'finish' || step.value.type === 'error') ended = true;
        for (const chunk of chunks) controller.enqueue(chunk);
        if (chunks.length > 0) return;
      }
    },
    async cancel() {
      // Stopping the event iteration stops the run (its evidence is kept on its error).
      events ??= run.events[Symbol.asyncIterator]();
      await events.return?.();
    },
  });
  return iterableStream(stream);
}
