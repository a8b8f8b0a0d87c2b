import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { throwIfCancelled } from '../../core/index';
import { parseStreamResponse } from '../wire-check';
import type { A2AMethod, StreamResponse } from '../wire-types';
import { malformed, transportFailure, wireFailure } from './failures';
import type { OpenedRequest, RpcChannel } from './rpc';

/** What {@link readEventStream} needs. Internal. */
export interface EventStreamContext {
  readonly channel: RpcChannel;
  readonly method: A2AMethod;
  readonly maxEventBytes: number;
  readonly secrets: readonly string[];
  readonly signal?: AbortSignal;
}

/**
 * The stream events of a streaming JSON-RPC call, parsed, in order, until the server ends the
 * body. An answer that is not an event stream is the peer's error (or a protocol error); an
 * `error` event or an event carrying a JSON-RPC error throws it; an event over `maxEventBytes`
 * cancels the body and throws. Leaving the loop early cancels the body (the request closes).
 */
export async function* readEventStream(
  opened: OpenedRequest,
  context: EventStreamContext,
): AsyncGenerator<StreamResponse, void, undefined> {
  const { channel, method, signal } = context;
  const { id, response } = opened;
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (!response.ok || type !== 'text/event-stream') {
    const text = await channel.readBody(method, response, signal);
    if (!response.ok) throw channel.httpError(method, response.status, text);
    channel.resultOf(method, id, channel.parseJson(method, text));
    throw wireFailure(
      method,
      `expected an event stream, got ${type === '' ? 'no content type' : JSON.stringify(type)}`,
      context.secrets,
    );
  }
  const body = response.body;
  if (body === null) throw wireFailure(method, 'the event stream has no body', context.secrets);
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => queue.push(event) });
  const decoder = new TextDecoder('utf-8');
  const reader = body.getReader();
  let pending = 0;
  let finished = false;
  try {
    for (;;) {
      while (queue.length > 0) {
        const event = queue.shift() as EventSourceMessage;
        yield parseEvent(event, opened, context);
      }
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        throwIfCancelled(signal);
        throw transportFailure(method, cause, context.secrets);
      }
      if (chunk.done) {
        finished = true;
        parser.feed(decoder.decode());
        while (queue.length > 0)
          yield parseEvent(queue.shift() as EventSourceMessage, opened, context);
        return;
      }
      const before = queue.length;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      // Bytes since the last complete event: one event's size, framing included.
      pending = queue.length > before ? 0 : pending + chunk.value.byteLength;
      if (pending > context.maxEventBytes) throw tooLarge(context);
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function parseEvent(
  event: EventSourceMessage,
  opened: OpenedRequest,
  context: EventStreamContext,
): StreamResponse {
  const { channel, method } = context;
  if (Buffer.byteLength(event.data) > context.maxEventBytes) throw tooLarge(context);
  const result = channel.resultOf(method, opened.id, channel.parseJson(method, event.data));
  if (event.event === 'error') {
    throw wireFailure(method, 'the server sent an error event without an error', context.secrets);
  }
  try {
    return parseStreamResponse(result);
  } catch (error) {
    throw malformed(method, error, context.secrets);
  }
}

function tooLarge(context: EventStreamContext): Error {
  return wireFailure(
    context.method,
    `an event is larger than maxResponseBytes (${context.maxEventBytes} bytes)`,
    context.secrets,
  );
}
