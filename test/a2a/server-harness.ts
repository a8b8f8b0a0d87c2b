/**
 * Loopback helpers for the A2A server suites: serve on 127.0.0.1:<free port>, call JSON-RPC
 * methods, read SSE frames (whole or one at a time), and a webhook receiver for push notifications.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createA2AServer, type A2AServer } from '../../src/a2a/server/server';
import type { A2AServerOptions } from '../../src/a2a/server/server-options';
import { parseRpcResponse, parseTask } from '../../src/a2a/wire-check';
import type { RpcError } from '../../src/a2a/rpc-types';
import type { Task } from '../../src/a2a/wire-types';

const servers: Server[] = [];
const served: A2AServer[] = [];

/** Closes every server the helpers opened (call in afterEach). */
export async function closeAll(): Promise<void> {
  for (const server of served.splice(0)) server.close();
  for (const http of servers.splice(0)) {
    http.closeAllConnections();
    await new Promise<void>((resolve) => {
      http.close(() => {
        resolve();
      });
    });
  }
}

/** A node:http server on 127.0.0.1:<free port>; returns its origin. */
export async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const http = createServer(handler);
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
}

/** Serves an A2A server at <origin>/a2a; returns the endpoint URL and the server. */
export async function serve(
  options: Omit<A2AServerOptions, 'url'>,
): Promise<{ url: string; server: A2AServer }> {
  const holder: { server?: A2AServer } = {};
  const url = `${await listen((req, res) => {
    void holder.server?.handle(req, res);
  })}/a2a`;
  const server = createA2AServer({ ...options, url });
  holder.server = server;
  served.push(server);
  return { url, server };
}

let nextId = 0;

/** POSTs a JSON-RPC body with A2A-Version 1.0. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...headers },
    body: JSON.stringify(body),
  });
}

/** Calls `method`; returns its result, or throws with the JSON-RPC error. */
export async function call(
  url: string,
  method: string,
  params: unknown,
  headers?: Record<string, string>,
): Promise<unknown> {
  const id = ++nextId;
  const response = parseRpcResponse(
    await (await post(url, { jsonrpc: '2.0', id, method, params }, headers)).json(),
  );
  if ('error' in response) throw Object.assign(new Error(response.error.message), response.error);
  return response.result;
}

/** Calls `method` expecting an error; returns it. */
export async function callError(
  url: string,
  method: string,
  params: unknown,
  headers?: Record<string, string>,
): Promise<RpcError> {
  const id = ++nextId;
  const response = parseRpcResponse(
    await (await post(url, { jsonrpc: '2.0', id, method, params }, headers)).json(),
  );
  if (!('error' in response)) throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  return response.error;
}

/** A user message's params. */
export function message(text: string, extra: Record<string, unknown> = {}) {
  return {
    message: { messageId: `m-${String(++nextId)}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
  };
}

/** SendMessage; returns the task. */
export async function send(
  url: string,
  params: unknown,
  headers?: Record<string, string>,
): Promise<Task> {
  const result = (await call(url, 'SendMessage', params, headers)) as { task?: unknown };
  return parseTask(result.task);
}

/** GetTask. */
export async function getTask(
  url: string,
  id: string,
  headers?: Record<string, string>,
): Promise<Task> {
  return parseTask(await call(url, 'GetTask', { id }, headers));
}

/** One SSE item: a JSON-RPC frame's result, or a comment line. */
export type SseItem =
  { readonly result: Record<string, unknown>; readonly id: unknown } | { readonly comment: string };

/** Reads an SSE response one item at a time. */
export class SseReader {
  private buffer = '';
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(res: Response) {
    if (res.body === null) throw new Error('no body');
    this.reader = res.body.getReader();
  }

  /** The next item, or undefined at the end of the stream. */
  async next(): Promise<SseItem | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end !== -1) {
        const frame = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        if (frame.startsWith(':')) return { comment: frame.slice(1).trim() };
        if (frame.startsWith('data: ')) {
          return JSON.parse(frame.slice('data: '.length)) as SseItem;
        }
        continue;
      }
      const { done, value } = await this.reader.read();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** Every remaining frame result (comments skipped). */
  async rest(): Promise<Array<Record<string, unknown>>> {
    const out: Array<Record<string, unknown>> = [];
    for (let item = await this.next(); item !== undefined; item = await this.next()) {
      if ('result' in item) out.push(item.result);
    }
    return out;
  }

  /** Stops reading. */
  async cancel(): Promise<void> {
    await this.reader.cancel();
  }
}

/** SendStreamingMessage; returns a reader of its SSE items. */
export async function stream(url: string, params: unknown): Promise<SseReader> {
  const res = await post(url, {
    jsonrpc: '2.0',
    id: ++nextId,
    method: 'SendStreamingMessage',
    params,
  });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return new SseReader(res);
}

/** One request a webhook receiver got. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

/**
 * A loopback webhook receiver: records every POST (answering `status`), and resolves `until(n)`
 * once n requests arrived.
 */
export async function webhook(status = 200): Promise<{
  url: string;
  received: Received[];
  until(count: number): Promise<Received[]>;
}> {
  const received: Received[] = [];
  const waiters: Array<{ count: number; resolve: (all: Received[]) => void }> = [];
  const origin = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      });
      res.writeHead(status).end();
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve([...received]);
        }
      }
    });
  });
  return {
    url: `${origin}/hook`,
    received,
    until: (count) =>
      received.length >= count
        ? Promise.resolve([...received])
        : new Promise((resolve) => waiters.push({ count, resolve })),
  };
}

/** A promise with its resolver, for runs the test releases. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
