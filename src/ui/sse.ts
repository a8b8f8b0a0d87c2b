import { sseFrame, sseJson } from '../core/kit/sse';
import type { UIMessageChunk } from './chunk-types';
import type { UIEventSource, UIMessageStreamOptions } from './stream-options';
import { toUIMessageStream } from './to-ui-stream';
import type { AsyncIterableStream } from './iterable-stream';
import { iterableStream } from './iterable-stream';

/** The headers of a UI message stream response (SSE, protocol v1). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
});

/** One chunk as a server-sent event: `data: <json>\n\n`. */
export function formatUIMessageChunk(chunk: UIMessageChunk): string {
  return sseJson(chunk);
}

/** The protocol's last event, after the last chunk. */
export const UI_MESSAGE_STREAM_DONE = sseFrame('[DONE]') as 'data: [DONE]\n\n';

/** Options of the response helpers: the stream's options, plus the status and extra headers. */
export interface UIResponseOptions<Output = unknown> extends UIMessageStreamOptions<Output> {
  /** HTTP status; default 200. */
  status?: number;
  /** Extra headers, over the protocol's. */
  headers?: Record<string, string>;
}

/** What the response helpers accept: a run (`agent.runStream(…)`) or a chunk stream. */
export type UIStreamSource<Output = unknown> =
  UIEventSource<Output> | ReadableStream<UIMessageChunk>;

/** The chunk stream of a source. Internal. */
export function chunksOf<Output>(
  source: UIStreamSource<Output>,
  options: UIMessageStreamOptions<Output> | undefined,
): ReadableStream<UIMessageChunk> {
  return source instanceof ReadableStream ? source : toUIMessageStream(source, options);
}

/** The SSE text of a chunk stream, ending with `data: [DONE]`. */
export function toSseStream(chunks: ReadableStream<UIMessageChunk>): AsyncIterableStream<string> {
  const sse = chunks.pipeThrough(
    new TransformStream<UIMessageChunk, string>({
      transform(chunk, controller) {
        controller.enqueue(formatUIMessageChunk(chunk));
      },
      flush(controller) {
        controller.enqueue(UI_MESSAGE_STREAM_DONE);
      },
    }),
  );
  return iterableStream(sse);
}

/** The protocol's headers with `extra` over them. Internal. */
export function responseHeaders(extra: Record<string, string> | undefined): Record<string, string> {
  return { ...UI_MESSAGE_STREAM_HEADERS, ...(extra ?? {}) };
}

/**
 * A web `Response` streaming a run as the AI SDK UI message stream (SSE framing, `data: [DONE]`
 * at the end, `x-vercel-ai-ui-message-stream: v1`): return it from a fetch-style route handler
 * (Next.js, Hono, Bun, Deno). A client that goes away cancels the body, which stops the run.
 */
export function createUIMessageStreamResponse<Output>(
  source: UIStreamSource<Output>,
  options?: UIResponseOptions<Output>,
): Response {
  const body = toSseStream(chunksOf(source, options)).pipeThrough(new TextEncoderStream());
  return new Response(body, {
    status: options?.status ?? 200,
    headers: responseHeaders(options?.headers),
  });
}
