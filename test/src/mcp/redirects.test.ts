/**
 * Redirects of the MCP HTTP transport (issue 12): a 3xx to another origin is never followed, so
 * neither the configured headers nor the message reach it; same-origin 307/308 are followed
 * (bounded); 301/302/303 are refused. Real SDK servers on loopback ports.
 */
import { inspect } from 'node:util';
import { ModelRetry } from 'golem';
import { MAX_REDIRECTS, connectMcp } from 'golem/mcp';
import { startHttpServer, type TestHttpServer } from './servers/http-server';
import { call, caught, caughtAs, named } from './support';
import { McpRedirectError } from '../../support/internal-errors';

const TOKEN = 'Bearer t0ken-for-a-only';
const API_KEY = 'custom-k3y-for-a-only';
const HEADERS = { Authorization: TOKEN, 'X-Api-Key': API_KEY };

const started: TestHttpServer[] = [];
async function server(options: Parameters<typeof startHttpServer>[0] = {}) {
  const s = await startHttpServer(options);
  started.push(s);
  return s;
}
afterEach(async () => {
  for (const s of started.splice(0)) await s.close();
});

const originOf = (url: string) => new URL(url).origin;

test('a 307 to another port is refused, typed and not retryable; the other server sees nothing', async () => {
  const other = await server();
  const endpoint = await server({
    redirect: () => ({ status: 307, location: `${other.url}?key=q-s3cret` }),
  });
  const error = await caughtAs(McpRedirectError.is, () =>
    connectMcp({ name: 'web', transport: { kind: 'http', url: endpoint.url, headers: HEADERS } }),
  );
  expect([error.method, error.status, error.location, error.retryable]).toEqual([
    'initialize',
    307,
    `${other.url}?[redacted]`,
    false,
  ]);
  expect(error.message).toBe(
    `mcp: server "web", initialize: the endpoint redirected (HTTP 307) to ${other.url}?[redacted], another origin; redirects are followed only within the endpoint's origin (${originOf(endpoint.url)}) so that headers and messages never reach another server; if you trust the new address, set transport.url to it`,
  );
  expect(other.requests).toEqual([]);
  expect(endpoint.summary()).toEqual(['POST initialize']);
  const shown = inspect(error, { depth: 10 });
  for (const secret of [TOKEN, API_KEY, 'q-s3cret']) expect(shown).not.toContain(secret);
});

test('a 308 to another origin mid-session fails the call with McpRedirectError, not a ModelRetry', async () => {
  const other = await server();
  const endpoint = await server({
    redirect: (r) => (r.rpc === 'tools/call' ? { status: 308, location: other.url } : undefined),
  });
  const client = await connectMcp({
    transport: { kind: 'http', url: endpoint.url, headers: HEADERS },
  });
  try {
    const echo = named(await client.tools(), 'echo');
    const error = await caught(() => call(echo, { text: 'x' }));
    expect(ModelRetry.is(error)).toBe(false);
    expect(McpRedirectError.is(error) && [error.method, error.status, error.location]).toEqual([
      'tools/call',
      308,
      other.url,
    ]);
    expect(other.requests).toEqual([]);
  } finally {
    await client.close();
  }
});

test.each([307, 308])(
  'a same-origin %i is followed end to end with the headers kept',
  async (status) => {
    const endpoint = await server({
      redirect: (r) => (r.path === '/old' ? { status, location: '/mcp' } : undefined),
    });
    const old = `${originOf(endpoint.url)}/old`;
    const client = await connectMcp({ transport: { kind: 'http', url: old, headers: HEADERS } });
    try {
      expect(await call(named(await client.tools(), 'echo'), { text: 'moved' })).toBe('moved');
      const posts = endpoint.requests.filter((r) => r.verb === 'POST');
      expect(posts.slice(0, 2).map((r) => `${r.path} ${r.rpc}`)).toEqual([
        '/old initialize',
        '/mcp initialize',
      ]);
      expect(posts.filter((r) => r.path === '/mcp').map((r) => r.rpc)).toContain('tools/call');
      expect(new Set(endpoint.requests.map((r) => r.authorization))).toEqual(new Set([TOKEN]));
    } finally {
      await client.close();
    }
  },
);

test.each([301, 302, 303])(
  'a same-origin %i is refused: it would turn the POST into a GET',
  async (status) => {
    const endpoint = await server({
      redirect: (r) => (r.path === '/old' ? { status, location: '/mcp' } : undefined),
    });
    const origin = originOf(endpoint.url);
    const error = await caughtAs(McpRedirectError.is, () =>
      connectMcp({ transport: { kind: 'http', url: `${origin}/old`, headers: HEADERS } }),
    );
    expect([error.status, error.location]).toEqual([status, `${origin}/mcp`]);
    expect(error.message).toBe(
      `mcp: server "mcp", initialize: the endpoint redirected (HTTP ${status}) to ${origin}/mcp; only 307 and 308 are followed (301, 302 and 303 would turn the POST into a GET and drop the message); if you trust the new address, set transport.url to it`,
    );
    expect(endpoint.requests.map((r) => `${r.verb} ${r.path}`)).toEqual(['POST /old']);
  },
);

test(`a same-origin redirect loop stops after ${MAX_REDIRECTS} hops`, async () => {
  const endpoint = await server({ redirect: () => ({ status: 307, location: '/mcp' }) });
  const error = await caughtAs(McpRedirectError.is, () =>
    connectMcp({ transport: { kind: 'http', url: endpoint.url } }),
  );
  expect(error.message).toContain(`after ${MAX_REDIRECTS} redirects already followed`);
  expect(endpoint.requests).toHaveLength(MAX_REDIRECTS + 1);
});

test('a same-origin Location carrying credentials is refused and shown without them', async () => {
  const endpoint = await server({
    redirect: (r) => {
      const url = new URL(endpoint.url);
      url.username = 'user';
      url.password = 'pa55word';
      return r.path === '/mcp' ? { status: 307, location: `${url.href}2` } : undefined;
    },
  });
  const error = await caughtAs(McpRedirectError.is, () =>
    connectMcp({ transport: { kind: 'http', url: endpoint.url } }),
  );
  expect(error.location).toBe(`${endpoint.url}2`);
  expect(error.message).toContain('with credentials in the URL, which is never followed');
  expect(inspect(error, { depth: 10 })).not.toContain('pa55word');
  expect(endpoint.requests).toHaveLength(1);
});

test('a Location that is not a URL is refused without echoing it', async () => {
  const endpoint = await server({
    redirect: () => ({ status: 307, location: 'http://[not-a-host/?k=secret-ish' }),
  });
  const error = await caughtAs(McpRedirectError.is, () =>
    connectMcp({ transport: { kind: 'http', url: endpoint.url } }),
  );
  expect([error.location, error.message.includes('secret-ish')]).toEqual(['', false]);
  expect(error.message).toContain('with a Location that is not a valid URL');
});
