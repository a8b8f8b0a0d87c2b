import { GolemError, hasKind } from './error-base';

/** The connection to a provider failed (DNS, refused, reset, TLS). Retryable. */
export class ModelTransportError extends GolemError {
  readonly provider: string;
  readonly retryable = true;

  constructor(provider: string, message: string, options?: { cause?: unknown }) {
    super('ModelTransportError', `${provider}: transport failure: ${message}`, options);
    this.provider = provider;
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is ModelTransportError {
    return hasKind(value, 'ModelTransportError');
  }
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
  static is(value: unknown): value is StreamInterruptedError {
    return hasKind(value, 'StreamInterruptedError');
  }
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
  static is(value: unknown): value is ModelProtocolError {
    return hasKind(value, 'ModelProtocolError');
  }
}

/** A model adapter's configuration is invalid (missing key, out-of-range setting…). */
export class ModelConfigError extends GolemError {
  readonly provider: string;

  constructor(provider: string, message: string) {
    super('ModelConfigError', `${provider}: ${message}`);
    this.provider = provider;
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is ModelConfigError {
    return hasKind(value, 'ModelConfigError');
  }
}
