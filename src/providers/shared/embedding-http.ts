import { cancellationError } from '../../core/errors/cancellation';
import { ModelHTTPError } from '../../core/errors/errors';
import type { FetchLike } from '../../core/contract/fetch';
import { readBodyJson } from './body';
import { CallScope } from './call-scope';
import { postJson, type ProviderErrorInfo } from './http';

/** Where and how a fetch-based embedding adapter posts one batch. */
export interface EmbeddingEndpoint {
  /** Provider label for errors. */
  readonly provider: string;
  readonly url: string;
  readonly fetch: FetchLike | undefined;
  /** Whole-call timeout per request in ms; 0 = none. */
  readonly timeout: number;
  /** Largest accepted success body in bytes. */
  readonly maxResponseBytes: number;
  /** How long an error body may take to arrive (ms); `undefined` = the shared default. */
  readonly errorBodyTimeout: number | undefined;
  /** Reads the provider's error body shape. */
  readonly parseError: (body: unknown) => ProviderErrorInfo;
  /** Adjusts an HTTP error's classification (e.g. a 429 out-of-credit is not retryable). */
  readonly refine?: (error: ModelHTTPError) => ModelHTTPError;
}

/** Request headers for one call and the secrets in them. */
export interface EmbeddingAuth {
  headers: Record<string, string>;
  secrets: string[];
}

/**
 * POSTs one embedding batch and returns the parsed JSON body, with the chat calls' network
 * guarantees (they share `postJson` and `readBodyJson`): same-origin redirects only,
 * `ModelHTTPError` with `Retry-After` and a bounded, redacted error body, retryable transport
 * faults, the success body capped at `maxResponseBytes`, the adapter timeout, and the caller's
 * abort surfacing as its cancellation error. `auth` is called inside the call scope (a token
 * callback is bounded by the timeout too); `parse` reads the body within the same scope.
 */
export async function postEmbeddingBatch<T>(
  endpoint: EmbeddingEndpoint,
  auth: () => EmbeddingAuth | Promise<EmbeddingAuth>,
  body: unknown,
  signal: AbortSignal | undefined,
  parse: (json: unknown, secrets: readonly string[]) => T,
): Promise<T> {
  const scope = new CallScope({ provider: endpoint.provider, timeout: endpoint.timeout, signal });
  return scope.run(async (callSignal) => {
    const { headers, secrets } = await untilAborted(auth(), callSignal);
    let response: Response;
    try {
      response = await postJson({
        provider: endpoint.provider,
        url: endpoint.url,
        headers,
        body,
        signal: callSignal,
        fetch: endpoint.fetch,
        parseError: endpoint.parseError,
        secrets,
        errorBodyTimeout: endpoint.errorBodyTimeout,
      });
    } catch (error) {
      if (ModelHTTPError.is(error) && endpoint.refine !== undefined) throw endpoint.refine(error);
      throw error;
    }
    const json = await readBodyJson(response, {
      provider: endpoint.provider,
      maxBytes: endpoint.maxResponseBytes,
      signal: callSignal,
      secrets,
    });
    return parse(json, secrets);
  });
}

/** `work`, or a rejection as soon as `signal` aborts (a token callback may hang). */
async function untilAborted<T>(work: T | Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw cancellationError(signal);
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      reject(cancellationError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
