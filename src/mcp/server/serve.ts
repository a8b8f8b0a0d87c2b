import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isRecord } from '../../core/kit/guards';
import { fail, resolveCount, resolveTimeout } from '../option-checks';
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_TIMEOUT,
  HttpSessions,
  type HttpSession,
} from './http-sessions';
import type { McpToolServer } from './mcp-server';
import { refusal, requestPolicy } from './request-origin';
import { reserveStdoutForMcp } from './stdout-guard';
import { loadServerSdk } from './server-sdk';

/** A running stdio server. */
export interface McpStdioServing {
  /** Stops serving (the streams stay open). */
  close(): Promise<void>;
  /** Resolves when the client disconnects (stdin ends) or `close()` is called. */
  readonly closed: Promise<void>;
}

/**
 * Serves over stdio (default: this process's stdin and stdout). On this process's stdout the
 * protocol keeps stdout to itself while serving: everything else written there
 * (`process.stdout.write`, `console.log`, …) goes to stderr (see {@link reserveStdoutForMcp}).
 */
export async function serveMcpStdio<Deps>(
  server: McpToolServer<Deps>,
  streams: { stdin?: Readable; stdout?: Writable } = {},
): Promise<McpStdioServing> {
  const sdk = loadServerSdk();
  const reservation =
    streams.stdout === undefined || streams.stdout === process.stdout
      ? reserveStdoutForMcp()
      : undefined;
  const transport = new sdk.StdioServerTransport(
    streams.stdin,
    reservation?.protocol ?? streams.stdout,
  );
  let done: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    done = () => {
      reservation?.release();
      resolve();
    };
  });
  let sdkServer: Awaited<ReturnType<typeof server.connect>>;
  try {
    sdkServer = await server.connect(transport);
  } catch (error) {
    reservation?.release();
    throw error;
  }
  sdkServer.onclose = done;
  reservation?.protocol.on('error', () => void sdkServer.close());
  const stdin = streams.stdin ?? process.stdin;
  stdin.once('end', () => void sdkServer.close());
  return { close: () => sdkServer.close(), closed };
}

/** Handles the MCP requests of a Streamable HTTP endpoint (mount it in node:http, Express…). */
export interface McpHttpHandler {
  (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** Ends every session. */
  close(): Promise<void>;
}

/** Options of {@link mcpHttpHandler}. */
export interface McpHttpHandlerOptions {
  /** Hosts (`host:port`) accepted in the `Host` header (DNS-rebinding protection); default any. */
  allowedHosts?: readonly string[];
  /**
   * Origins (`scheme://host[:port]`, e.g. `https://app.example.com`) of browser pages allowed to
   * call the endpoint. A request carrying another `Origin` is refused with 403 — unless it is the
   * endpoint's own origin on a host of `allowedHosts`. Requests without an `Origin` header
   * (non-browser clients) are not affected. Default: none.
   */
  allowedOrigins?: readonly string[];
  /**
   * Most sessions open at once; default 100. At the cap a new session ends the least recently
   * used idle one (no request or event stream open; its client gets 404 and starts over), and is
   * refused with 503 when every session is busy.
   */
  maxSessions?: number;
  /** A session with no request or event stream open ends after this many ms; default 10 min; 0 = never. */
  sessionIdleTimeout?: number;
}

/**
 * A Streamable HTTP handler with sessions: an `initialize` POST starts a session (its own SDK
 * server and transport, a random session id); later requests carry `mcp-session-id`; `DELETE`
 * ends it. Requests for unknown sessions get 404 (the client then starts over). The `Host` and
 * `Origin` headers are checked first (403); sessions are capped and idle ones expire (see
 * {@link McpHttpHandlerOptions}).
 */
export function mcpHttpHandler<Deps>(
  server: McpToolServer<Deps>,
  options: McpHttpHandlerOptions = {},
): McpHttpHandler {
  const raw: unknown = options;
  if (!isRecord(raw)) fail('options', 'must be an object { allowedHosts, allowedOrigins, … }');
  const policy = requestPolicy(options.allowedHosts, options.allowedOrigins);
  const sessions = new HttpSessions(
    resolveCount('maxSessions', options.maxSessions, DEFAULT_MAX_SESSIONS),
    options.sessionIdleTimeout === 0
      ? 0
      : resolveTimeout(
          'sessionIdleTimeout',
          options.sessionIdleTimeout,
          DEFAULT_SESSION_IDLE_TIMEOUT,
        ),
  );
  const sdk = loadServerSdk();
  const reply = (res: ServerResponse, status: number, message: string) => {
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
    const refused = refusal(req, policy);
    if (refused !== undefined) {
      reply(res, 403, refused);
      return;
    }
    const header = req.headers['mcp-session-id'];
    const id = typeof header === 'string' ? header : undefined;
    const existing = id === undefined ? undefined : sessions.get(id);
    if (existing !== undefined) {
      sessions.track(() => id, existing, res);
      await existing.transport.handleRequest(req, res, parsedBody);
      return;
    }
    if (id !== undefined) {
      reply(res, 404, 'unknown or ended MCP session');
      return;
    }
    const body = parsedBody ?? (req.method === 'POST' ? await readJson(req) : undefined);
    if (req.method !== 'POST' || !sdk.isInitializeRequest(body)) {
      reply(res, 400, 'no MCP session: start with an initialize request');
      return;
    }
    if (!(await sessions.reserve())) {
      reply(res, 503, 'too many MCP sessions are busy; try again later');
      return;
    }
    let opened = false as boolean;
    let session: HttpSession | undefined;
    try {
      const transport: StreamableHTTPServerTransport = new sdk.StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          opened = true;
          sessions.opened(sessionId, session as HttpSession);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.forget(transport.sessionId);
      };
      session = { transport, server: await server.connect(transport), open: 0, timer: undefined };
      sessions.track(() => transport.sessionId, session, res);
      await transport.handleRequest(req, res, body);
    } finally {
      if (!opened) {
        // The initialize failed: the room is given back and the half-made session dropped.
        sessions.abandoned();
        await session?.server.close().catch(() => undefined);
      }
    }
  };
  return Object.assign(handle, { close: () => sessions.endAll() });
}

/** A running HTTP server. */
export interface McpHttpServing {
  /** The MCP endpoint, e.g. `http://127.0.0.1:43121/mcp`. */
  readonly url: string;
  /** Ends every session and stops listening (open connections are closed). */
  close(): Promise<void>;
}

/** Options of {@link serveMcpHttp}. */
export interface McpHttpServeOptions {
  /** Port; default 0 (a free one: read `url`). */
  port?: number;
  /** Interface; default `127.0.0.1` (loopback only). */
  host?: string;
  /** Endpoint path; default `/mcp`. */
  path?: string;
  /** Origins of browser pages allowed to call the endpoint (see `mcpHttpHandler`); default none. */
  allowedOrigins?: readonly string[];
  /** Most sessions open at once (see `mcpHttpHandler`); default 100. */
  maxSessions?: number;
  /** Idle session lifetime in ms (see `mcpHttpHandler`); default 10 min; 0 = never. */
  sessionIdleTimeout?: number;
}

/**
 * Serves over Streamable HTTP on a node:http server (loopback by default). On a loopback host the
 * `Host` header must name it (DNS-rebinding protection). Other paths answer 404.
 */
export async function serveMcpHttp<Deps>(
  server: McpToolServer<Deps>,
  options: McpHttpServeOptions = {},
): Promise<McpHttpServing> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const mounted: { handler?: McpHttpHandler } = {};
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handler = mounted.handler;
    if (url.pathname !== path || handler === undefined) {
      res.writeHead(404).end();
      return;
    }
    handler(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, resolve);
  });
  const port = (http.address() as AddressInfo).port;
  const loopback = host === '127.0.0.1' || host === 'localhost' || host === '::1';
  const handler = mcpHttpHandler(server, {
    ...(loopback && { allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] }),
    ...(options.allowedOrigins !== undefined && { allowedOrigins: options.allowedOrigins }),
    ...(options.maxSessions !== undefined && { maxSessions: options.maxSessions }),
    ...(options.sessionIdleTimeout !== undefined && {
      sessionIdleTimeout: options.sessionIdleTimeout,
    }),
  });
  mounted.handler = handler;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${path}`,
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) =>
        http.close(() => {
          resolve();
        }),
      );
    },
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 4 * 1024 * 1024) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
