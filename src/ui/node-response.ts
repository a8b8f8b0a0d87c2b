import type { UIResponseOptions, UIStreamSource } from './sse';
import { chunksOf, responseHeaders, toSseStream } from './sse';

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
  const reader = toSseStream(chunksOf(source, options)).getReader();
  const client = { gone: false };
  const onClose = (): void => {
    if (res.writableFinished) return;
    client.gone = true;
    reader.cancel('the client went away').catch(() => undefined);
  };
  res.once('close', onClose);
  try {
    res.writeHead(options?.status ?? 200, responseHeaders(options?.headers));
    for (;;) {
      const next = await reader.read();
      if (next.done || client.gone || res.destroyed) break;
      if (!res.write(next.value)) await drained(res);
    }
  } finally {
    res.removeListener('close', onClose);
    if (client.gone || res.destroyed)
      await reader.cancel('the client went away').catch(() => undefined);
    else if (!res.writableEnded) res.end();
  }
}
