/** A web `ReadableStream` that is also typed as async-iterable (`for await … of`). */
export type AsyncIterableStream<T> = ReadableStream<T> & AsyncIterable<T>;

/**
 * `stream`, typed as async-iterable; where the runtime's streams lack `Symbol.asyncIterator`, one
 * reading through a reader is added (stopping early cancels the stream). Internal.
 */
export function iterableStream<T>(stream: ReadableStream<T>): AsyncIterableStream<T> {
  if (Symbol.asyncIterator in stream) return stream as AsyncIterableStream<T>;
  return Object.assign(stream, {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      const reader = stream.getReader();
      return {
        next: async (): Promise<IteratorResult<T>> => {
          const next = await reader.read();
          if (next.done) reader.releaseLock();
          return next.done ? { done: true, value: undefined } : { done: false, value: next.value };
        },
        return: async (): Promise<IteratorResult<T>> => {
          await reader.cancel();
          return { done: true, value: undefined };
        },
      };
    },
  });
}
