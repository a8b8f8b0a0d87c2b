/**
 * The real AI SDK client side (the `ai` package, v6): parses the bytes Golem writes with the
 * protocol's own chunk schema and folds the chunks into a `UIMessage` with `readUIMessageStream`
 * — what `useChat` does in a browser.
 */
import {
  parseJsonEventStream,
  readUIMessageStream,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import type { RunStreamEvent } from '../../src/core/engine/stream-event-types';
import type { UIEventSource } from 'golem/ui';

/** Bytes of an SSE body → the chunks, each validated by the `ai` package's chunk schema. */
export async function parseSseBytes(body: ReadableStream<Uint8Array>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const parsed = parseJsonEventStream({ stream: body, schema: uiMessageChunkSchema });
  for (const result of await collect(parsed)) {
    if (!result.success)
      throw new Error(`chunk rejected by the ai schema: ${String(result.error)}`);
    chunks.push(result.value);
  }
  return chunks;
}

/** The SSE text as bytes. */
export function bytesOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
}

/**
 * Folds chunks into the final assistant message the way `useChat` does; `message` continues a
 * previous assistant message (a resumed run). Stream errors (an `error` chunk) are collected.
 */
export async function foldMessage(
  chunks: readonly UIMessageChunk[],
  message?: UIMessage,
): Promise<{ message: UIMessage | undefined; errors: string[]; snapshots: UIMessage[] }> {
  const errors: string[] = [];
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  const snapshots: UIMessage[] = [];
  const options = {
    stream,
    onError: (error: unknown) =>
      errors.push(error instanceof Error ? error.message : String(error)),
    ...(message === undefined ? {} : { message: structuredClone(message) }),
  };
  const reader = readUIMessageStream<UIMessage>(options).getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    last = next.value;
    snapshots.push(structuredClone(next.value));
  }
  return { message: last === undefined ? undefined : structuredClone(last), errors, snapshots };
}

/** A run source playing a fixed list of events. */
export function eventSource<Output>(events: RunStreamEvent<Output>[]): UIEventSource<Output> & {
  returned: () => boolean;
} {
  let returned = false;
  return {
    returned: () => returned,
    events: {
      [Symbol.asyncIterator]() {
        let i = 0;
        return {
          next: () =>
            Promise.resolve(
              i < events.length
                ? { done: false, value: events[i++] as RunStreamEvent<Output> }
                : { done: true, value: undefined },
            ),
          return: () => {
            returned = true;
            return Promise.resolve({ done: true, value: undefined });
          },
        };
      },
    },
  };
}

/** Everything a chunk stream yields. */
export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) return out;
    out.push(next.value);
  }
}
