import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { isRecord } from '../core/kit/guards';
import { McpTransportError } from './errors';
import type { FailureRegistry } from './failures';

/** What the guard needs to know. Internal. */
export interface GuardConfig {
  server: string;
  maxMessageBytes: number;
  failures: FailureRegistry;
  /** The fetch that makes the requests; default the global one. */
  fetch?: typeof fetch;
}

/** The JSON-RPC request a POST carried, if it carried one. */
interface SentRequest {
  id: string | number;
  method: string;
}

/**
 * Wraps `fetch` for the SDK's Streamable HTTP transport. Response bodies are capped at
 * `maxMessageBytes` (JSON bodies in total, event streams per event), and when a POST's event
 * stream ends, breaks or overflows before the response to its request arrived, a JSON-RPC error
 * response carrying a typed {@link McpTransportError} is appended so the call fails at once
 * (decision D11) instead of waiting for its timeout. A stream whose events carried ids is
 * resumable: its end is left to the SDK, which reconnects with `Last-Event-ID`.
 */
export function guardedFetch(config: GuardConfig): typeof fetch {
  return async (input, init) => {
    const response = await (config.fetch ?? fetch)(input, init);
    const body = response.body;
    if (body === null || [101, 204, 205, 304].includes(response.status)) return response;
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    const method = (init?.method ?? 'GET').toUpperCase();
    const request = method === 'POST' ? sentRequest(init?.body) : undefined;
    const stream =
      type === 'text/event-stream'
        ? guardEvents(body, config, request)
        : capBytes(body, config, request?.method ?? 'HTTP response');
    return new Response(stream, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function sentRequest(body: unknown): SentRequest | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message: unknown = JSON.parse(body);
    if (!isRecord(message) || typeof message.method !== 'string') return undefined;
    const id = message.id;
    return typeof id === 'string' || typeof id === 'number'
      ? { id, method: message.method }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Caps a whole body; the consumer's read fails with a typed error past the cap. */
function capBytes(
  body: ReadableStream<Uint8Array>,
  config: GuardConfig,
  method: string,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      total += value.byteLength;
      if (total > config.maxMessageBytes) {
        await reader.cancel().catch(() => undefined);
        controller.error(tooLarge(config, method));
        return;
      }
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function tooLarge(config: GuardConfig, method: string): McpTransportError {
  return new McpTransportError({
    server: config.server,
    method,
    message: `a message from the server exceeded maxMessageBytes (${config.maxMessageBytes} bytes)`,
  });
}

/** Passes an event stream through, watching for the answer to `request` and event sizes. */
function guardEvents(
  body: ReadableStream<Uint8Array>,
  config: GuardConfig,
  request: SentRequest | undefined,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const state = { answered: false, resumable: false, pending: 0, overflow: false };
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      state.pending = 0;
      if (event.id !== undefined && event.id !== '') state.resumable = true;
      if (Buffer.byteLength(event.data) > config.maxMessageBytes) state.overflow = true;
      else if (request !== undefined && answers(event.data, request.id)) state.answered = true;
    },
  });
  const synthesize = (error: McpTransportError): Uint8Array | undefined => {
    if (request === undefined || state.answered) return undefined;
    const response = {
      jsonrpc: '2.0',
      id: request.id,
      error: { code: -32000, message: error.message, data: config.failures.record(error) },
    };
    return new TextEncoder().encode(`\n\nevent: message\ndata: ${JSON.stringify(response)}\n\n`);
  };
  const method = request?.method ?? 'event stream';
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        const failure = synthesize(
          new McpTransportError(
            {
              server: config.server,
              method,
              message: 'the HTTP response stream broke before the answer arrived',
            },
            { cause },
          ),
        );
        if (failure === undefined) throw cause;
        controller.enqueue(failure);
        controller.close();
        return;
      }
      if (chunk.done) {
        const failure = state.resumable
          ? undefined
          : synthesize(
              new McpTransportError({
                server: config.server,
                method,
                message: 'the HTTP response stream ended without an answer',
              }),
            );
        if (failure !== undefined) controller.enqueue(failure);
        controller.close();
        return;
      }
      state.pending += chunk.value.byteLength;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (state.overflow || state.pending > config.maxMessageBytes) {
        await reader.cancel().catch(() => undefined);
        const failure = synthesize(tooLarge(config, method));
        if (failure !== undefined) controller.enqueue(failure);
        controller.close();
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Whether an event's data is a JSON-RPC response (or batch) answering `id`. */
function answers(data: string, id: string | number): boolean {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return false;
  }
  const list: unknown[] = Array.isArray(message) ? message : [message];
  return list.some(
    (m) => isRecord(m) && m.id === id && (Object.hasOwn(m, 'result') || Object.hasOwn(m, 'error')),
  );
}
