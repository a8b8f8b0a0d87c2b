import { GolemError, brandGuard } from '../kit/error-base';
import { ConfigError } from '../kit/config-error';

/** The connection to a provider failed (DNS, refused, reset, TLS). Retryable. */
export class ModelTransportError extends GolemError {
  readonly provider: string;
  readonly retryable = true;

  constructor(provider: string, message: string, options?: { cause?: unknown }) {
    super('ModelTransportError', `${provider}: transport failure: ${message}`, options);
    this.provider = provider;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ModelTransportError>('ModelTransportError');
}

/**
 * A streamed response ended before the provider's end-of-stream signal (connection reset, EOF
 * mid-event, an error event). `retryable` says whether trying again may help.
 */
export class StreamInterruptedError extends GolemError {
  readonly provider: string;
  readonly retryable: boolean;

  constructor(
    provider: string,
    message: string,
    options: { cause?: unknown; retryable?: boolean } = {},
  ) {
    super('StreamInterruptedError', `${provider}: stream interrupted: ${message}`, {
      cause: options.cause,
    });
    this.provider = provider;
    this.retryable = options.retryable ?? true;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<StreamInterruptedError>('StreamInterruptedError');
}

/** A provider sent a frame or body that does not follow its documented format. Not retryable. */
export class ModelProtocolError extends GolemError {
  readonly provider: string;
  readonly retryable = false;

  constructor(provider: string, message: string, options?: { cause?: unknown }) {
    super('ModelProtocolError', `${provider}: protocol error: ${message}`, options);
    this.provider = provider;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ModelProtocolError>('ModelProtocolError');
}

/**
 * A model adapter's configuration is invalid (missing key, out-of-range setting…): a
 * {@link ConfigError} of component `model` naming the `provider`.
 */
export function modelConfigError(provider: string, message: string): ConfigError {
  return new ConfigError(`${provider}: ${message}`, { component: 'model', provider });
}

/**
 * A provider endpoint answered with a redirect Golem will not follow: to another origin (the
 * request would carry the API key and the conversation there), or one that would change the
 * method (301/302/303), or too many hops. Not retryable; `location` names where it pointed
 * (credentials and query removed).
 */
export class ModelRedirectError extends GolemError {
  readonly provider: string;
  readonly retryable = false;
  /** The HTTP status of the redirect. */
  readonly status: number;
  /** Where the redirect pointed, without userinfo or query string. */
  readonly location: string;

  constructor(provider: string, status: number, location: string, reason: string) {
    super(
      'ModelRedirectError',
      `${provider}: refused to follow a ${status} redirect to ${location}: ${reason}`,
    );
    this.provider = provider;
    this.status = status;
    this.location = location;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ModelRedirectError>('ModelRedirectError');
}

/** A provider's response body exceeded the adapter's byte cap; it was not buffered further. */
export class ResponseTooLargeError extends GolemError {
  readonly provider: string;
  readonly retryable = false;
  /** The cap in bytes that was exceeded. */
  readonly limit: number;

  constructor(provider: string, limit: number) {
    super(
      'ResponseTooLargeError',
      `${provider}: the response body exceeded ${limit} bytes; raise the adapter's maxResponseBytes if this is expected`,
    );
    this.provider = provider;
    this.limit = limit;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ResponseTooLargeError>('ResponseTooLargeError');
}
