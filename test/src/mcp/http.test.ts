/**
 * The MCP client over Streamable HTTP against a real SDK server on a loopback node:http server
 * (spec §27.4, MC-12..MC-15), including decision D11: a response stream that ends without the
 * answer fails the call at once with a typed error instead of blocking.
 */
import { ModelRetry, isDeadlineExceeded } from 'golem';
import { McpTransportError, connectMcp, type McpClient } from 'golem/mcp';
import type { Tool } from 'golem';
import { startHttpServer, type TestHttpServer } from './servers/http-server';
import { call, caught, caughtAs, named } from './support';
import { configErrorGuard } from '../../support/config-error';

describe('an SSE-answering server', () => {
  let server: TestHttpServer;
  let client: McpClient;
  let tools: Tool[];
  beforeAll(async () => {
    server = await startHttpServer();
    client = await connectMcp({
      name: 'web',
      transport: { kind: 'http', url: server.url, headers: { Authorization: 'Bearer t0ken' } },
    });
    tools = await client.tools();
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  test('MC-12 initialize, list and call: POSTs carry the session after the handshake', async () => {
    expect(client.server).toEqual({ name: 'test-http', version: '2.0.0' });
    expect(tools.map((t) => t.name)).toEqual([
      'echo',
      'notify_then_answer',
      'drop_stream',
      'poll',
      'break_stream',
      'hang',
      'big',
    ]);
    // The server sends a logging notification on the stream before the answer.
    expect(await call(named(tools, 'notify_then_answer'), {})).toBe('answered');
    const posts = server.requests.filter((r) => r.verb === 'POST').slice(0, 4);
    expect(posts.map((r) => [r.rpc, r.session])).toEqual([
      ['initialize', undefined],
      ['notifications/initialized', 'session-1'],
      ['tools/list', 'session-1'],
      ['tools/call', 'session-1'],
    ]);
    expect(new Set(server.requests.map((r) => r.authorization))).toEqual(new Set(['Bearer t0ken']));
  });

  test('MC-14 (D11) a response stream that ends without the answer fails at once, typed', async () => {
    const error = await caught(() => call(named(tools, 'drop_stream'), {}));
    expect(ModelRetry.is(error)).toBe(false);
    expect(McpTransportError.is(error) && [error.method, error.status, error.message]).toEqual([
      'tools/call',
      undefined,
      'mcp: server "web", tools/call: the HTTP response stream ended without an answer',
    ]);
    expect(await call(named(tools, 'echo'), { text: 'still usable' })).toBe('still usable');
  });

  test('MC-14 a response stream that breaks before the answer fails at once, typed', async () => {
    const error = await caughtAs(McpTransportError.is, () =>
      call(named(tools, 'break_stream'), {}),
    );
    expect(error.message).toBe(
      'mcp: server "web", tools/call: the HTTP response stream broke before the answer arrived',
    );
    expect(await call(named(tools, 'echo'), { text: 'reconnected' })).toBe('reconnected');
  });

  test('MC-14 a stream that stays open without an answer + a 300 ms timeout: a deadline in the chain', async () => {
    const hang = named(await client.tools({ include: ['hang'], timeout: 300 }), 'hang');
    const error = await caught(() => call(hang, {}));
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(error.message).toBe('mcp: server "web" did not answer hang within 300 ms');
  });

  test('an event larger than maxMessageBytes fails the call, typed; the client stays usable', async () => {
    const small = await connectMcp({
      transport: { kind: 'http', url: server.url },
      maxMessageBytes: 4096,
    });
    try {
      const list = await small.tools();
      const error = await caughtAs(McpTransportError.is, () =>
        call(named(list, 'big'), { bytes: 50_000 }),
      );
      expect(error.message).toBe(
        'mcp: server "mcp", tools/call: a message from the server exceeded maxMessageBytes (4096 bytes)',
      );
      expect(await call(named(list, 'big'), { bytes: 10 })).toBe('y'.repeat(10));
    } finally {
      await small.close();
    }
  });

  test('a result over maxResultBytes is cut with a marker', async () => {
    const big = named(await client.tools({ include: ['big'], maxResultBytes: 16 }), 'big');
    expect(await call(big, { bytes: 100 })).toBe(
      `${'y'.repeat(16)}\n\n[mcp: result truncated at 16 bytes]`,
    );
  });

  test('close() ends the session with DELETE', async () => {
    const own = await connectMcp({ transport: { kind: 'http', url: server.url } });
    const session = server.requests.at(-1)?.session;
    await own.close();
    expect(server.requests.filter((r) => r.verb === 'DELETE').map((r) => r.session)).toContain(
      session,
    );
  });
});

test('MC-14 a resumable stream (event ids) that ends early is resumed by the SDK, not failed', async () => {
  const server = await startHttpServer({ resumable: true });
  const client = await connectMcp({ transport: { kind: 'http', url: server.url } });
  try {
    expect(await call(named(await client.tools(), 'poll'), {})).toBe(
      'answered after the client resumed',
    );
  } finally {
    await client.close();
    await server.close();
  }
});

test('a listing the server never answers ends at the connect timeout with a deadline', async () => {
  const server = await startHttpServer({ hangList: true });
  const client = await connectMcp({ transport: { kind: 'http', url: server.url }, timeout: 300 });
  try {
    const error = await caught(() => client.tools());
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(error.message).toBe('mcp: server "mcp" did not answer tools/list within 300 ms');
    expect(client.stale).toBe(true);
  } finally {
    await client.close();
    await server.close();
  }
});

test('MC-12 a JSON-answering server works the same', async () => {
  const server = await startHttpServer({ json: true });
  const client = await connectMcp({ transport: { kind: 'http', url: new URL(server.url) } });
  try {
    expect(await call(named(await client.tools(), 'echo'), { text: 'json' })).toBe('json');
  } finally {
    await client.close();
    await server.close();
  }
});

test('a JSON body larger than maxMessageBytes fails the call, typed', async () => {
  const server = await startHttpServer({ json: true });
  const client = await connectMcp({
    transport: { kind: 'http', url: server.url },
    maxMessageBytes: 4096,
  });
  try {
    const big = named(await client.tools(), 'big');
    const error = await caughtAs(McpTransportError.is, () => call(big, { bytes: 50_000 }));
    expect(error.message).toBe(
      'mcp: server "mcp", tools/call: a message from the server exceeded maxMessageBytes (4096 bytes)',
    );
  } finally {
    await client.close();
    await server.close();
  }
});

test('MC-13 HTTP 500 on a call is McpTransportError with status 500, not a ModelRetry', async () => {
  const server = await startHttpServer({ callStatus: 500 });
  const client = await connectMcp({ transport: { kind: 'http', url: server.url } });
  try {
    const error = await caught(async () =>
      call(named(await client.tools(), 'echo'), { text: 'x' }),
    );
    expect(ModelRetry.is(error)).toBe(false);
    expect(McpTransportError.is(error) && [error.status, error.message]).toEqual([
      500,
      'mcp: server "mcp", tools/call: the endpoint answered HTTP 500',
    ]);
  } finally {
    await client.close();
    await server.close();
  }
});

test('MC-13 a dropped session answers 404: McpTransportError with status 404', async () => {
  const server = await startHttpServer();
  const client = await connectMcp({ transport: { kind: 'http', url: server.url } });
  try {
    const echo = named(await client.tools(), 'echo');
    server.dropSessions();
    const error = await caughtAs(McpTransportError.is, () => call(echo, { text: 'x' }));
    expect(error.status).toBe(404);
  } finally {
    await client.close();
    await server.close();
  }
});

test('connecting to a closed port is McpTransportError', async () => {
  const server = await startHttpServer();
  const url = server.url;
  await server.close();
  const error = await caughtAs(McpTransportError.is, () =>
    connectMcp({ transport: { kind: 'http', url } }),
  );
  expect([error.method, error.message]).toEqual([
    'connect',
    `mcp: server "mcp", connect: fetch failed: connect ECONNREFUSED ${new URL(url).host}`,
  ]);
});

test.each([
  [
    'missing url',
    { kind: 'http' },
    'transport.url',
    'is required: an http: or https: URL, got undefined',
  ],
  [
    'ftp url',
    { kind: 'http', url: 'ftp://127.0.0.1/mcp' },
    'transport.url',
    'must use http: or https:, got "ftp:"',
  ],
  [
    'file url',
    { kind: 'http', url: 'file:///etc/passwd' },
    'transport.url',
    'must use http: or https:, got "file:"',
  ],
  [
    'not a URL',
    { kind: 'http', url: 'mcp server' },
    'transport.url',
    'is not a valid URL: "mcp server"',
  ],
  [
    'credentials in the URL',
    { kind: 'http', url: 'http://u:p@127.0.0.1/' },
    'transport.url',
    'must not contain credentials; send them in `headers`',
  ],
  [
    'non-string header',
    { kind: 'http', url: 'http://127.0.0.1/', headers: { 'x-n': 1 } },
    'transport.headers.x-n',
    'must be a string, got 1',
  ],
])('MC-15 HTTP configuration error: %s', async (_label, transport, option, message) => {
  const error = await caughtAs(configErrorGuard('mcp'), () => connectMcp({ transport } as never));
  expect([error.option, error.message]).toEqual([option, `mcp: option \`${option}\` ${message}`]);
});

test('MC-15 a header with a line break is a configuration error', async () => {
  const error = await caughtAs(configErrorGuard('mcp'), () =>
    connectMcp({
      transport: { kind: 'http', url: 'http://127.0.0.1/', headers: { 'x-a': 'a\r\nb: c' } },
    }),
  );
  expect(error.option).toBe('transport.headers');
});
