import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { cancellationError } from '../../model/cancellation';
import { GolemError, hasKind } from '../../model/error-base';
import { StreamInterruptedError } from '../../model/provider-errors';

/** One server-sent event. */
export type SseEvent = EventSourceMessage;

/** Options of {@link readSse}. */
export interface ReadSseOptions {
  provider: string;
  signal?: AbortSignal;
  /** Largest accepted line in bytes; default 8 MiB. Checked before the line is buffered whole. */
  maxLineBytes?: number;
}

/** A server-sent line exceeded the configured cap; the stream was cancelled. */
export class SseLineTooLongError extends GolemError {
  readonly retryable = false;

  constructor(provider: string, limit: number) {
    super(
      'SseLineTooLongError',
      `${provider}: a server-sent event line exceeded ${limit} bytes; the stream was cancelled`,
    );
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is SseLineTooLongError {
    return hasKind(value, 'SseLineTooLongError');
  }
}

const DEFAULT_MAX_LINE = 8 * 1024 * 1024;

/**
 * Reads a `text/event-stream` body and calls `onEvent` for every complete event, in order,
 * awaiting it before reading on. UTF-8 is decoded across chunk boundaries (one decoder, flushed
 * once at EOF); an event without its terminating blank line at EOF is not dispatched; a stream
 * ending in a bare CR keeps its last event. The signal is checked before every event. A line over
 * the cap cancels the body and throws `SseLineTooLongError`; a read failure throws
 * `StreamInterruptedError`; an abort throws the signal's cancellation error.
 */
export async function readSse(
  body: ReadableStream<Uint8Array> | null,
  onEvent: (event: SseEvent) => void | Promise<void>,
  options: ReadSseOptions,
): Promise<void> {
  if (body === null) throw new StreamInterruptedError(options.provider, 'the response has no body');
  const limit = options.maxLineBytes ?? DEFAULT_MAX_LINE;
  const queue: SseEvent[] = [];
  const parser = createParser({ onEvent: (event) => queue.push(event) });
  const decoder = new TextDecoder('utf-8');
  const reader = body.getReader();
  let lineBytes = 0;
  let lastByteWasCr = false;
  const dispatch = async (): Promise<void> => {
    while (queue.length > 0) {
      if (options.signal?.aborted === true) throw cancellationError(options.signal);
      await onEvent(queue.shift() as SseEvent);
    }
  };
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        if (options.signal?.aborted === true) throw cancellationError(options.signal);
        throw new StreamInterruptedError(
          options.provider,
          cause instanceof Error ? cause.message : String(cause),
          { cause },
        );
      }
      if (chunk.done) break;
      if (chunk.value.length > 0) lastByteWasCr = chunk.value[chunk.value.length - 1] === 0x0d;
      for (const byte of chunk.value) {
        if (byte === 0x0a || byte === 0x0d) lineBytes = 0;
        else if (++lineBytes > limit) throw new SseLineTooLongError(options.provider, limit);
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      await dispatch();
    }
    // A bare CR is a complete line ending, but the parser holds it back in case an LF follows;
    // at EOF none will, so complete it (otherwise a CR-only stream loses its last event).
    parser.feed(decoder.decode() + (lastByteWasCr ? '\n' : ''));
    await dispatch();
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}
