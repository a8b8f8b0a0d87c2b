import type { IncomingMessage } from 'node:http';
import { showValue } from '../../core/kit/error-base';
import { fail } from '../option-checks';

/** `scheme://host[:port]`, as a browser sends it in `Origin` (no path, no trailing slash). */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/\s?#@]+$/i;

/** Who may send requests to an HTTP endpoint: the hosts it serves, the origins allowed. Internal. */
export interface RequestPolicy {
  /** Accepted `Host` header values (lower case); undefined = any. */
  readonly hosts: ReadonlySet<string> | undefined;
  /** Accepted `Origin` header values besides the endpoint's own (lower case). */
  readonly origins: ReadonlySet<string>;
}

/** Validates `allowedHosts` and `allowedOrigins`; a bad entry is an `mcp` `ConfigError`. */
export function requestPolicy(allowedHosts: unknown, allowedOrigins: unknown): RequestPolicy {
  return {
    hosts:
      allowedHosts === undefined
        ? undefined
        : new Set(entries('allowedHosts', allowedHosts, (v) => !/[\s/]/.test(v))),
    origins: new Set(
      entries('allowedOrigins', allowedOrigins ?? [], (v) => ORIGIN.test(v)).map((v) =>
        v.replace(/\/$/, ''),
      ),
    ),
  };
}

function entries(option: string, value: unknown, valid: (entry: string) => boolean): string[] {
  if (!Array.isArray(value)) fail(option, `must be an array of strings, got ${showValue(value)}`);
  return (value as unknown[]).map((entry, i) => {
    const text = typeof entry === 'string' ? entry.trim().replace(/\/$/, '') : '';
    if (text === '' || !valid(text)) {
      fail(
        `${option}[${i}]`,
        option === 'allowedOrigins'
          ? `must be an origin like "https://app.example.com", got ${showValue(entry)}`
          : `must be a host like "localhost:3000", got ${showValue(entry)}`,
      );
    }
    return text.toLowerCase();
  });
}

/**
 * Why `req` is refused (the text of a 403), or undefined when it may proceed. The `Host` must be
 * one of `hosts` when they are set. An `Origin` header (sent by browsers) must be one of
 * `origins`, or the endpoint's own origin on a host of `hosts` (`http(s)://<Host>`); without
 * `hosts`, the endpoint's own origin cannot be told from a rebound name, so only `origins` pass.
 * Requests without `Origin` (non-browser clients) pass the origin check.
 */
export function refusal(req: IncomingMessage, policy: RequestPolicy): string | undefined {
  const host = (req.headers.host ?? '').toLowerCase();
  if (policy.hosts !== undefined && !policy.hosts.has(host)) {
    return 'the Host header names a host this server does not serve';
  }
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const value = origin.trim().toLowerCase();
  if (policy.origins.has(value)) return undefined;
  if (policy.hosts !== undefined && (value === `http://${host}` || value === `https://${host}`)) {
    return undefined;
  }
  return 'the Origin header names an origin this server does not accept (allowedOrigins)';
}
