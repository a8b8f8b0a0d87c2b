import { GolemError, brandGuard } from '../../core/kit/error-base';
import { isRecord } from '../../core/kit/guards';
import { redact } from '../../core/kit/redact';
import { PROVIDER } from './options';

/** Error codes of a failed response that trying again may fix. */
const TRANSIENT = /server_error|internal|overloaded|rate_limit|timeout|unavailable|capacity/i;

/**
 * The Responses API reported a failed response: a `response.failed` event, an `error` event in a
 * stream, or a `status: "failed"` body. `retryable` follows the error code (`server_error`,
 * `rate_limit_exceeded`… are retryable; `invalid_prompt` and the like are not).
 */
export class ResponseFailedError extends GolemError {
  readonly provider = PROVIDER;
  readonly retryable: boolean;
  /** The API's error code, when it sent one. */
  readonly code: string | undefined;
  /** The id of the failed response, when known. */
  readonly responseId: string | undefined;

  constructor(message: string, code: string | undefined, responseId: string | undefined) {
    super(
      'ResponseFailedError',
      `${PROVIDER}: the response failed: ${message}${code === undefined ? '' : ` (${code})`}`,
    );
    this.code = code;
    this.responseId = responseId;
    this.retryable = code !== undefined && TRANSIENT.test(code);
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ResponseFailedError>('ResponseFailedError');
}

/**
 * The error of a failed response object (`response.error`) or of an `error` event (its own
 * `code` and `message`), secrets redacted.
 */
export function failureOf(source: unknown, secrets: readonly string[]): ResponseFailedError {
  const record = isRecord(source) ? source : {};
  const error = isRecord(record.error) ? record.error : record;
  const message =
    typeof error.message === 'string' && error.message !== ''
      ? error.message
      : 'the provider reported an error';
  const code = typeof error.code === 'string' && error.code !== '' ? error.code : undefined;
  const id = typeof record.id === 'string' && record.id.startsWith('resp_') ? record.id : undefined;
  return new ResponseFailedError(
    redact(message, secrets),
    code === undefined ? undefined : redact(code, secrets),
    id,
  );
}
