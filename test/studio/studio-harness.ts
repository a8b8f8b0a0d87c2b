import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStudio, type Studio } from '../../src/studio/server';
import type { StudioOptions } from '../../src/studio/studio-options';

/** A studio served on 127.0.0.1, port 0. */
export interface Served {
  readonly studio: Studio;
  readonly base: string;
  readonly port: number;
  readonly errors: unknown[];
  stop(): Promise<void>;
}

export async function serve(options: StudioOptions): Promise<Served> {
  const errors: unknown[] = [];
  const studio = createStudio({ onError: (e) => errors.push(e), ...options });
  const server: Server = createServer((req, res) => void studio.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    studio,
    port,
    base: `http://127.0.0.1:${port}`,
    errors,
    stop: async () => {
      await studio.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}

export interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- a test names the shape it reads
  json<T = unknown>(): T;
}

export interface CallOptions {
  readonly method?: string;
  readonly body?: unknown;
  readonly raw?: string | Buffer;
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
}

/** One request to the studio (`token: null` sends none). */
export function call(s: Served, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? s.studio.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | Buffer | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: s.port, path, method: options.method ?? 'GET', headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: () => JSON.parse(text) as never,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** An SSE frame. */
export interface Frame {
  readonly event: string;
  readonly data: unknown;
}

/** An open SSE stream whose frames are read one by one. */
export interface SseReader {
  readonly status: number;
  /** The next frame matching `accept` (earlier ones are dropped). */
  next(accept?: (frame: Frame) => boolean): Promise<Frame>;
  close(): void;
}

export function openSse(
  s: Served,
  path: string,
  headers: Record<string, string> = {},
): Promise<SseReader> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: s.port, path, headers }, (res) => {
      const frames: Frame[] = [];
      let waiter: (() => void) | undefined;
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          let data: string | undefined;
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            if (line.startsWith('data: ')) data = line.slice(6);
          }
          if (data !== undefined) frames.push({ event, data: JSON.parse(data) as unknown });
        }
        waiter?.();
      });
      res.on('error', () => undefined);
      resolve({
        status: res.statusCode ?? 0,
        next: async (accept = () => true) => {
          for (;;) {
            const at = frames.findIndex(accept);
            if (at !== -1) {
              const frame = frames[at] as Frame;
              frames.splice(0, at + 1);
              return frame;
            }
            frames.length = 0;
            await new Promise<void>((wake) => (waiter = wake));
          }
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}
