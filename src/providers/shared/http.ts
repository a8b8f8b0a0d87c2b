import type { FetchLike } from '../../core/contract/fetch';
import { cancellationError } from '../../core/errors/cancellation';
import { ModelHTTPError } from '../../core/errors/errors';
import { modelConfigError, ModelTransportError } from '../../core/errors/provider-errors';
import { readErrorBody } from './body';
import { describeTransportFailure, redact, redactCause } from '../../core/kit/redact';
import { fetchWithRedirectPolicy } from './redirects';
import { retryAfterMs } from './retry-after';

/**
 * What a provider's error body says, when it follows a known shape (`parseOpenAIError`,
 * `parseGeminiError` return it).
 * @inline
 */
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
  /** How long an error body may take to arrive (ms); default 5 s. */
  errorBodyTimeout?: number;
}

/** How much of an error body `ModelHTTPError.body` keeps. */
const BODY_LIMIT = 4096;

/**
 * POSTs a JSON body and returns the response when its status is 2xx.
 *
 * - Redirects: same-origin 307/308 are followed (at most 5 hops, body and headers resent); a
 *   redirect to another origin, or one that would change the method, is a non-retryable
 *   `ModelRedirectError` — the API key and the conversation never leave their origin.
 * - An HTTP error becomes `ModelHTTPError` (status, provider code and message, `retryAfter` from
 *   `retry-after-ms` or `Retry-After`, a truncated body, secrets redacted); its body is read with
 *   a byte cap and a short deadline, so a body that never ends cannot hide the status.
 * - A header value that cannot be sent (CR, LF, NUL or a character above U+00FF, e.g. a pasted
 *   key with a newline) is a model `ConfigError` naming the header, never the value.
 * - A transport failure becomes a retryable `ModelTransportError` whose message and `cause` chain
 *   are redacted copies; an abort becomes the signal's cancellation error.
 */
export async function postJson(options: PostJsonOptions): Promise<Response> {
  const headers = { 'content-type': 'application/json', ...options.headers };
  checkHeaders(options.provider, headers);
  let response: Response;
  try {
    response = await fetchWithRedirectPolicy(options.fetch ?? fetch, options.url, {
      provider: options.provider,
      secrets: options.secrets,
      init: {
        method: 'POST',
        headers,
        body: JSON.stringify(options.body),
        signal: options.signal,
      },
    });
  } catch (cause) {
    if (options.signal?.aborted === true) throw cancellationError(options.signal);
    if (isGolemRedirect(cause)) throw cause;
    throw new ModelTransportError(
      options.provider,
      describeTransportFailure(cause, options.secrets),
      { cause: redactCause(cause, options.secrets) },
    );
  }
  if (response.ok) return response;
  throw await httpError(response, options);
}

function isGolemRedirect(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'ModelRedirectError'
  );
}

/** Throws a model `ConfigError` naming the first header whose value HTTP cannot carry. */
export function checkHeaders(provider: string, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code === 0x0a || code === 0x0d || code === 0 || code > 0xff)
        throw modelConfigError(
          provider,
          `the value of header "${name}" has a character HTTP headers cannot carry at index ${i} (a newline, NUL or non-Latin-1 character); check the key or header you configured`,
        );
    }
  }
}

/**
 * Builds the `ModelHTTPError` for a non-2xx response. The body is read with a byte cap and a
 * short deadline (an endless body still reports the status and `Retry-After`) and truncated.
 */
export async function httpError(
  response: Response,
  options: Pick<
    PostJsonOptions,
    'provider' | 'parseError' | 'secrets' | 'signal' | 'errorBodyTimeout'
  >,
): Promise<ModelHTTPError> {
  const read = await readErrorBody(response, {
    signal: options.signal,
    timeoutMs: options.errorBodyTimeout,
  });
  const text = read.incomplete === undefined ? read.text : `${read.text}… (${read.incomplete})`;
  const info = read.incomplete === undefined ? parseErrorBody(text, options.parseError) : {};
  const body = redact(
    text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}…` : text,
    options.secrets,
  );
  return new ModelHTTPError({
    status: response.status,
    provider: options.provider,
    message: info.message === undefined ? undefined : redact(info.message, options.secrets),
    code: info.code === undefined ? undefined : redact(info.code, options.secrets),
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
