import { isRecord } from '../../core/kit/guards';
import { ModelHTTPError } from '../../core/errors/errors';
import { ModelProtocolError, StreamInterruptedError } from '../../core/errors/provider-errors';
import type { ProviderErrorInfo } from '../shared/http';
import { redact } from '../../core/kit/redact';

/**
 * Reads an OpenAI-style error body: `{error: {message, type, code}}` (code may be a number, as
 * OpenRouter sends), `{error: "text"}` (Ollama), `{message, code|type}` or `{detail}` (vLLM and
 * other FastAPI servers), or a one-element array of any of these. `code` is the provider's code,
 * falling back to its `type`.
 */
export function parseOpenAIError(body: unknown): ProviderErrorInfo {
  if (Array.isArray(body)) return body.length > 0 ? parseOpenAIError(body[0]) : {};
  if (!isRecord(body)) return {};
  const envelope = isRecord(body.error) ? body.error : body;
  const info: ProviderErrorInfo = {};
  const message =
    typeof body.error === 'string'
      ? body.error
      : typeof envelope.message === 'string'
        ? envelope.message
        : typeof body.detail === 'string'
          ? body.detail
          : undefined;
  if (message !== undefined && message !== '') info.message = message;
  const code = codeText(envelope.code) ?? codeText(envelope.type);
  if (code !== undefined) info.code = code;
  return info;
}

function codeText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Error codes whose 429 means "out of credit": retrying cannot help. */
const NOT_RETRYABLE_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached']);

/**
 * Adjusts the classification of an HTTP error: a 429 with code `insufficient_quota` (no credit
 * left) is not retryable. Other errors are returned unchanged.
 */
export function refineHttpError(error: ModelHTTPError): ModelHTTPError {
  if (!error.retryable || error.code === undefined || !NOT_RETRYABLE_CODES.has(error.code))
    return error;
  const prefix = `${error.provider}: HTTP ${error.status}: `;
  return new ModelHTTPError({
    status: error.status,
    provider: error.provider,
    message: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : undefined,
    code: error.code,
    retryable: false,
    retryAfter: error.retryAfter,
    body: error.body,
  });
}

const TRANSIENT = /server_error|internal|overloaded|rate_limit|timeout|unavailable|capacity/i;

/**
 * The error for an error object delivered with a 200 status — inside a stream (`data: {"error":
 * …}` or an `event: error` frame) or as a whole body. A numeric HTTP status code (OpenRouter)
 * becomes `ModelHTTPError` with that status; otherwise a stream error is a
 * `StreamInterruptedError`, retryable when the code or type says the failure is transient, and a
 * whole-body error is a `ModelProtocolError`.
 */
export function embeddedError(
  provider: string,
  frame: unknown,
  where: 'stream' | 'body',
  secrets: readonly string[],
): Error {
  const info = parseOpenAIError(frame);
  const envelope = isRecord(frame) && isRecord(frame.error) ? frame.error : frame;
  const rawCode = isRecord(envelope) ? envelope.code : undefined;
  const message = redact(info.message ?? 'the provider reported an error', secrets);
  const body = redact(truncate(JSON.stringify(frame)), secrets);
  if (typeof rawCode === 'number' && Number.isInteger(rawCode) && rawCode >= 400 && rawCode < 600)
    return new ModelHTTPError({ status: rawCode, provider, message, code: info.code, body });
  const detail = info.code === undefined ? message : `${message} (${info.code})`;
  if (where === 'body')
    return new ModelProtocolError(provider, `error body with status 200: ${detail}`);
  const type = isRecord(envelope) && typeof envelope.type === 'string' ? envelope.type : '';
  return new StreamInterruptedError(provider, `the provider sent an error: ${detail}`, {
    retryable: TRANSIENT.test(`${info.code ?? ''} ${type}`),
  });
}

function truncate(text: string): string {
  return text.length > 4096 ? `${text.slice(0, 4096)}…` : text;
}
