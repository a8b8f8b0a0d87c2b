import { isRecord } from '../core/kit/guards';
import { McpRedirectError } from './errors';

/** The most redirects followed for one request. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * Wraps `fetch` for the MCP HTTP transport so that no request (with its headers and its message)
 * ever leaves the endpoint's origin. Every request is made with `redirect: 'manual'`; a 307 or
 * 308 whose `Location` has the same scheme, host and port is followed (method, headers and body
 * kept; at most {@link MAX_REDIRECTS} hops); any other redirect — another origin, a 301/302/303,
 * credentials in the `Location`, too many hops — throws `McpRedirectError` before anything
 * is sent to the target. Responses that are not redirects are returned as they are.
 */
export function sameOriginFetch(server: string, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const followable = !(input instanceof Request);
    let url = new URL(input instanceof Request ? input.url : input);
    const origin = url.origin;
    for (let hop = 0; ; hop++) {
      const response = await base(hop === 0 ? input : url, { ...init, redirect: 'manual' });
      const location = REDIRECT_STATUSES.has(response.status)
        ? response.headers.get('location')
        : null;
      if (location === null) return response;
      await response.body?.cancel().catch(() => undefined);
      const target = parseLocation(location, url);
      const refuse = (reason: string) =>
        new McpRedirectError({
          server,
          method: requestLabel(init),
          status: response.status,
          location: target === undefined ? '' : shownUrl(target),
          reason,
        });
      if (target === undefined) throw refuse('with a Location that is not a valid URL');
      const to = shownUrl(target);
      if (target.username !== '' || target.password !== '') {
        throw refuse(`to ${to} with credentials in the URL, which is never followed`);
      }
      if (target.origin !== origin) {
        throw refuse(
          `to ${to}, another origin; redirects are followed only within the endpoint's origin (${origin}) so that headers and messages never reach another server`,
        );
      }
      if (response.status !== 307 && response.status !== 308) {
        throw refuse(
          `to ${to}; only 307 and 308 are followed (301, 302 and 303 would turn the POST into a GET and drop the message)`,
        );
      }
      if (!followable) throw refuse(`to ${to}, which is not followed for a Request object`);
      if (hop === MAX_REDIRECTS) {
        throw refuse(`to ${to} after ${MAX_REDIRECTS} redirects already followed (a loop?)`);
      }
      url = target;
    }
  };
}

function parseLocation(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** A URL safe to show: no credentials, query or fragment (a query is marked, not shown). */
export function shownUrl(url: URL): string {
  return `${url.origin}${url.pathname}${url.search === '' ? '' : '?[redacted]'}`;
}

/** What the request was, for messages: the JSON-RPC method of a POST, else the stream or close. */
function requestLabel(init: RequestInit | undefined): string {
  const verb = (init?.method ?? 'GET').toUpperCase();
  if (verb === 'GET') return 'event stream';
  if (verb === 'DELETE') return 'close';
  if (typeof init?.body !== 'string') return verb;
  try {
    const message: unknown = JSON.parse(init.body);
    return isRecord(message) && typeof message.method === 'string' ? message.method : verb;
  } catch {
    return verb;
  }
}
