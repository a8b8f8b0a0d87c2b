import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { ACCEPT_ENCODING, codingOf, readBody, type Body } from './body';
import { ACCEPT, isAcceptedType, mediaType } from './content-type';
import { checkStatic, resolveDestination, type StaticCheck } from './destination';
import {
  BlockedDestinationError,
  StatusError,
  TooManyRedirectsError,
  UnsupportedContentTypeError,
  WebFetchError,
} from './errors';
import type { WebFetchConfig } from './options';
import type { FetchScope } from './scope';
import { sendRequest } from './transport';

/** A fetched page: its media type and body. Internal. */
export interface Page {
  readonly url: string;
  readonly mediaType: string;
  readonly body: Body;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `first` (already checked by {@link checkStatic}), following redirects by hand: every hop
 * is checked again and resolved again, caller headers are dropped for good once a hop leaves the
 * first origin, and every response that is not read is destroyed at once.
 */
export async function fetchPage(
  first: StaticCheck,
  config: WebFetchConfig,
  scope: FetchScope,
): Promise<Page> {
  const requested = first.url.href;
  let check = first;
  let callerHeaders: Readonly<Record<string, string>> = config.headers;
  for (let hop = 0; ; hop++) {
    const dest = await resolveDestination(check, config, scope);
    const headers: OutgoingHttpHeaders = {
      accept: ACCEPT,
      ...callerHeaders,
      'user-agent': config.userAgent,
      'accept-encoding': ACCEPT_ENCODING,
    };
    const response = await sendRequest(dest, headers, config.idleTimeout, scope);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location !== undefined) {
      response.destroy();
      if (hop >= config.maxRedirects)
        throw new TooManyRedirectsError(requested, config.maxRedirects);
      const next = redirectTarget(location, check.url);
      if (next.origin !== first.url.origin) callerHeaders = {};
      check = checkStatic(next, config);
      continue;
    }
    const here = check.url.href;
    if (status < 200 || status > 299) {
      response.destroy();
      throw new StatusError(status, requested, here);
    }
    return {
      url: here,
      mediaType: acceptedType(response, here),
      body: await read(response, config, here, scope),
    };
  }
}

function redirectTarget(location: string, base: URL): URL {
  let next: URL;
  try {
    next = new URL(location, base);
  } catch (cause) {
    throw new WebFetchError(base.href, `redirected to an invalid URL ${JSON.stringify(location)}`, {
      cause,
    });
  }
  if (next.username !== '' || next.password !== '') {
    throw new BlockedDestinationError({
      url: next.href,
      host: next.hostname,
      reason: 'the redirect URL carries credentials',
    });
  }
  next.hash = '';
  return next;
}

function acceptedType(response: IncomingMessage, url: string): string {
  const type = mediaType(response.headers['content-type']);
  if (!isAcceptedType(type)) {
    response.destroy();
    throw new UnsupportedContentTypeError(type, url);
  }
  return type;
}

function read(
  response: IncomingMessage,
  config: WebFetchConfig,
  url: string,
  scope: FetchScope,
): Promise<Body> {
  try {
    return readBody(response, codingOf(response, url), config.maxBytes, url, scope);
  } catch (error) {
    response.destroy();
    throw error;
  }
}
