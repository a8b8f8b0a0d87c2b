import { ModelRedirectError } from '../../core/errors/provider-errors';
import { redact } from '../../core/kit/redact';

/** The most same-origin redirects one call follows. */
export const MAX_REDIRECTS = 5;

/** Options of {@link fetchWithRedirectPolicy}. */
export interface RedirectPolicyOptions {
  provider: string;
  /** The request; `redirect` is always forced to `manual`. */
  init: RequestInit;
  /** Secrets to keep out of the `Location` named in errors. */
  secrets?: readonly string[] | undefined;
}

/**
 * Fetches with redirects handled by Golem instead of `fetch`: a 307/308 to the same origin
 * (scheme, host and port) is followed with the same method, headers and body, at most
 * {@link MAX_REDIRECTS} times; anything else that redirects — another origin, a 301/302/303
 * that would turn the POST into a GET, a missing or unparsable `Location`, too many hops — is a
 * non-retryable `ModelRedirectError`. So credentials and the conversation stay with the
 * origin they were configured for, whatever headers the request carries.
 */
export async function fetchWithRedirectPolicy(
  fetchImpl: (input: string, init: RequestInit) => Promise<Response>,
  url: string,
  options: RedirectPolicyOptions,
): Promise<Response> {
  const init: RequestInit = { ...options.init, redirect: 'manual' };
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await fetchImpl(current, init);
    if (!isRedirect(response.status)) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = nextUrl(current, response.headers.get('location'));
    const shown = next === undefined ? '(no valid Location)' : showLocation(next, options.secrets);
    const refuse = (reason: string): never => {
      throw new ModelRedirectError(options.provider, response.status, shown, reason);
    };
    if (next === undefined) refuse('the response has no valid Location header');
    else if (next.origin !== new URL(current).origin)
      refuse(
        'it leads to another origin; credentials and the request body are never sent there (point the adapter at the final URL instead)',
      );
    else if (response.status !== 307 && response.status !== 308)
      refuse('it would change the request method; point the adapter at the final URL instead');
    else if (hop >= MAX_REDIRECTS) refuse(`more than ${MAX_REDIRECTS} redirects`);
    else current = next.href;
  }
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

function nextUrl(base: string, location: string | null): URL | undefined {
  if (location === null || location.trim() === '') return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** The Location for an error message: no userinfo, no query, no fragment, secrets removed. */
function showLocation(url: URL, secrets: readonly string[] | undefined): string {
  return redact(`${url.protocol}//${url.host}${url.pathname}`, secrets);
}
