import type { UIResponseOptions, UIStreamSource } from './sse';
import type { UIMessageChunk } from './chunk-types';
import type { ChunkClaim } from './to-ui-stream';
import {
  chunksOf,
  directChunks,
  formatUIMessageChunk,
  responseHeaders,
  toSseStream,
  UI_MESSAGE_STREAM_DONE,
} from './sse';

/**
 * The parts of a Node `ServerResponse` the helpers use: Node's own, Express's and Nest's
 * `@Res()`, Fastify's `reply.raw`.
 */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string): boolean;
  end(chunk?: string): unknown;
  once(event: 'close' | 'drain', listener: () => void): unknown;
  removeListener(event: 'close' | 'drain', listener: () => void): unknown;
  readonly writableEnded: boolean;
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
}

/** Resolves when `res` can take more, or is gone. */
function drained(res: NodeResponseLike): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.removeListener('drain', done);
      res.removeListener('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/**
 * Writes a run to a Node `ServerResponse` as the AI SDK UI message stream (SSE, protocol
 * headers, `data: [DONE]` at the end), honouring back-pressure; resolves when the response ends.
 * When the client goes away first (the response closes before it finished) the stream is
 * cancelled, which stops the run — its evidence is kept on the run's error (`stream.result`).
 */
export async function pipeUIMessageStreamToResponse<Output>(
  source: UIStreamSource<Output>,
  res: NodeResponseLike,
  options?: UIResponseOptions<Output>,
): Promise<void> {
  const direct = directChunks(source, options);
  const frames = direct === undefined ? streamFrames(source, options) : directFrames(direct);
  const client = { gone: false };
  const onClose = (): void => {
    if (res.writableFinished) return;
    client.gone = true;
    frames.cancel('the client went away').catch(() => undefined);
  };
  res.once('close', onClose);
  try {
    res.writeHead(options?.status ?? 200, responseHeaders(options?.headers));
    for (;;) {
      const text = await frames.next();
      if (text === undefined || client.gone || res.destroyed) break;
      if (!res.write(text)) await drained(res);
    }
  } finally {
    res.removeListener('close', onClose);
    if (client.gone || res.destroyed)
      await frames.cancel('the client went away').catch(() => undefined);
    else if (!res.writableEnded) res.end();
  }
}

/** The SSE text to write, a write at a time (`undefined` at the end). */
interface Frames {
  next(): Promise<string | undefined>;
  cancel(reason: unknown): Promise<void>;
}

/**
 * The frames of chunks read directly: the chunks ready together go out in one write (the same
 * bytes as one write each), then `data: [DONE]`.
 */
function directFrames(claim: ChunkClaim): Frames {
  const chunks = claim.source;
  let last = false;
  const frames = (chunk: UIMessageChunk): string | undefined => {
    let text = formatUIMessageChunk(chunk);
    for (let next = chunks.take(); next !== undefined; next = chunks.take())
      text += formatUIMessageChunk(next);
    return text;
  };
  const lastFrame = (): string | undefined => {
    if (last) return undefined;
    last = true;
    return UI_MESSAGE_STREAM_DONE;
  };
  return {
    next: () => chunks.read(frames, lastFrame),
    cancel: (reason) => {
      last = true;
      return claim.cancel(reason);
    },
  };
}

/** The frames of any other chunk stream, through its SSE stream's reader. */
function streamFrames<Output>(
  source: UIStreamSource<Output>,
  options: UIResponseOptions<Output> | undefined,
): Frames {
  const reader = toSseStream(chunksOf(source, options)).getReader();
  return {
    next: () => reader.read().then((step) => (step.done ? undefined : step.value)),
    cancel: (reason) => reader.cancel(reason),
  };
}
