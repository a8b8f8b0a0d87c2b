import { ModelHTTPError } from '../../core/errors/errors';
import {
  ModelProtocolError,
  ModelRedirectError,
  ResponseTooLargeError,
} from '../../core/errors/provider-errors';
import { redact } from '../../core/kit/redact';
import { retryAfterMs } from '../shared/retry-after';
import { PROVIDER } from './sdk';

type Handler = (args: unknown) => Promise<{ response: unknown }>;

/** The raw HTTP response the SDK's handler returns. */
interface RawResponse {
  statusCode?: unknown;
  headers?: Record<string, unknown>;
  body?: unknown;
}

/** Limits of a {@link ResponseGuard}. */
export interface ResponseGuardLimits {
  /** Whether the call is ConverseStream (an event stream is expected). */
  streaming: boolean;
  /** Largest accepted non-streaming success body in bytes. */
  maxResponseBytes: number;
  /** How long an error body may take to arrive, in ms. */
  errorBodyTimeout: number;
  /** Secrets to keep out of messages. */
  secrets: readonly string[];
}

const ERROR_BODY_MAX = 64 * 1024;
const EVENT_STREAM = 'application/vnd.amazon.eventstream';

/**
 * A deserialize-step middleware that sees the raw HTTP response before the SDK reads it, and
 * holds Bedrock to the same network guarantees as the fetch-based adapters: a redirect is never
 * followed (`ModelRedirectError`, naming the Location); an error body is read with a byte cap
 * and a deadline, so an endless one still yields `ModelHTTPError` with its status and
 * Retry-After; a Converse body over `maxResponseBytes` is `ResponseTooLargeError`; a
 * ConverseStream answer that is not an event stream is a `ModelProtocolError`. The SDK decorates
 * errors thrown from middleware, so the typed error is kept in `failure` for the caller.
 */
export class ResponseGuard {
  failure: Error | undefined;

  constructor(private readonly limits: ResponseGuardLimits) {}

  readonly middleware = (next: Handler): Handler => {
    return async (args) => {
      const result = await next(args);
      const response = result.response as RawResponse;
      const status = typeof response.statusCode === 'number' ? response.statusCode : 0;
      const headers = response.headers ?? {};
      if (status >= 300 && status < 400 && status !== 304) {
        await discard(response.body);
        throw this.fail(this.redirect(status, header(headers, 'location')));
      }
      if (status >= 300) {
        const read = await readBounded(response.body, ERROR_BODY_MAX, this.limits.errorBodyTimeout);
        if (read.complete) response.body = read.bytes;
        else throw this.fail(this.incompleteError(status, headers, read));
      } else if (this.limits.streaming) {
        const type = header(headers, 'content-type');
        if (type !== undefined && !type.toLowerCase().startsWith(EVENT_STREAM)) {
          await discard(response.body);
          throw this.fail(
            new ModelProtocolError(
              PROVIDER,
              `expected an ${EVENT_STREAM} response to ConverseStream, got content type ${JSON.stringify(type.slice(0, 100))}`,
            ),
          );
        }
      } else {
        const read = await readBounded(response.body, this.limits.maxResponseBytes + 1, 0);
        if (read.bytes.byteLength > this.limits.maxResponseBytes)
          throw this.fail(new ResponseTooLargeError(PROVIDER, this.limits.maxResponseBytes));
        response.body = read.bytes;
      }
      return result;
    };
  };

  private fail(error: Error): Error {
    this.failure = error;
    return error;
  }

  private redirect(status: number, location: string | undefined): ModelRedirectError {
    let shown = '(no Location)';
    if (location !== undefined) {
      try {
        const url = new URL(location, 'http://unknown.invalid');
        shown = redact(`${url.protocol}//${url.host}${url.pathname}`, this.limits.secrets);
      } catch {
        shown = '(an unparsable Location)';
      }
    }
    return new ModelRedirectError(
      PROVIDER,
      status,
      shown,
      'the Bedrock adapter never follows redirects (signed requests and the conversation stay with the configured endpoint)',
    );
  }

  private incompleteError(
    status: number,
    headers: Record<string, unknown>,
    read: BoundedRead,
  ): ModelHTTPError {
    const text = redact(new TextDecoder().decode(read.bytes), this.limits.secrets);
    const retryHeaders = new Headers();
    for (const name of ['retry-after', 'retry-after-ms']) {
      const value = header(headers, name);
      if (value !== undefined) retryHeaders.set(name, value);
    }
    return new ModelHTTPError({
      status,
      provider: PROVIDER,
      code: header(headers, 'x-amzn-errortype')?.split(':')[0],
      retryAfter: retryAfterMs(retryHeaders),
      body: `${text.slice(0, 4096)}… (${read.reason ?? 'incomplete'})`,
    });
  }
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  return undefined;
}

interface BoundedRead {
  bytes: Uint8Array;
  complete: boolean;
  reason?: string;
}

/**
 * Reads `body` (a Node stream or any async iterable of bytes) up to `maxBytes`, for at most
 * `timeoutMs` (0 = no deadline); an unfinished body is destroyed so its socket is released.
 */
async function readBounded(
  body: unknown,
  maxBytes: number,
  timeoutMs: number,
): Promise<BoundedRead> {
  if (body instanceof Uint8Array) return { bytes: body, complete: body.byteLength <= maxBytes };
  if (!isAsyncIterable(body)) return { bytes: new Uint8Array(0), complete: true };
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired =
    timeoutMs > 0
      ? new Promise<'expired'>((resolve) => {
          timer = setTimeout(() => {
            resolve('expired');
          }, timeoutMs);
        })
      : undefined;
  let reason: string | undefined;
  try {
    for (;;) {
      const next = await (expired === undefined
        ? iterator.next()
        : Promise.race([iterator.next(), expired]));
      if (next === 'expired') {
        reason = `body not received within ${timeoutMs} ms`;
        break;
      }
      if (next.done === true) break;
      chunks.push(next.value);
      size += next.value.byteLength;
      if (size >= maxBytes) {
        reason = `body longer than ${maxBytes} bytes`;
        break;
      }
    }
  } finally {
    clearTimeout(timer);
    if (reason !== undefined) await discard(body);
  }
  const bytes = Buffer.concat(chunks);
  return reason === undefined ? { bytes, complete: true } : { bytes, complete: false, reason };
}

async function discard(body: unknown): Promise<void> {
  const destroy = (body as { destroy?: unknown } | null)?.destroy;
  if (typeof destroy === 'function') {
    (destroy as (this: unknown) => void).call(body);
    return;
  }
  const cancel = (body as { cancel?: unknown } | null)?.cancel;
  if (typeof cancel === 'function')
    await (cancel as (this: unknown) => Promise<void>).call(body).catch(() => undefined);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}
