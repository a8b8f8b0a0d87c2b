/* eslint-disable @typescript-eslint/no-deprecated -- the low-level SDK `Server` is deliberate: golem tools carry JSON Schemas, which McpServer's zod-based registration cannot take */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpToolServer } from './mcp-server';
import { loadServerSdk } from './server-sdk';

/** A running stdio server. */
export interface McpStdioServing {
  /** Stops serving (the streams stay open). */
  close(): Promise<void>;
  /** Resolves when the client disconnects (stdin ends) or `close()` is called. */
  readonly closed: Promise<void>;
}

/** Serves over stdio (default: this process's stdin and stdout — log to stderr only). */
export async function serveMcpStdio<Deps>(
  server: McpToolServer<Deps>,
  streams: { stdin?: Readable; stdout?: Writable } = {},
): Promise<McpStdioServing> {
  const sdk = loadServerSdk();
  const transport = new sdk.StdioServerTransport(streams.stdin, streams.stdout);
  let done: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    done = resolve;
  });
  const sdkServer = await server.connect(transport);
  sdkServer.onclose = done;
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
}

/**
 * A Streamable HTTP handler with sessions: an `initialize` POST starts a session (its own SDK
 * server and transport, a random session id); later requests carry `mcp-session-id`; `DELETE`
 * ends it. Requests for unknown sessions get 404 (the client then starts over).
 */
export function mcpHttpHandler<Deps>(
  server: McpToolServer<Deps>,
  options: McpHttpHandlerOptions = {},
): McpHttpHandler {
  const sdk = loadServerSdk();
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  const reply = (res: ServerResponse, status: number, message: string) => {
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };
  const allowed = options.allowedHosts === undefined ? undefined : new Set(options.allowedHosts);
  const handle = async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
    if (allowed !== undefined && !allowed.has(req.headers.host ?? '')) {
      reply(res, 403, 'the Host header names a host this server does not serve');
      return;
    }
    const header = req.headers['mcp-session-id'];
    const id = typeof header === 'string' ? header : undefined;
    const existing = id === undefined ? undefined : sessions.get(id);
    if (existing !== undefined) {
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
    const transport: StreamableHTTPServerTransport = new sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server: sdkServer });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const sdkServer = await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
  return Object.assign(handle, {
    close: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.server.close().catch(() => undefined)));
    },
  });
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
  const handler = mcpHttpHandler(
    server,
    loopback ? { allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] } : {},
  );
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
