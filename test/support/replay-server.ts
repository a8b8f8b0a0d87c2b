import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted HTTP reply. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** The whole body, sent at once. */
  body?: string | Uint8Array;
  /** The body as separate writes (each flushed before the next), e.g. SSE split mid-event. */
  chunks?: readonly (string | Uint8Array)[];
  /** Destroy the socket after the chunks instead of ending the response (a connection reset). */
  reset?: boolean;
  /**
   * Keep the response open after the body or chunks (never end it): a server that holds the
   * connection. It is closed when the server closes.
   */
  hold?: boolean;
}

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** `body` parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** A loopback HTTP server that replays scripted replies in order and records every request. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queue more replies. */
  push(...replies: Reply[]): void;
  close(): Promise<void>;
}

/**
 * Starts a replay server on an ephemeral loopback port. Requests beyond the queue get a 599 with
 * a body naming the problem, so a test fails loudly instead of hanging.
 */
export async function startReplayServer(replies: readonly Reply[] = []): Promise<ReplayServer> {
  const queue: Reply[] = [...replies];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        json,
      });
      const reply = queue.shift() ?? { status: 599, body: 'replay server: no queued reply' };
      res.writeHead(reply.status ?? 200, reply.headers ?? { 'content-type': 'application/json' });
      if (reply.chunks === undefined) {
        if (reply.reset === true) {
          res.flushHeaders();
          res.socket?.destroy();
          return;
        }
        if (reply.hold === true) {
          if (reply.body !== undefined) res.write(reply.body);
          else res.flushHeaders();
          return;
        }
        res.end(reply.body ?? '');
        return;
      }
      void writeChunks(res, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    push: (...more) => queue.push(...more),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

async function writeChunks(res: import('node:http').ServerResponse, reply: Reply): Promise<void> {
  for (const chunk of reply.chunks ?? []) {
    await new Promise<void>((resolve, reject) =>
      res.write(chunk, (error) => {
        if (error) reject(error);
        else resolve();
      }),
    );
  }
  if (reply.reset === true) res.socket?.destroy();
  else if (reply.hold !== true) res.end();
}
