import { sseFrame, sseJson } from '../core/kit/sse';
import type { UIMessageChunk } from './chunk-types';
import type { UIEventSource, UIMessageStreamOptions } from './stream-options';
import type { ChunkReader } from './chunk-source';
import { ChunkSource } from './chunk-source';
import type { ChunkClaim } from './to-ui-stream';
import { claimChunks, toUIMessageStream } from './to-ui-stream';
import type { Failure, Puller } from './pull-stream';
import { pullStream } from './pull-stream';
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

/**
 * The chunks of a source to read directly: a run's, or those of a `golem/ui` chunk stream whose
 * queue was never read (the stream is locked, as piping it would lock it); `undefined` for any
 * other stream. Throws TypeError for a locked stream. Internal.
 */
export function directChunks<Output>(
  source: UIStreamSource<Output>,
  options: UIMessageStreamOptions<Output> | undefined,
): ChunkClaim | undefined {
  if (source instanceof ReadableStream) return claimChunks(source);
  const chunks: ChunkReader = new ChunkSource(source, options, undefined);
  return { source: chunks, end: () => undefined, cancel: (reason) => chunks.cancel(reason) };
}

/**
 * The SSE frames of a chunk source — one per chunk, then `data: [DONE]` (not after a cancel) —
 * as text or as bytes. Internal.
 */
class SseSource<T> implements Puller<T> {
  ended: ((failure: Failure) => void) | undefined;
  private readonly chunks: ChunkReader;
  /** `[DONE]` was handed out, or is not to be (cancelled). */
  private last = false;
  private enqueue: (value: T) => void = () => undefined;

  constructor(
    private readonly claim: ChunkClaim,
    private readonly encode: (text: string) => T,
  ) {
    const chunks = claim.source;
    this.chunks = chunks;
    // A failure of the chunks is this stream's failure too.
    const chunksEnded = chunks.ended;
    chunks.ended = (failure) => {
      chunksEnded?.(failure);
      if (failure !== undefined) this.tell(failure);
    };
  }

  take(): T | undefined {
    const chunk = this.chunks.take();
    return chunk === undefined ? undefined : this.encode(formatUIMessageChunk(chunk));
  }

  next(): Promise<IteratorResult<T, undefined>> {
    return this.chunks.read(this.frame, this.lastFrame);
  }

  fill(enqueue: (value: T) => void): Promise<void> {
    this.enqueue = enqueue;
    return this.chunks.read(this.enqueueFrames, this.enqueueLast);
  }

  cancel(reason: unknown): Promise<void> {
    this.last = true;
    return this.claim.cancel(reason);
  }

  /** Tells `ended`, once. */
  private tell(failure: Failure): void {
    const ended = this.ended;
    this.ended = undefined;
    ended?.(failure);
  }

  private readonly frame = (chunk: UIMessageChunk): IteratorResult<T, undefined> => ({
    value: this.encode(formatUIMessageChunk(chunk)),
    done: false,
  });

  private readonly lastFrame = (): IteratorResult<T, undefined> => {
    if (this.last) {
      this.tell(undefined);
      return { value: undefined, done: true };
    }
    this.last = true;
    return { value: this.encode(UI_MESSAGE_STREAM_DONE), done: false };
  };

  private readonly enqueueFrames = (chunk: UIMessageChunk): void => {
    const enqueue = this.enqueue;
    const encode = this.encode;
    enqueue(encode(formatUIMessageChunk(chunk)));
    for (let next = this.chunks.take(); next !== undefined; next = this.chunks.take())
      enqueue(encode(formatUIMessageChunk(next)));
  };

  private readonly enqueueLast = (): void => {
    if (!this.last) {
      this.last = true;
      this.enqueue(this.encode(UI_MESSAGE_STREAM_DONE));
    }
    this.tell(undefined);
  };
}

const asText = (text: string): string => text;

/** The SSE text of a chunk stream, ending with `data: [DONE]`. */
export function toSseStream(chunks: ReadableStream<UIMessageChunk>): AsyncIterableStream<string> {
  const direct = claimChunks(chunks);
  if (direct !== undefined) return pullStream(new SseSource(direct, asText));
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

/** The SSE bytes of a source (a response body). */
function sseBody<Output>(
  source: UIStreamSource<Output>,
  options: UIMessageStreamOptions<Output> | undefined,
): ReadableStream<Uint8Array> {
  const direct = directChunks(source, options);
  if (direct === undefined)
    return toSseStream(chunksOf(source, options)).pipeThrough(new TextEncoderStream());
  const encoder = new TextEncoder();
  return pullStream(new SseSource(direct, (text) => encoder.encode(text)));
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
  return new Response(sseBody(source, options), {
    status: options?.status ?? 200,
    headers: responseHeaders(options?.headers),
  });
}
