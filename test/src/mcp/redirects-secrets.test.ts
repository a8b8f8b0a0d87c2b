/**
 * Secrets of the MCP HTTP transport (issue 12): configured header values and the URL's query
 * values never appear in an error a user or log can see — message, stack, data or any link of
 * the cause chain.
 */
import { inspect } from 'node:util';
import { ModelRetry } from 'golem';
import { McpTransportError, connectMcp } from 'golem/mcp';
import { startHttpServer, type TestHttpServer } from './servers/http-server';
import { call, caughtAs, named } from './support';
import { configErrorGuard } from '../../support/config-error';

const TOKEN = 's3cret-t0ken-value';
const API_KEY = 'x-api-k3y-value';
const QUERY_KEY = 'qu3ry-k3y-value';

/** Everything a log could print of an error: inspect() shows message, stack, props and causes. */
function everything(error: Error): string {
  const chain: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause)
    chain.push(e.message, String(e.stack));
  return `${inspect(error, { depth: 20 })}\n${chain.join('\n')}`;
}

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test('an HTTP 500 whose body quotes the request headers leaks no secret through the cause chain', async () => {
  server = await startHttpServer({ echoHeaders: true });
  const error = await caughtAs(McpTransportError.is, () =>
    connectMcp({
      transport: {
        kind: 'http',
        url: `${server?.url ?? ''}?api_key=${QUERY_KEY}`,
        headers: { Authorization: `Bearer ${TOKEN}`, 'X-Api-Key': API_KEY },
      },
    }),
  );
  expect(error.status).toBe(500);
  const shown = everything(error);
  for (const secret of [TOKEN, API_KEY, QUERY_KEY]) expect(shown).not.toContain(secret);
  // The cause is kept (the server's body is still there to diagnose), only the secrets are gone.
  expect((error.cause as Error).message).toContain('"authorization":"[redacted]"');
});

test('a failing server tool that quotes the Authorization header: the ModelRetry does not', async () => {
  server = await startHttpServer({ leakTool: true });
  const client = await connectMcp({
    transport: { kind: 'http', url: server.url, headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  try {
    const leak = named(await client.tools(), 'leak');
    const error = await caughtAs(ModelRetry.is, () => call(leak, {}));
    expect(error.message).toMatch(/tool leak failed: you sent \[redacted\]$/);
  } finally {
    await client.close();
  }
});

test('a header value with a line break is refused without quoting it', async () => {
  const error = await caughtAs(configErrorGuard('mcp'), () =>
    connectMcp({
      transport: {
        kind: 'http',
        url: 'http://127.0.0.1/',
        headers: { 'X-Api-Key': `${API_KEY}\r\nX-Injected: 1` },
      },
    }),
  );
  expect(error.message).toBe(
    'mcp: option `transport.headers` has an invalid value for "X-Api-Key" (a line break, NUL or a character above U+00FF); the value is not shown, as it may be a secret',
  );
  expect(everything(error)).not.toContain(API_KEY);
});

test('an unparsable URL is quoted without its query', async () => {
  const error = await caughtAs(configErrorGuard('mcp'), () =>
    connectMcp({ transport: { kind: 'http', url: `mcp server?key=${QUERY_KEY}` } }),
  );
  expect(error.message).toBe(
    'mcp: option `transport.url` is not a valid URL: "mcp server?[redacted]"',
  );
});
