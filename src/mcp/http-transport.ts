import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FailureRegistry } from './failures';
import { guardedFetch } from './http-guard';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { sameOriginFetch } from './redirects';
import type { McpSdk } from './sdk';
import type { ResolvedTransport } from './transport-options';

/** Shared between the transport and the session: set when `close()` starts. Internal. */
export interface CloseState {
  closed: boolean;
  /** Reconnection timers the SDK scheduled (it remembers only the last one). */
  readonly timers: Set<NodeJS.Timeout>;
}

type HttpConfig = ResolvedTransport & { kind: 'http' };

/** Largest wait for the session-ending DELETE, in ms. */
export const END_SESSION_TIMEOUT = 1000;

/**
 * The SDK's Streamable HTTP transport over the guarded, same-origin-only fetch. Its reconnection
 * (resuming a stream that ended early) stops once the client closes: `maxRetries` reads 0 from
 * then on, and every reconnection timer it schedules is remembered so `close()` can clear them
 * all (the SDK keeps only the last one; two streams ending together would leave one running).
 */
export function httpTransport(
  sdk: McpSdk,
  config: HttpConfig,
  resolved: { name: string; maxMessageBytes: number },
  failures: FailureRegistry,
  state: CloseState,
): Transport {
  const transport = new sdk.StreamableHTTPClientTransport(config.url, {
    requestInit: { headers: { ...config.headers } },
    fetch: guardedFetch({
      server: resolved.name,
      maxMessageBytes: resolved.maxMessageBytes,
      failures,
      fetch: sameOriginFetch(resolved.name),
    }),
    reconnectionOptions: {
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 30_000,
      reconnectionDelayGrowFactor: 1.5,
      get maxRetries() {
        return state.closed ? 0 : 2;
      },
    },
    ...(config.auth !== undefined && { authProvider: config.auth }),
  });
  trackReconnections(transport, state);
  return transport;
}

/** Remembers each reconnection timer (feature-detected: SDK internals may change). */
function trackReconnections(transport: StreamableHTTPClientTransport, state: CloseState): void {
  const internals = transport as unknown as {
    _scheduleReconnection?: (...args: unknown[]) => void;
    _reconnectionTimeout?: NodeJS.Timeout;
  };
  const schedule = internals._scheduleReconnection;
  if (typeof schedule !== 'function') return;
  internals._scheduleReconnection = (...args: unknown[]) => {
    if (state.closed) return;
    schedule.apply(transport, args);
    if (internals._reconnectionTimeout !== undefined)
      state.timers.add(internals._reconnectionTimeout);
  };
}

/** Clears every reconnection timer. */
export function clearReconnections(state: CloseState): void {
  for (const timer of state.timers) clearTimeout(timer);
  state.timers.clear();
}

/**
 * Ends the HTTP session with `DELETE` after the transport closed (its own `terminateSession`
 * would use the aborted signal): the session id, protocol version, configured headers and the
 * OAuth token, bounded by {@link END_SESSION_TIMEOUT}. Sent with node:http(s) on a connection of
 * its own (no pool), never redirected, so nothing outlives it — also when the server is gone.
 */
export async function endHttpSession(transport: Transport, config: HttpConfig): Promise<void> {
  const http = transport as Partial<StreamableHTTPClientTransport>;
  const sessionId = http.sessionId;
  if (sessionId === undefined) return;
  const headers: Record<string, string> = { ...config.headers, 'mcp-session-id': sessionId };
  if (http.protocolVersion !== undefined) headers['mcp-protocol-version'] = http.protocolVersion;
  const tokens = await config.auth?.tokens();
  if (tokens !== undefined) headers.authorization = `Bearer ${tokens.access_token}`;
  const send = config.url.protocol === 'https:' ? httpsRequest : httpRequest;
  await new Promise<void>((resolve) => {
    const request = send(config.url, { method: 'DELETE', headers, agent: false }, (response) => {
      response.resume();
      response.once('end', resolve);
      response.once('error', () => {
        resolve();
      });
    });
    request.setTimeout(END_SESSION_TIMEOUT, () => {
      request.destroy();
    });
    request.once('error', () => {
      resolve();
    });
    request.once('close', resolve);
    request.end();
  });
}
