import { cancellationError, isCancellation } from '../../core/errors/cancellation';
import { ModelHTTPError, isRetryableStatus } from '../../core/errors/errors';
import {
  modelConfigError,
  ModelProtocolError,
  ModelTransportError,
  StreamInterruptedError,
} from '../../core/errors/provider-errors';
import { redact } from '../../core/kit/redact';
import { retryAfterMs } from '../shared/retry-after';
import { PROVIDER } from './sdk';

/**
 * Canonical HTTP statuses for Bedrock exceptions that arrive as event-stream frames, where no
 * HTTP status exists (spec §25): throttling 429, model timeout 408, internal server and model
 * stream errors 500, service unavailable 503, validation 400.
 */
export const STREAM_EXCEPTION_STATUS: Readonly<Record<string, number>> = {
  ThrottlingException: 429,
  ModelTimeoutException: 408,
  InternalServerException: 500,
  ModelStreamErrorException: 500,
  ServiceUnavailableException: 503,
  ValidationException: 400,
};

/** Where a failure happened: sending the request, or reading the event stream. */
export type CallPhase = 'request' | 'stream';

/** Context for {@link classifyError}. */
export interface ClassifyContext {
  phase: CallPhase;
  signal?: AbortSignal;
  /** Values that must never appear in messages (secret access key, session token). */
  secrets: readonly string[];
}

/** The fields of an AWS SDK error the classification reads. */
interface SdkErrorShape {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  $fault?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  $response?: { headers?: unknown };
  originalStatusCode?: unknown;
  originalMessage?: unknown;
}

const CODEC_FAILURE = /checksum|message length|too short|header type|unrecognizable event/i;

/**
 * Maps anything the AWS SDK throws to golem's typed errors: an abort → the signal's cancellation
 * error; an HTTP error (SDK `ServiceException` with `$metadata.httpStatusCode`) →
 * `ModelHTTPError{status, code: exception name, retryable, retryAfter}`; an exception frame in
 * the stream → `ModelHTTPError` with its canonical status; missing credentials or region →
 * a model `ConfigError`; a truncated event stream → `StreamInterruptedError`; a frame failing its
 * CRC or carrying malformed JSON → `ModelProtocolError`; a network failure →
 * `ModelTransportError` (request) or `StreamInterruptedError` (stream). Secrets are redacted.
 */
export function classifyError(error: unknown, ctx: ClassifyContext): Error {
  if (ctx.signal?.aborted === true) return cancellationError(ctx.signal);
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape;
  const name = typeof e.name === 'string' ? e.name : '';
  const raw = typeof e.message === 'string' ? e.message : String(error);
  const message = redact(raw, ctx.secrets);
  const status = e.$metadata?.httpStatusCode;
  const isService = e.$fault === 'client' || e.$fault === 'server';
  const cause = safeCause(error, message, message !== raw);

  if (typeof status === 'number' && status >= 300) {
    return new ModelHTTPError({
      status,
      provider: PROVIDER,
      code: isService && name !== 'Unknown' ? name : undefined,
      message: isService ? message : undefined,
      retryable: isRetryableStatus(status) || (isService && e.$retryable != null),
      retryAfter: retryAfterOfResponse(e.$response?.headers),
      cause,
    });
  }
  if (isService) {
    const known = STREAM_EXCEPTION_STATUS[name];
    return new ModelHTTPError({
      status: known ?? (e.$fault === 'server' ? 500 : 400),
      provider: PROVIDER,
      code: name,
      message: withOriginal(message, e),
      cause,
    });
  }
  if (name === 'CredentialsProviderError')
    return modelConfigError(PROVIDER, `could not load AWS credentials: ${message}`);
  if (message === 'Region is missing')
    return modelConfigError(
      PROVIDER,
      'no AWS region: pass `region` (or a client configured with one), or configure a region for the AWS SDK (AWS_REGION or a profile)',
    );
  const firstLine = message.split('\n')[0] ?? '';
  if (firstLine.startsWith('Truncated event message'))
    return new StreamInterruptedError(PROVIDER, 'the event stream ended in the middle of a frame', {
      cause,
    });
  if (name === 'SyntaxError' || CODEC_FAILURE.test(firstLine))
    return new ModelProtocolError(PROVIDER, firstLine, { cause });
  if (ctx.phase === 'stream')
    return new StreamInterruptedError(PROVIDER, describe(e, firstLine), { cause });
  return new ModelTransportError(PROVIDER, describe(e, firstLine), { cause });
}

function describe(e: SdkErrorShape, message: string): string {
  return typeof e.code === 'string' && !message.includes(e.code)
    ? `${message} (${e.code})`
    : message;
}

function withOriginal(message: string, e: SdkErrorShape): string {
  if (typeof e.originalStatusCode !== 'number') return message;
  const original = typeof e.originalMessage === 'string' ? `: ${e.originalMessage}` : '';
  return `${message} (model status ${e.originalStatusCode}${original})`;
}

function retryAfterOfResponse(headers: unknown): number | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const entries = Object.entries(headers).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return retryAfterMs(new Headers(entries));
}

/**
 * The SDK error as the cause, except in two cases where a plain description replaces it: its
 * message carried a secret (redacted here), or the SDK named a network failure `TimeoutError` or
 * `AbortError` (a reset socket is a `TimeoutError: socket hang up`), which in a cause chain would
 * read as a cancellation and stop retries although the run was not cancelled.
 */
function safeCause(error: unknown, message: string, redacted: boolean): unknown {
  if (!redacted && !isCancellation(error)) return error;
  const { name, code } = error as { name?: unknown; code?: unknown };
  const label = [name, code].filter((v) => typeof v === 'string' && v !== '').join(' ');
  return new Error(label === '' ? message : `${label}: ${message}`);
}
