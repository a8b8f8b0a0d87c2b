import { isRecord } from '../../core/kit/guards';
import { ModelHTTPError } from '../../core/errors/errors';
import { StreamInterruptedError } from '../../core/errors/provider-errors';
import { redact } from '../../core/kit/redact';
import type { ProviderErrorInfo } from '../shared/http';
import { PROVIDER } from './options';

/** Error types of the API and the HTTP status each one is documented with. */
const STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** Error types worth retrying when they arrive without an HTTP status (mid-stream). */
const RETRYABLE_TYPES: readonly string[] = [
  'rate_limit_error',
  'api_error',
  'overloaded_error',
  'timeout_error',
];

/** Reads `{type: 'error', error: {type, message}}`: the message, and the error type as code. */
export function parseErrorBody(body: unknown): ProviderErrorInfo {
  const error = isRecord(body) ? body.error : undefined;
  if (!isRecord(error)) return {};
  const info: ProviderErrorInfo = {};
  if (typeof error.message === 'string' && error.message !== '') info.message = error.message;
  if (typeof error.type === 'string' && error.type !== '') info.code = error.type;
  return info;
}

/**
 * The `ModelHTTPError` for an error envelope that arrived without an HTTP error status (an
 * `error` event in a 200 stream, or a 200 body of type `error`): the error type decides — its
 * documented status (500 for unknown types), retryable for rate-limit, api, overloaded and
 * timeout errors only.
 */
export function errorFromEnvelope(payload: unknown, secrets: readonly string[]): ModelHTTPError {
  const info = parseErrorBody(payload);
  const type = info.code ?? 'unknown_error';
  return new ModelHTTPError({
    status: STATUS_OF_TYPE[type] ?? 500,
    provider: PROVIDER,
    message: info.message === undefined ? undefined : redact(info.message, secrets),
    code: type,
    retryable: RETRYABLE_TYPES.includes(type),
    body: redact(JSON.stringify(payload), secrets),
  });
}

/**
 * The typed error for an `error` event inside a 200 stream: a `StreamInterruptedError` with the
 * classified {@link errorFromEnvelope} as cause and the same `retryable`.
 */
export function streamErrorEvent(
  payload: unknown,
  secrets: readonly string[],
): StreamInterruptedError {
  const cause = errorFromEnvelope(payload, secrets);
  const detail = cause.code ?? 'unknown_error';
  const info = parseErrorBody(payload);
  return new StreamInterruptedError(
    PROVIDER,
    `the provider sent an error event (${detail})${info.message === undefined ? '' : `: ${redact(info.message, secrets)}`}`,
    { cause, retryable: cause.retryable },
  );
}
