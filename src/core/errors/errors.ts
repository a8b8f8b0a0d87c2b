import { GolemError, describeError, brandGuard } from '../kit/error-base';
import { isCancellation } from './cancellation';
import { errorChain } from '../kit/error-chain';
import { safeGet } from '../kit/safe-inspect';

/**
 * A correctable rejection: thrown by a tool or an output decoder, it is fed back to the model
 * (within the retry budget) so the model can correct itself.
 */
export class ModelRetry extends GolemError {
  /** What the model must correct; inserted verbatim into the model-facing rejection text. */
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(
      'ModelRetry',
      `model output rejected: ${reason === '' ? '(no reason)' : reason}`,
      options,
    );
    this.reason = reason;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ModelRetry>('ModelRetry');
}

/**
 * Options of a {@link ModelHTTPError}.
 * @inline
 */
export interface ModelHTTPErrorInit {
  status: number;
  provider: string;
  message?: string;
  /** Provider error code, e.g. `rate_limit_exceeded`. */
  code?: string;
  /** Overrides the status-based classification. */
  retryable?: boolean;
  /** Milliseconds the provider asked to wait (from `Retry-After` and similar). */
  retryAfter?: number;
  /** The response body, truncated, for diagnosis. */
  body?: string;
  cause?: unknown;
}

/**
 * A provider answered with an HTTP error. 408, 429 and every status >= 500 are retryable unless
 * the adapter says otherwise.
 */
export class ModelHTTPError extends GolemError {
  readonly status: number;
  readonly provider: string;
  readonly code: string | undefined;
  readonly retryable: boolean;
  readonly retryAfter: number | undefined;
  readonly body: string | undefined;

  constructor(init: ModelHTTPErrorInit) {
    const detail = init.message ?? init.body ?? '';
    super(
      'ModelHTTPError',
      `${init.provider}: HTTP ${init.status}${detail === '' ? '' : `: ${detail}`}`,
      { cause: init.cause },
    );
    this.status = init.status;
    this.provider = init.provider;
    this.code = init.code;
    this.retryable = init.retryable ?? isRetryableStatus(init.status);
    this.retryAfter = init.retryAfter;
    this.body = init.body;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ModelHTTPError>('ModelHTTPError');
}

/** Whether an HTTP status is transient: 408, 429 or any 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** A model returned something that is not a valid response (wrong role, malformed calls…). Not retryable. */
export class ModelResponseError extends GolemError {
  /** The offending response as received, kept as evidence. */
  readonly response: unknown;
  readonly retryable = false;

  constructor(message: string, response: unknown) {
    super('ModelResponseError', `invalid model response: ${message}`);
    this.response = response;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ModelResponseError>('ModelResponseError');
}

/**
 * Retry classification (spec §11.1): a cancellation anywhere in the chain → false; otherwise the
 * first error exposing a boolean `retryable` decides; a ModelRetry is a hard stop; else false.
 * Never throws: an unreadable `retryable` (a throwing getter, a revoked proxy) says nothing.
 */
export function isRetryable(error: unknown): boolean {
  if (error === undefined || error === null || isCancellation(error)) return false;
  for (const e of errorChain(error)) {
    if (ModelRetry.is(e)) return false;
    if (typeof e !== 'object' || e === null) continue;
    const retryable = safeGet(e, 'retryable');
    if (typeof retryable === 'boolean') return retryable;
  }
  return false;
}

/**
 * The milliseconds a provider asked to wait before retrying, from the first error that says.
 * Never throws: an unreadable `retryAfter` says nothing.
 */
export function retryAfterOf(error: unknown): number | undefined {
  for (const e of errorChain(error)) {
    if (typeof e !== 'object' || e === null) continue;
    const after = safeGet(e, 'retryAfter');
    if (typeof after === 'number' && Number.isFinite(after) && after >= 0) return after;
  }
  return undefined;
}

export { describeError };
