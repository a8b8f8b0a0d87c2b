import { ModelHTTPError } from '../../core/errors/errors';
import { isRecord } from '../../core/kit/guards';
import { requestedWaitMs } from '../../core/kit/timeouts';
import { StreamInterruptedError } from '../../core/errors/provider-errors';
import { redact } from '../../core/kit/redact';
import type { ProviderErrorInfo } from '../shared/http';

const BODY_LIMIT = 4096;

/** The `error` object of a Google API error body (`{error: {...}}` or `[{error: {...}}]`). */
function errorObject(body: unknown): Record<string, unknown> | undefined {
  const envelope = Array.isArray(body) ? (body as unknown[])[0] : body;
  return isRecord(envelope) && isRecord(envelope.error) ? envelope.error : undefined;
}

/**
 * Reads a Google error body `{error: {code, message, status}}`: the code is the status string
 * (`NOT_FOUND`, `INVALID_ARGUMENT`, `RESOURCE_EXHAUSTED`…), the message is `error.message`.
 */
export function parseGeminiError(body: unknown): ProviderErrorInfo {
  const error = errorObject(body);
  if (error === undefined) return {};
  const info: ProviderErrorInfo = {};
  if (typeof error.message === 'string' && error.message !== '') info.message = error.message;
  if (typeof error.status === 'string' && error.status !== '') info.code = error.status;
  return info;
}

/**
 * Milliseconds from a `google.rpc.RetryInfo` detail (`retryDelay: "34.4s"`), if any: rounded up,
 * saturated at `MAX_TIMEOUT_MS` ("at least that long"), `undefined` for a malformed delay.
 */
export function retryInfoMs(body: unknown): number | undefined {
  const details = errorObject(body)?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    if (!isRecord(detail) || typeof detail['@type'] !== 'string') continue;
    if (!detail['@type'].endsWith('google.rpc.RetryInfo')) continue;
    const delay = detail.retryDelay;
    if (typeof delay === 'string' && /^\d+(\.\d+)?s$/.test(delay))
      return requestedWaitMs(Number(delay.slice(0, -1)) * 1000);
  }
  return undefined;
}

/**
 * `error` with `retryAfter` taken from the body's `RetryInfo` when no header gave one (Gemini
 * reports quota waits there, not in `Retry-After`).
 */
export function withRetryInfo(error: ModelHTTPError): ModelHTTPError {
  if (error.retryAfter !== undefined || error.body === undefined) return error;
  let body: unknown;
  try {
    body = JSON.parse(error.body);
  } catch {
    return error;
  }
  const retryAfter = retryInfoMs(body);
  if (retryAfter === undefined) return error;
  return new ModelHTTPError({
    status: error.status,
    provider: error.provider,
    message: parseGeminiError(body).message,
    code: error.code,
    retryable: error.retryable,
    retryAfter,
    body: error.body,
    cause: error.cause,
  });
}

/**
 * An `{error: {...}}` frame inside a stream (Gemini sends one and closes when generation fails
 * after the 200 status). With a numeric HTTP-like `code` it becomes a `ModelHTTPError` carrying
 * that status (so 429/5xx stay retryable), otherwise a retryable `StreamInterruptedError`.
 */
export function streamErrorFrame(
  provider: string,
  payload: unknown,
  data: string,
  secrets: readonly string[],
): ModelHTTPError | StreamInterruptedError {
  const info = parseGeminiError(payload);
  const status = errorObject(payload)?.code;
  const message = redact(info.message ?? 'the provider reported an error', secrets);
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599)
    return new StreamInterruptedError(provider, `error frame: ${message}`);
  const body = redact(data.length > BODY_LIMIT ? `${data.slice(0, BODY_LIMIT)}…` : data, secrets);
  return new ModelHTTPError({
    status,
    provider,
    message,
    code: info.code === undefined ? undefined : redact(info.code, secrets),
    retryAfter: retryInfoMs(payload),
    body,
  });
}
