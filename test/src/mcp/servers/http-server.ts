/**
 * An in-process Streamable HTTP MCP server on a loopback node:http server (ephemeral port), built
 * with the SDK's McpServer and StreamableHTTPServerTransport. It records every HTTP request
 * (verb, JSON-RPC method, session header) and can be told to misbehave.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { z } from 'zod';

/** One HTTP request the server received. */
export interface SeenHttpRequest {
  verb: string;
  /** The request path, e.g. `/mcp`. */
  path: string;
  /** The JSON-RPC method of a POST body (`response` for a client's answer), else ''. */
  rpc: string;
  session: string | undefined;
  authorization: string | undefined;
}

export interface HttpServerOptions {
  /** Answer every `tools/call` POST with this status instead of handling it. */
  callStatus?: number;
  /** Answer POSTs with JSON bodies instead of event streams. */
  json?: boolean;
  /** Never answer `tools/list`. */
  hangList?: boolean;
  /** Keep events in an event store (ids on every event, resumable streams, 10 ms retry hint). */
  resumable?: boolean;
  /** Answer a request with a redirect when this returns one (the request is recorded first). */
  redirect?: (request: SeenHttpRequest) => { status: number; location: string } | undefined;
  /** Answer every POST with HTTP 500 and a body quoting the request's headers. */
  echoHeaders?: boolean;
  /** Offer a `leak` tool that fails with a message quoting the request's Authorization header. */
  leakTool?: boolean;
}

export interface TestHttpServer {
  url: string;
  requests: SeenHttpRequest[];
  /** Requests by verb and JSON-RPC method, e.g. `POST initialize`. */
  summary(): string[];
  /** Forgets every session, as a restarted server would (later requests get 404). */
  dropSessions(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

function rpcMethod(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const method = (body as { method?: unknown }).method;
  return typeof method === 'string' ? method : 'response';
}

function toolName(body: unknown): string {
  const params = (body as { params?: { name?: unknown } } | undefined)?.params;
  return typeof params?.name === 'string' ? params.name : '';
}

/** Once the first body chunk (headers and one event) is flushed, the connection drops. */
function breakAfterFirstWrite(res: ServerResponse): void {
  const write = res.write.bind(res) as (chunk: unknown, callback?: () => void) => boolean;
  res.write = ((chunk: unknown) =>
    write(chunk, () => {
      res.socket?.destroy();
    })) as typeof res.write;
}

/** Starts the server; `close()` it in afterAll. */
export async function startHttpServer(options: HttpServerOptions = {}): Promise<TestHttpServer> {
  const requests: SeenHttpRequest[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const sockets = new Set<Socket>();
  let count = 0;
  let resumed: () => void = () => undefined;
  const resumption = new Promise<void>((resolve) => {
    resumed = resolve;
  });

  const newSession = async (): Promise<StreamableHTTPServerTransport> => {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => `session-${++count}`,
      enableJsonResponse: options.json === true,
      ...(options.resumable === true && {
        eventStore: new InMemoryEventStore(),
        retryInterval: 10,
      }),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    const server = new McpServer(
      { name: 'test-http', version: '2.0.0' },
      { capabilities: { logging: {} } },
    );
    const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
    server.registerTool(
      'echo',
      { description: 'Echo the text back.', inputSchema: { text: z.string() } },
      ({ text: value }) => text(value),
    );
    server.registerTool(
      'notify_then_answer',
      { description: 'Log, then answer.' },
      async (extra) => {
        await extra.sendNotification({
          method: 'notifications/message',
          params: { level: 'info', data: 'working on it' },
        });
        return text('answered');
      },
    );
    server.registerTool('drop_stream', { description: 'Close the response stream.' }, (extra) => {
      transport.closeSSEStream(extra.requestId);
      return new Promise(() => undefined);
    });
    server.registerTool(
      'poll',
      { description: 'Close the stream; answer once resumed.' },
      async (extra) => {
        extra.closeSSEStream?.();
        await resumption;
        return text('answered after the client resumed');
      },
    );
    server.registerTool('break_stream', { description: 'Break the connection.' }, async (extra) => {
      // One event goes out (see the request handler, which then breaks the connection).
      await extra.sendNotification({
        method: 'notifications/message',
        params: { level: 'info', data: 'about to break' },
      });
      return new Promise(() => undefined);
    });
    server.registerTool(
      'hang',
      { description: 'Never answers.' },
      () => new Promise(() => undefined),
    );
    server.registerTool(
      'big',
      { description: 'A large result.', inputSchema: { bytes: z.number() } },
      ({ bytes }) => text('y'.repeat(bytes)),
    );
    if (options.leakTool === true) {
      server.registerTool('leak', { description: 'Fail, quoting a header.' }, (extra) => {
        throw new Error(`you sent ${String(extra.requestInfo?.headers.authorization)}`);
      });
    }
    servers.push(server);
    await server.connect(transport);
    return transport;
  };

  const http = createServer((req, res) => {
    void (async () => {
      const session = req.headers['mcp-session-id'];
      const sessionId = typeof session === 'string' ? session : undefined;
      const raw = req.method === 'POST' ? await readBody(req) : '';
      const body: unknown = raw === '' ? undefined : JSON.parse(raw);
      const rpc = rpcMethod(body);
      if (req.method === 'GET' && req.headers['last-event-id'] !== undefined) resumed();
      const seen = {
        verb: req.method ?? '',
        path: new URL(req.url ?? '/', 'http://x').pathname,
        rpc,
        session: sessionId,
        authorization: req.headers.authorization,
      };
      requests.push(seen);
      const redirect = options.redirect?.(seen);
      if (redirect !== undefined) {
        res.writeHead(redirect.status, { location: redirect.location }).end('moved');
        return;
      }
      if (req.method === 'POST' && options.echoHeaders === true) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(JSON.stringify(req.headers));
        return;
      }
      if (rpc === 'tools/call' && options.callStatus !== undefined) {
        res.writeHead(options.callStatus, { 'content-type': 'text/plain' }).end('server exploded');
        return;
      }
      if (rpc === 'tools/list' && options.hangList === true) return;
      if (rpc === 'tools/call' && toolName(body) === 'break_stream') breakAfterFirstWrite(res);
      let transport = sessionId === undefined ? undefined : sessions.get(sessionId);
      if (transport === undefined && rpc === 'initialize') transport = await newSession();
      if (transport === undefined) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":"unknown session"}');
        return;
      }
      await transport.handleRequest(req, res, body);
    })();
  });
  http.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    summary: () => requests.map((r) => `${r.verb} ${r.rpc}`.trim()),
    dropSessions: () => {
      sessions.clear();
    },
    close: async () => {
      for (const server of servers) await server.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) =>
        http.close(() => {
          resolve();
        }),
      );
    },
  };
}
