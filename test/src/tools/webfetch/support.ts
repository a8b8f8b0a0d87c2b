/**
 * Shared helpers of the web_fetch suites: loopback HTTP servers that record requests and
 * connections, a tool context, and a spy on the socket connect path.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import type { Tool, ToolContext } from 'golem';

/** One request a test server received. */
export interface SeenRequest {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** A loopback HTTP server for one suite. */
export interface TestServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` (or the host it listens on). */
  readonly origin: string;
  readonly requests: SeenRequest[];
  /** Connections accepted so far. */
  connections(): number;
  /** Resolves once every accepted connection has closed (a leak makes the test time out). */
  drained(): Promise<void>;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Starts a server on `port` (default: an ephemeral one) of `host` (default 127.0.0.1). */
export async function startServer(
  handler: Handler,
  host = '127.0.0.1',
  port = 0,
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const open = new Set<Socket>();
  let accepted = 0;
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  server.on('connection', (socket: Socket) => {
    accepted++;
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    origin: `http://${host}:${(server.address() as AddressInfo).port}`,
    requests,
    connections: () => accepted,
    drained: () =>
      Promise.all(
        [...open].map(
          (socket) =>
            new Promise<void>((resolve) => {
              if (socket.destroyed) resolve();
              else
                socket.once('close', () => {
                  resolve();
                });
            }),
        ),
      ).then(() => undefined),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A loopback server routing by exact request URL; see {@link useRouter}. */
export interface Router {
  readonly server: TestServer;
  /** Handlers by exact request URL (path and query); reset before each test. */
  routes: Record<string, Handler>;
}

/**
 * Starts a routing server for the enclosing suite (closed after it) and resets its routes and
 * recorded requests before each test. Unknown URLs get a 599 naming the URL.
 */
export function useRouter(): Router {
  let server: TestServer | undefined;
  const router = {
    get server(): TestServer {
      if (server === undefined) throw new Error('the router starts in beforeAll');
      return server;
    },
    routes: {} as Record<string, Handler>,
  };
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const route = router.routes[req.url ?? ''];
      if (route !== undefined) {
        route(req, res);
        return;
      }
      res.writeHead(599, { 'content-type': 'text/plain' });
      res.end(`no route ${req.url ?? ''}`);
    });
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    router.routes = {};
    router.server.requests.length = 0;
  });
  return router;
}

/** A tool context for calling `execute` directly. */
export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    deps: undefined,
    signal,
    callId: 'call-1',
    toolName: 'web_fetch',
    rawArgs: '{}',
    approved: false,
    retry: 0,
  };
}

/** Calls the tool with `{ url }`. */
export async function fetchText(tool: Tool, url: string, signal?: AbortSignal): Promise<string> {
  return tool.execute({ url }, toolContext(signal));
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejection(promise: unknown): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** Counts every TCP/TLS connect attempt made in this process (calls through). */
export function spyOnConnect(): jest.SpyInstance {
  return jest.spyOn(Socket.prototype, 'connect');
}

/** A handler serving a fixed body with a content type. */
export function serve(body: string | Buffer, contentType = 'text/plain', status = 200): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  };
}
