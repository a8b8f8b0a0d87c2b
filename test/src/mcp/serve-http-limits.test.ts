/**
 * Issue 25 item 10: the Streamable HTTP server checks `Origin` (the transport spec's MUST against
 * DNS rebinding), caps its sessions and ends idle ones — through real HTTP requests and the
 * official SDK client against `serveMcpHttp` / `mcpHttpHandler`.
 */
import { createServer, request as httpRequest, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defineTool, ConfigError } from 'golem';
import {
  createMcpServer,
  mcpHttpHandler,
  serveMcpHttp,
  type McpHttpHandler,
  type McpHttpServing,
} from 'golem/mcp';
import { caught } from './support';

let release: () => void = () => undefined;
let holding: () => void = () => undefined;
const server = createMcpServer({
  tools: [
    defineTool({ name: 'ping', schema: { type: 'object' }, execute: () => 'pong' }),
    defineTool({
      name: 'hold',
      schema: { type: 'object' },
      execute: () =>
        new Promise<string>((resolve) => {
          release = () => {
            resolve('released');
          };
          holding();
        }),
    }),
  ],
});

interface Answer {
  status: number | undefined;
  session: string | undefined;
  body: string;
}

/** One raw HTTP request to `url`; resolves once the whole response arrived. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        headers: {
          accept: 'application/json, text/event-stream',
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const session = res.headers['mcp-session-id'];
          resolve({
            status: res.statusCode,
            session: typeof session === 'string' ? session : undefined,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.once('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};

/** Opens a session with a raw `initialize`; returns its id. */
async function open(url: string, headers: Record<string, string> = {}): Promise<string> {
  const answer = await send(url, 'POST', headers, INITIALIZE);
  if (answer.status !== 200 || answer.session === undefined) {
    throw new Error(`initialize answered ${answer.status}: ${answer.body}`);
  }
  return answer.session;
}

/** The status of a `ping` on session `id` (200 while it lives, 404 once it ended). */
async function ping(url: string, id: string): Promise<number | undefined> {
  return (
    await send(url, 'POST', { 'mcp-session-id': id }, { jsonrpc: '2.0', id: 2, method: 'ping' })
  ).status;
}

function sdkClient(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'sdk-test', version: '1' });
  const connected = client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return { client, connected };
}

describe('Origin', () => {
  let serving: McpHttpServing;
  beforeAll(async () => {
    serving = await serveMcpHttp(server, { allowedOrigins: ['https://app.example.com'] });
  });
  afterAll(() => serving.close());

  test('the official SDK client sending a foreign Origin is refused with 403', async () => {
    const { client, connected } = sdkClient(serving.url, { origin: 'http://attacker.example' });
    const error = await caught(() => connected);
    expect([(error as { code?: unknown }).code, error.message]).toEqual([
      403,
      expect.stringContaining('the Origin header names an origin this server does not accept'),
    ]);
    await client.close();
  });

  test.each([
    ['a foreign origin', 'http://attacker.example', 403],
    ['a page on another local port', 'http://localhost:1', 403],
    ['the literal origin "null" (sandboxed pages, files)', 'null', 403],
    ['an allowed origin', 'https://app.example.com', 200],
    ['an allowed origin, in other case', 'HTTPS://App.Example.com', 200],
  ])('an initialize from %s: %s', async (_label, origin, status) => {
    expect((await send(serving.url, 'POST', { origin }, INITIALIZE)).status).toBe(status);
  });

  test("the endpoint's own origin and requests without Origin (non-browser clients) pass", async () => {
    const own = new URL(serving.url).origin;
    expect((await send(serving.url, 'POST', { origin: own }, INITIALIZE)).status).toBe(200);
    const { client, connected } = sdkClient(serving.url);
    await connected;
    expect(await client.callTool({ name: 'ping', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'pong' }],
    });
    await client.close();
  });

  test('every request of a session is checked, not only the first', async () => {
    const id = await open(serving.url);
    const foreign = await send(
      serving.url,
      'POST',
      { 'mcp-session-id': id, origin: 'http://attacker.example' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ping', arguments: {} } },
    );
    expect([foreign.status, foreign.body]).toEqual([
      403,
      expect.stringContaining('the Origin header names an origin this server does not accept'),
    ]);
  });

  test('mcpHttpHandler without allowedHosts accepts only the listed origins', async () => {
    const handler = mcpHttpHandler(server, { allowedOrigins: ['http://ok.example'] });
    const http = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    try {
      // Without a Host allow-list a rebound name looks like the endpoint's own origin: refused.
      expect(
        (
          await send(
            url,
            'POST',
            { origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}` },
            INITIALIZE,
          )
        ).status,
      ).toBe(403);
      expect((await send(url, 'POST', { origin: 'http://ok.example' }, INITIALIZE)).status).toBe(
        200,
      );
      expect((await send(url, 'POST', {}, INITIALIZE)).status).toBe(200);
    } finally {
      await handler.close();
      await closeHttp(http);
    }
  });

  test.each([
    [
      { allowedOrigins: 'https://a.example' },
      'allowedOrigins',
      'must be an array of strings, got "https://a.example"',
    ],
    [
      { allowedOrigins: ['https://a.example/path'] },
      'allowedOrigins[0]',
      'must be an origin like "https://app.example.com", got "https://a.example/path"',
    ],
    [{ maxSessions: 0 }, 'maxSessions', 'must be a positive integer, got 0'],
    [
      { sessionIdleTimeout: -1 },
      'sessionIdleTimeout',
      'must be a finite number of ms >= 0, got -1',
    ],
  ])('bad handler options are mcp ConfigError naming the option', (options, option, message) => {
    let error: unknown;
    try {
      mcpHttpHandler(server, options as never);
    } catch (thrown) {
      error = thrown;
    }
    expect(ConfigError.is(error, 'mcp') && [error.option, error.message]).toEqual([
      option,
      `mcp: option \`${option}\` ${message}`,
    ]);
  });
});

function closeHttp(http: Server): Promise<void> {
  http.closeAllConnections();
  return new Promise((resolve) =>
    http.close(() => {
      resolve();
    }),
  );
}

describe('the session cap', () => {
  test('a new session ends the least recently used idle one; its client gets 404', async () => {
    const serving = await serveMcpHttp(server, { maxSessions: 2 });
    try {
      const first = await open(serving.url);
      const second = await open(serving.url);
      expect(await ping(serving.url, first)).toBe(200); // first is now the most recently used
      const third = await open(serving.url);
      expect(await ping(serving.url, second)).toBe(404);
      expect(await ping(serving.url, first)).toBe(200);
      expect(await ping(serving.url, third)).toBe(200);
    } finally {
      await serving.close();
    }
  });

  test('when every session is busy a new one is refused with 503, the busy ones go on', async () => {
    const serving = await serveMcpHttp(server, { maxSessions: 1 });
    const busy = sdkClient(serving.url);
    try {
      await busy.connected;
      const held = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const call = busy.client.callTool({ name: 'hold', arguments: {} });
      await held;
      const refused = await send(serving.url, 'POST', {}, INITIALIZE);
      expect([refused.status, refused.body]).toEqual([
        503,
        expect.stringContaining('too many MCP sessions are busy'),
      ]);
      const other = sdkClient(serving.url);
      expect((await caught(() => other.connected)) as { code?: unknown }).toMatchObject({
        code: 503,
      });
      await other.client.close();
      release();
      expect(await call).toEqual({ content: [{ type: 'text', text: 'released' }] });
    } finally {
      release();
      await busy.client.close();
      await serving.close();
    }
  });
});

describe('idle sessions', () => {
  let serving: McpHttpServing | undefined;
  let handler: McpHttpHandler | undefined;
  beforeEach(() => {
    // Fake timers for the idle clock only: the HTTP machinery keeps its ticks and immediates.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });
  afterEach(async () => {
    jest.useRealTimers();
    await serving?.close();
    await handler?.close();
  });

  test('a session idle for sessionIdleTimeout ends; each request restarts its clock', async () => {
    serving = await serveMcpHttp(server, { sessionIdleTimeout: 60_000 });
    const id = await open(serving.url);
    const other = await open(serving.url);
    jest.advanceTimersByTime(59_999);
    expect(await ping(serving.url, id)).toBe(200);
    jest.advanceTimersByTime(59_999);
    expect(await ping(serving.url, id)).toBe(200);
    // `other` was last used 119 998 ms ago: it ended at 60 000.
    expect(await ping(serving.url, other)).toBe(404);
    jest.advanceTimersByTime(60_000);
    expect(await ping(serving.url, id)).toBe(404);
  });

  test('the default is 10 minutes; a session with an open event stream is not idle', async () => {
    serving = await serveMcpHttp(server);
    const idle = await open(serving.url);
    const streaming = await open(serving.url);
    const stream = await new Promise<ClientRequest>((resolve, reject) => {
      const req = httpRequest(
        serving?.url ?? '',
        { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': streaming } },
        (res) => {
          res.on('error', () => undefined);
          if (res.statusCode === 200) resolve(req);
          else reject(new Error(`the event stream answered ${res.statusCode}`));
        },
      );
      req.on('error', () => undefined);
      req.end();
    });
    jest.advanceTimersByTime(10 * 60 * 1000 - 1);
    expect(await ping(serving.url, idle)).toBe(200);
    jest.advanceTimersByTime(10 * 60 * 1000);
    expect(await ping(serving.url, idle)).toBe(404);
    expect(await ping(serving.url, streaming)).toBe(200);
    stream.destroy();
  });

  test('sessionIdleTimeout: 0 keeps idle sessions', async () => {
    handler = mcpHttpHandler(server, { sessionIdleTimeout: 0 });
    const mounted = handler;
    const http = createServer((req, res) => void mounted(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    try {
      const id = await open(url);
      jest.advanceTimersByTime(24 * 60 * 60 * 1000);
      expect(await ping(url, id)).toBe(200);
    } finally {
      await closeHttp(http);
    }
  });
});
