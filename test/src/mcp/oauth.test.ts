/**
 * Streamable HTTP with OAuth 2.1 through the SDK's auth provider interface, against a local
 * authorization server built with the SDK's server-side helpers (servers/oauth-server.ts):
 * discovery, dynamic registration, authorization code with PKCE (S256), token storage that
 * outlives the client, and errors that never show the code or a token.
 */
import {
  McpAuthorizationRequiredError,
  McpTransportError,
  completeMcpAuthorization,
  connectMcp,
  mcpOAuthProvider,
  memoryTokenStore,
  type ConnectMcpOptions,
  type McpTokenStore,
} from 'golem/mcp';
import { startOAuthServer, type OAuthTestServer } from './servers/oauth-server';
import { call, caughtAs, named } from './support';

let server: OAuthTestServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());

/** Options with a provider over `store` that records the authorization URLs it is handed. */
function optionsWith(store: McpTokenStore, urls: URL[]): ConnectMcpOptions {
  return {
    name: 'protected',
    transport: {
      kind: 'http',
      url: server.url,
      auth: mcpOAuthProvider({
        redirectUrl: 'http://127.0.0.1:1/callback',
        onAuthorizationUrl: (url) => {
          urls.push(url);
        },
        store,
      }),
    },
  };
}

/** Follows the authorization URL as a user's browser would and returns the code it redirects with. */
async function authorize(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(location.origin + location.pathname).toBe('http://127.0.0.1:1/callback');
  expect(location.searchParams.get('state')).toBe(url.searchParams.get('state'));
  return location.searchParams.get('code') ?? '';
}

test('without a token: the provider gets a PKCE authorization URL; after the code exchange the call succeeds', async () => {
  const store = memoryTokenStore();
  const urls: URL[] = [];
  const options = optionsWith(store, urls);
  const error = await caughtAs(McpAuthorizationRequiredError.is, () => connectMcp(options));
  expect(error.server).toBe('protected');
  expect(urls).toHaveLength(1);
  const url = urls[0] as URL;
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const registered = [...server.provider.clients.values()];
  expect(registered.map((c) => c.client_name)).toEqual(['golem']);

  await completeMcpAuthorization(options, await authorize(url));
  const saved = await store.load();
  expect(saved?.tokens?.access_token).toMatch(/^access-/);
  expect(saved?.codeVerifier).toBeDefined();

  const client = await connectMcp(options);
  try {
    expect(await call(named(await client.tools(), 'whoami'), {})).toBe(registered[0]?.client_id);
  } finally {
    await client.close();
  }
});

test('the token store is pluggable: a new provider over a stored token connects without authorizing', async () => {
  const store = memoryTokenStore();
  const urls: URL[] = [];
  const first = optionsWith(store, urls);
  await caughtAs(McpAuthorizationRequiredError.is, () => connectMcp(first));
  await completeMcpAuthorization(first, await authorize(urls[0] as URL));
  const again = optionsWith(memoryTokenStore(await store.load()), urls);
  const client = await connectMcp(again);
  await client.close();
  expect(urls).toHaveLength(1);
});

test('a wrong code fails typed, and the error does not show the code', async () => {
  const store = memoryTokenStore();
  const urls: URL[] = [];
  const options = optionsWith(store, urls);
  await caughtAs(McpAuthorizationRequiredError.is, () => connectMcp(options));
  const error = await caughtAs(McpTransportError.is, () =>
    completeMcpAuthorization(options, 'forged-code-123456'),
  );
  expect(error.method).toBe('oauth token');
  expect(error.message).not.toContain('forged-code-123456');
});
