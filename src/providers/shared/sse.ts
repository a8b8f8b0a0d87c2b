import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { cancellationError } from '../../core/errors/cancellation';
import { GolemError, brandGuard } from '../../core/kit/error-base';
import { StreamInterruptedError } from '../../core/errors/provider-errors';
import { describeTransportFailure, redactCause } from '../../core/kit/redact';

/** One server-sent event. */
export type SseEvent = EventSourceMessage;

/** Options of {@link readSse}. */
export interface ReadSseOptions {
  provider: string;
  signal?: AbortSignal;
  /** Largest accepted line in bytes; default 8 MiB. Checked before the line is buffered whole. */
  maxLineBytes?: number;
  /**
   * Whether the response is already complete (its stop reason and final usage arrived). When it
   * is, a read failure afterwards (the closing frame cut by a reset) ends the stream normally
   * instead of throwing `StreamInterruptedError`.
   */
  settled?: () => boolean;
  /** Secrets to keep out of the messages of read failures. */
  secrets?: readonly string[];
}

/** What an event handler returns to end the stream at a terminal event. */
export const STOP = 'stop';

/** An event handler's verdict: {@link STOP} ends reading (the body is cancelled). */
export type SseVerdict = typeof STOP | undefined | void;

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
  static readonly is = brandGuard<SseLineTooLongError>('SseLineTooLongError');
}

const DEFAULT_MAX_LINE = 8 * 1024 * 1024;

/**
 * Reads a `text/event-stream` body and calls `onEvent` for every complete event, in order,
 * awaiting it before reading on. A handler that returns {@link STOP} (at the provider's terminal
 * event) ends reading there: the body is cancelled and the call completes without waiting for the
 * server to close the connection. UTF-8 is decoded across chunk boundaries (one decoder, flushed
 * once at EOF); an event without its terminating blank line at EOF is not dispatched; a stream
 * ending in a bare CR keeps its last event. The signal is checked before every event. A line over
 * the cap cancels the body and throws `SseLineTooLongError`; a read failure throws
 * `StreamInterruptedError`; an abort throws the signal's cancellation error.
 */
export async function readSse(
  body: ReadableStream<Uint8Array> | null,
  onEvent: (event: SseEvent) => SseVerdict | Promise<SseVerdict>,
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
  const state = { stopped: false };
  const dispatch = async (): Promise<void> => {
    while (queue.length > 0 && !state.stopped) {
      if (options.signal?.aborted === true) throw cancellationError(options.signal);
      if ((await onEvent(queue.shift() as SseEvent)) === STOP) state.stopped = true;
    }
  };
  try {
    while (!state.stopped) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (cause) {
        if (options.signal?.aborted === true) throw cancellationError(options.signal);
        if (options.settled?.() === true) {
          state.stopped = true;
          break;
        }
        throw new StreamInterruptedError(
          options.provider,
          describeTransportFailure(cause, options.secrets),
          { cause: redactCause(cause, options.secrets) },
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
    if (state.stopped) {
      await reader.cancel().catch(() => undefined);
      return;
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
