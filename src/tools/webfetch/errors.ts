import { GolemError, describeError, brandGuard } from '../../core/kit/error-base';
import { ConfigError } from '../../core/kit/config-error';

/** A `webFetch` option is invalid: a {@link ConfigError} of component `webfetch`; `option` names it. */
export function webFetchConfigError(option: string, message: string): ConfigError {
  return new ConfigError(`webFetch: option \`${option}\` ${message}`, {
    component: 'webfetch',
    option,
  });
}

/** The server answered with a status outside 2xx (after redirects). The body is not read. */
export class StatusError extends GolemError {
  readonly statusCode: number;
  /** The URL the tool was asked to fetch. */
  readonly url: string;
  /** The URL that answered with `statusCode` (differs from `url` after redirects). */
  readonly responseUrl: string;

  constructor(statusCode: number, url: string, responseUrl: string) {
    super('StatusError', `webfetch: GET ${responseUrl} answered HTTP ${statusCode}`);
    this.statusCode = statusCode;
    this.url = url;
    this.responseUrl = responseUrl;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<StatusError>('StatusError');
}

/** The response's media type is not text the tool returns; `contentType` is `""` when missing. */
export class UnsupportedContentTypeError extends GolemError {
  /** The media type, lower-cased and without parameters; `""` when the header was missing. */
  readonly contentType: string;
  readonly url: string;

  constructor(contentType: string, url: string) {
    super(
      'UnsupportedContentTypeError',
      `webfetch: ${url} returned ${contentType === '' ? 'no Content-Type' : `content type "${contentType}"`}; only text, HTML, JSON, XML and YAML are returned`,
    );
    this.contentType = contentType;
    this.url = url;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<UnsupportedContentTypeError>('UnsupportedContentTypeError');
}

/** The response used a `Content-Encoding` the tool does not decode (only gzip, deflate, br). */
export class UnsupportedContentEncodingError extends GolemError {
  readonly encoding: string;
  readonly url: string;

  constructor(encoding: string, url: string) {
    super(
      'UnsupportedContentEncodingError',
      `webfetch: ${url} used content encoding "${encoding}"; only gzip, deflate and br are decoded`,
    );
    this.encoding = encoding;
    this.url = url;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<UnsupportedContentEncodingError>(
    'UnsupportedContentEncodingError',
  );
}

/**
 * The destination is refused by the SSRF policy: a blocked scheme, host name or address, or a
 * host outside `allowedHosts`. Raised before any connection to it is opened.
 */
export class BlockedDestinationError extends GolemError {
  /** The URL refused (the requested one, or the redirect target). */
  readonly url: string;
  /** The host as parsed from the URL. */
  readonly host: string;
  /** The resolved address that was refused, when the refusal is about an address. */
  readonly address: string | undefined;
  /** Why, e.g. `loopback address`, `cloud metadata address`, `not in allowedHosts`. */
  readonly reason: string;

  constructor(init: { url: string; host: string; reason: string; address?: string }) {
    const at =
      init.address === undefined || init.address === init.host
        ? ''
        : ` (resolved to ${init.address})`;
    super(
      'BlockedDestinationError',
      `webfetch: refused to fetch ${init.url}: ${init.host}${at} is blocked: ${init.reason}`,
    );
    this.url = init.url;
    this.host = init.host;
    this.address = init.address;
    this.reason = init.reason;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<BlockedDestinationError>('BlockedDestinationError');
}

/** The redirect chain was longer than `maxRedirects`. */
export class TooManyRedirectsError extends GolemError {
  readonly url: string;
  readonly maxRedirects: number;

  constructor(url: string, maxRedirects: number) {
    super(
      'TooManyRedirectsError',
      `webfetch: ${url} redirected more than ${maxRedirects} time${maxRedirects === 1 ? '' : 's'}`,
    );
    this.url = url;
    this.maxRedirects = maxRedirects;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<TooManyRedirectsError>('TooManyRedirectsError');
}

/** A transport failure (DNS, connection, TLS, malformed response); `cause` holds the original. */
export class WebFetchError extends GolemError {
  readonly url: string;

  constructor(url: string, message: string, options?: { cause?: unknown }) {
    super('WebFetchError', `webfetch: ${url}: ${message}`, options);
    this.url = url;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<WebFetchError>('WebFetchError');
}

/**
 * Readable text of a transport failure, also for Node errors with an empty message (the first
 * member of an empty-message `AggregateError`, or `syscall code address:port`). Realm-independent
 * (no `instanceof`). Internal.
 */
export function causeText(cause: unknown): string {
  const e = (typeof cause === 'object' && cause !== null ? cause : {}) as {
    message?: unknown;
    errors?: unknown;
    code?: unknown;
    syscall?: unknown;
    address?: unknown;
    port?: unknown;
  };
  if (typeof e.message === 'string' && e.message !== '') return e.message;
  if (Array.isArray(e.errors) && e.errors.length > 0) return causeText(e.errors[0]);
  const parts = [e.syscall, e.code].filter((p): p is string => typeof p === 'string');
  if (typeof e.address === 'string') {
    parts.push(typeof e.port === 'number' ? `${e.address}:${e.port}` : e.address);
  }
  return parts.length > 0 ? parts.join(' ') : describeError(cause);
}
