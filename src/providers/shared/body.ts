import { cancellationError } from '../../core/errors/cancellation';
import {
  ModelProtocolError,
  ModelTransportError,
  ResponseTooLargeError,
} from '../../core/errors/provider-errors';
import { redactCause } from '../../core/kit/redact';

/** Default cap on a non-streaming success body: 32 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** How much of an error body is read: 64 KiB. */
export const ERROR_BODY_MAX_BYTES = 64 * 1024;
/** How long an error body may take to arrive before the error is reported without it. */
export const DEFAULT_ERROR_BODY_TIMEOUT_MS = 5_000;

/** Options of {@link readBodyText}. */
export interface ReadBodyOptions {
  provider: string;
  /** Largest accepted body in bytes. */
  maxBytes: number;
  signal?: AbortSignal;
  /** Secrets to remove from an attached cause. */
  secrets?: readonly string[];
}

/**
 * Reads a whole success body as UTF-8 text, refusing to buffer more than `maxBytes`
 * (`ResponseTooLargeError`, the body is cancelled). A read failure is a retryable
 * transport error; an abort is the signal's cancellation error.
 */
export async function readBodyText(response: Response, options: ReadBodyOptions): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(options.provider, options.maxBytes);
  }
  const body = response.body;
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        if (options.signal?.aborted === true) throw cancellationError(options.signal);
        throw new ModelTransportError(options.provider, 'the response body could not be read', {
          cause: redactCause(cause, options.secrets),
        });
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > options.maxBytes)
        throw new ResponseTooLargeError(options.provider, options.maxBytes);
      chunks.push(chunk.value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

/** Reads a success body as JSON within the byte cap; a body that is not JSON is a protocol error. */
export async function readBodyJson(response: Response, options: ReadBodyOptions): Promise<unknown> {
  const text = await readBodyText(response, options);
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new ModelProtocolError(options.provider, 'the response body is not JSON', { cause });
  }
}

/** What {@link readErrorBody} could read. */
export interface ErrorBody {
  text: string;
  /** Why the text is incomplete, when it is. */
  incomplete?: string;
}

/**
 * Reads at most `maxBytes` of an error body, for at most `timeoutMs`, then cancels the rest: an
 * error response whose body never ends still reports its status promptly. Never throws except
 * for the caller's abort.
 */
export async function readErrorBody(
  response: Response,
  options: { signal?: AbortSignal; timeoutMs?: number; maxBytes?: number },
): Promise<ErrorBody> {
  const body = response.body;
  if (body === null) return { text: '' };
  const maxBytes = options.maxBytes ?? ERROR_BODY_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_ERROR_BODY_TIMEOUT_MS;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let incomplete: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => {
      resolve('expired');
    }, timeoutMs);
  });
  try {
    while (incomplete === undefined) {
      const next = await Promise.race([reader.read(), expired]).catch((cause: unknown) => {
        if (options.signal?.aborted === true) throw cancellationError(options.signal);
        return { failed: cause };
      });
      if (next === 'expired') incomplete = `body not received within ${timeoutMs} ms`;
      else if ('failed' in next) incomplete = 'body unreadable';
      else if (next.done) break;
      else {
        const room = maxBytes - size;
        chunks.push(next.value.byteLength > room ? next.value.subarray(0, room) : next.value);
        size += Math.min(next.value.byteLength, room);
        if (size >= maxBytes) incomplete = `body truncated at ${maxBytes} bytes`;
      }
    }
  } finally {
    clearTimeout(timer);
    if (incomplete !== undefined) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  const text = new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  return incomplete === undefined ? { text } : { text, incomplete };
}

/**
 * Checks that a response to a streaming request is an event stream: a 200 with another content
 * type (a JSON body from a server that ignored `stream: true`, an HTML proxy page) is a
 * non-retryable protocol error naming the type. A missing content type is accepted.
 */
export async function expectEventStream(response: Response, provider: string): Promise<void> {
  const type = response.headers.get('content-type');
  if (type === null || type.trim() === '') return;
  if (/^\s*text\/event-stream\s*(;|$)/i.test(type)) return;
  await response.body?.cancel().catch(() => undefined);
  throw new ModelProtocolError(
    provider,
    `expected a text/event-stream response to a streaming request, got content type ${JSON.stringify(type.slice(0, 100))}`,
  );
}
