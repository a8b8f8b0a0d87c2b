import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { describeError } from '../core/kit/error-base';
import { mcpConfigError, McpTransportError } from './errors';
import { FailureRegistry } from './failures';
import { httpTransport } from './http-transport';
import { resolveConnectOptions, type ConnectMcpOptions } from './options';
import { loadMcpSdk } from './sdk';
import { redactText, transportSecrets } from './secrets';

/** What an OAuth provider keeps between runs: tokens, the registered client, the PKCE verifier. */
export interface McpStoredAuth {
  tokens?: OAuthTokens;
  clientInformation?: OAuthClientInformationMixed;
  codeVerifier?: string;
}

/** Where {@link mcpOAuthProvider} keeps {@link McpStoredAuth} (a file, a database, a vault…). */
export interface McpTokenStore {
  load(): McpStoredAuth | undefined | Promise<McpStoredAuth | undefined>;
  save(value: McpStoredAuth): void | Promise<void>;
}

/** A token store in memory (lost with the process): the default. */
export function memoryTokenStore(initial: McpStoredAuth = {}): McpTokenStore {
  let value: McpStoredAuth = { ...initial };
  return {
    load: () => value,
    save: (next) => {
      value = { ...next };
    },
  };
}

/** Options of {@link mcpOAuthProvider}. */
export interface McpOAuthProviderOptions {
  /** Where the authorization server sends the user back with `?code=…`. */
  redirectUrl: string | URL;
  /**
   * Receives the authorization URL (with the PKCE challenge and state): open it in a browser, or
   * show it to the user. The connection attempt then fails with `McpAuthorizationRequiredError`.
   */
  onAuthorizationUrl: (url: URL) => void | Promise<void>;
  /** Where tokens, the client registration and the verifier live; default in memory. */
  store?: McpTokenStore;
  /** A pre-registered client; default: dynamic client registration. */
  clientInformation?: OAuthClientInformationMixed;
  /** Extra client metadata for dynamic registration (name, scope…). */
  clientMetadata?: Partial<OAuthClientMetadata>;
}

/**
 * An `OAuthClientProvider` (the SDK's interface) for `transport.auth`: authorization code flow
 * with PKCE (the SDK makes the verifier and challenge; the verifier is kept in the store),
 * dynamic client registration unless `clientInformation` is given, tokens in the store
 * (refreshed by the SDK when they expire).
 */
export function mcpOAuthProvider(options: McpOAuthProviderOptions): OAuthClientProvider {
  if (typeof options.onAuthorizationUrl !== 'function') {
    throw mcpConfigError('auth.onAuthorizationUrl', 'must be a function receiving the URL');
  }
  const redirectUrl = String(options.redirectUrl);
  const store = options.store ?? memoryTokenStore();
  const load = async (): Promise<McpStoredAuth> => (await store.load()) ?? {};
  const update = async (change: Partial<McpStoredAuth>) => {
    await store.save({ ...(await load()), ...change });
  };
  return {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: 'golem',
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        ...options.clientMetadata,
      };
    },
    clientInformation: async () => options.clientInformation ?? (await load()).clientInformation,
    saveClientInformation: (clientInformation) => update({ clientInformation }),
    tokens: async () => (await load()).tokens,
    saveTokens: (tokens) => update({ tokens }),
    redirectToAuthorization: (url) => options.onAuthorizationUrl(url),
    saveCodeVerifier: (codeVerifier) => update({ codeVerifier }),
    codeVerifier: async () => {
      const verifier = (await load()).codeVerifier;
      if (verifier === undefined)
        throw new Error('no PKCE code verifier is stored; start the authorization again');
      return verifier;
    },
    invalidateCredentials: async (scope) => {
      const current = await load();
      await store.save({
        ...(scope !== 'all' &&
          scope !== 'tokens' &&
          current.tokens !== undefined && { tokens: current.tokens }),
        ...(scope !== 'all' &&
          scope !== 'client' &&
          current.clientInformation !== undefined && {
            clientInformation: current.clientInformation,
          }),
        ...(scope !== 'all' &&
          scope !== 'verifier' &&
          current.codeVerifier !== undefined && { codeVerifier: current.codeVerifier }),
      });
    },
  };
}

/**
 * Finishes an authorization: exchanges the `code` the redirect URL received (with the stored PKCE
 * verifier) for tokens, which the provider saves. Then `connectMcp(options)` succeeds.
 */
export async function completeMcpAuthorization(
  options: ConnectMcpOptions,
  code: string,
): Promise<void> {
  const resolved = resolveConnectOptions(options);
  const config = resolved.transport;
  if (config.kind !== 'http' || config.auth === undefined) {
    throw mcpConfigError(
      'transport.auth',
      'is needed to complete an authorization (an http transport with auth)',
    );
  }
  if (typeof code !== 'string' || code === '')
    throw mcpConfigError('code', 'must be the authorization code');
  const sdk = loadMcpSdk();
  const transport = httpTransport(sdk, config, resolved, new FailureRegistry(), {
    closed: false,
    timers: new Set(),
  }) as unknown as { finishAuth(code: string): Promise<void>; close(): Promise<void> };
  try {
    await transport.finishAuth(code);
  } catch (error) {
    const secrets = [code, ...transportSecrets(config.headers, config.url)];
    throw new McpTransportError({
      server: resolved.name,
      method: 'oauth token',
      message: redactText(describeError(error), secrets),
    });
  } finally {
    await transport.close();
  }
}
