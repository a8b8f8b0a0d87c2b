import type { IncomingMessage } from 'node:http';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Who may call the endpoint. Internal. */
export interface RequestGuard {
  /** Origins of browser pages allowed besides the endpoint's own (lower case). */
  readonly origins: ReadonlySet<string>;
  /** The endpoint's own origin (lower case). */
  readonly ownOrigin: string;
  /** Whether the endpoint is served on loopback only (the Host must then be a loopback name). */
  readonly loopback: boolean;
}

/** The guard of an endpoint at `url` with these extra allowed origins. */
export function requestGuard(url: URL, allowedOrigins: readonly string[]): RequestGuard {
  return {
    origins: new Set(allowedOrigins.map((o) => o.trim().replace(/\/$/, '').toLowerCase())),
    ownOrigin: url.origin.toLowerCase(),
    loopback: LOOPBACK.has(url.hostname.toLowerCase()),
  };
}

function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Why `req` is refused (a 403 text), or undefined. On a loopback endpoint the `Host` must be a
 * loopback name (DNS-rebinding protection). An `Origin` header (browsers) must be the endpoint's
 * own origin or one of `allowedOrigins`; requests without one (non-browser clients) pass.
 */
export function refusal(req: IncomingMessage, guard: RequestGuard): string | undefined {
  const host = (req.headers.host ?? '').toLowerCase();
  if (guard.loopback && !LOOPBACK.has(hostName(host))) {
    return 'the Host header names a host this server does not serve';
  }
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const value = origin.trim().toLowerCase();
  if (value === guard.ownOrigin || guard.origins.has(value)) return undefined;
  return 'the Origin header names an origin this server does not accept (allowedOrigins)';
}
