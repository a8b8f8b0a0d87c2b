import { cancellationError } from '../../model/cancellation';
import { ModelHTTPError } from '../../model/errors';
import { ModelTransportError } from '../../model/provider-errors';
import { retryAfterMs } from './retry-after';

/** The `fetch` an adapter uses; inject one to record, proxy or test. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** What a provider's error body says, when it follows a known shape. */
export interface ProviderErrorInfo {
  message?: string;
  code?: string;
}

/** Options of {@link postJson}. */
export interface PostJsonOptions {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
  fetch?: FetchLike;
  /** Extracts message and code from an error body. */
  parseError?: (body: unknown) => ProviderErrorInfo;
  /** Values (API keys, tokens) that must never appear in errors. */
  secrets?: readonly string[];
}

const BODY_LIMIT = 4096;

/**
 * POSTs a JSON body and returns the response when its status is 2xx. An HTTP error becomes
 * `ModelHTTPError` (status, provider code and message, `retryAfter` from `retry-after-ms` or
 * `Retry-After`, truncated body, secrets redacted); a transport failure becomes a retryable
 * `ModelTransportError`; an abort becomes the signal's cancellation error.
 */
export async function postJson(options: PostJsonOptions): Promise<Response> {
  const fetchImpl = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (cause) {
    if (options.signal?.aborted === true) throw cancellationError(options.signal);
    throw new ModelTransportError(options.provider, redact(describe(cause), options.secrets), {
      cause,
    });
  }
  if (response.ok) return response;
  throw await httpError(response, options);
}

/** Builds the `ModelHTTPError` for a non-2xx response (reads and truncates its body). */
export async function httpError(
  response: Response,
  options: Pick<PostJsonOptions, 'provider' | 'parseError' | 'secrets' | 'signal'>,
): Promise<ModelHTTPError> {
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    if (options.signal?.aborted === true) throw cancellationError(options.signal);
    text = cause instanceof Error ? `(body unreadable: ${cause.message})` : '';
  }
  const info = parseErrorBody(text, options.parseError);
  const body = redact(
    text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}…` : text,
    options.secrets,
  );
  return new ModelHTTPError({
    status: response.status,
    provider: options.provider,
    message: info.message === undefined ? undefined : redact(info.message, options.secrets),
    code: info.code,
    retryAfter: retryAfterMs(response.headers),
    body,
  });
}

function parseErrorBody(text: string, parse: PostJsonOptions['parseError']): ProviderErrorInfo {
  if (parse === undefined) return {};
  try {
    return parse(JSON.parse(text));
  } catch {
    return {};
  }
}

/** Replaces every secret in `text` with `[redacted]`. */
export function redact(text: string, secrets: readonly string[] | undefined): string {
  let out = text;
  for (const secret of secrets ?? [])
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as { cause?: unknown }).cause;
    return inner instanceof Error ? `${cause.message} (${inner.message})` : cause.message;
  }
  return String(cause);
}
