/**
 * A local OAuth 2.1 authorization server and protected MCP endpoint on one loopback port, built
 * with the SDK's server-side auth helpers (`mcpAuthRouter`: metadata, dynamic registration,
 * authorize, token with PKCE verification; `requireBearerAuth`) and an in-memory provider that
 * approves every authorization at once. The MCP endpoint is golem's own `mcpHttpHandler`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  mcpAuthRouter,
  getOAuthProtectedResourceMetadataUrl,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type {
  OAuthServerProvider,
  AuthorizationParams,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type {
  OAuthClientInformationFull,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { defineTool } from 'golem';
import { createMcpServer, mcpHttpHandler } from 'golem/mcp';

type Handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
interface App {
  (req: IncomingMessage, res: ServerResponse): void;
  use(handler: Handler): void;
  all(path: string, ...handlers: Handler[]): void;
}
// express is a dependency of the SDK (no types installed here): typed to what is used.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const express = require('express') as () => App;

/** The SDK's express handlers (typed against express, whose types are not installed here). */
function asHandler(handler: unknown): Handler {
  return handler as Handler;
}

interface Redirecting {
  redirect(url: string): void;
}

/** The in-memory provider: clients, codes and tokens in maps; every authorization approved. */
class MemoryProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, { client: string; params: AuthorizationParams }>();
  readonly tokens = new Map<string, AuthInfo>();
  readonly clientsStore = {
    getClient: (id: string) => Promise.resolve(this.clients.get(id)),
    registerClient: (client: OAuthClientInformationFull) => {
      this.clients.set(client.client_id, client);
      return Promise.resolve(client);
    },
  };

  authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Redirecting,
  ): Promise<void> {
    const code = randomUUID();
    this.codes.set(code, { client: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
    return Promise.resolve();
  }

  challengeForAuthorizationCode(
    _client: OAuthClientInformationFull,
    code: string,
  ): Promise<string> {
    const entry = this.codes.get(code);
    if (entry === undefined) return Promise.reject(new Error('unknown code'));
    return Promise.resolve(entry.params.codeChallenge);
  }

  exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
  ): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (entry?.client !== client.client_id) return Promise.reject(new Error('invalid code'));
    this.codes.delete(code);
    return Promise.resolve(this.issue(client.client_id));
  }

  exchangeRefreshToken(client: OAuthClientInformationFull): Promise<OAuthTokens> {
    return Promise.resolve(this.issue(client.client_id));
  }

  verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = this.tokens.get(token);
    return info === undefined ? Promise.reject(new Error('invalid token')) : Promise.resolve(info);
  }

  private issue(clientId: string): OAuthTokens {
    const token = `access-${randomUUID()}`;
    this.tokens.set(token, {
      token,
      clientId,
      scopes: [],
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    });
    return { access_token: token, token_type: 'bearer', expires_in: 3600 };
  }
}

export interface OAuthTestServer {
  /** The protected MCP endpoint. */
  url: string;
  provider: MemoryProvider;
  close(): Promise<void>;
}

/** Starts the server on an ephemeral loopback port. */
export async function startOAuthServer(): Promise<OAuthTestServer> {
  const current: { app?: App } = {};
  const http = createServer((req, res) => {
    current.app?.(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const mcpUrl = new URL('/mcp', base);
  const provider = new MemoryProvider();
  const served = createMcpServer({
    name: 'protected',
    tools: [
      defineTool({
        name: 'whoami',
        description: 'The OAuth client of this request.',
        schema: { type: 'object' },
        execute: (_args, ctx) => String((ctx.deps as { clientId?: string } | undefined)?.clientId),
      }),
    ],
    depsFor: (request) => ({ clientId: (request.authInfo as AuthInfo | undefined)?.clientId }),
  });
  const handler = mcpHttpHandler(served);
  const app = express();
  current.app = app;
  app.use(
    asHandler(
      mcpAuthRouter({
        provider,
        issuerUrl: new URL(base),
        resourceServerUrl: mcpUrl,
      }),
    ),
  );
  const bearer = asHandler(
    requireBearerAuth({
      verifier: provider,
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    }),
  );
  app.all('/mcp', bearer, (req, res) => {
    void handler(req, res);
  });
  return {
    url: mcpUrl.href,
    provider,
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
