import type { DeltaHandler } from '../../core/contract/model';
import { isRecord } from '../../core/kit/guards';
import { ModelProtocolError, StreamInterruptedError } from '../../core/errors/provider-errors';
import { redact, redactCause } from '../../core/kit/redact';
import { readSse, STOP } from '../shared/sse';
import type { ResponseAssembler } from './assembler';
import { streamErrorFrame } from './errors';

/** Options of {@link readGeminiStream}. */
export interface GeminiStreamOptions {
  provider: string;
  signal?: AbortSignal;
  maxLineBytes?: number;
  secrets: readonly string[];
}

/**
 * Reads a `streamGenerateContent?alt=sse` body: every `data:` frame is one
 * `GenerateContentResponse` pushed into `assembler`, and its deltas go to `onDelta` (awaited, in
 * order; an `onDelta` error propagates as-is). Gemini has no end-of-stream event: the chunk
 * carrying the `finishReason` (with the final usage) is the last one, so reading stops there
 * without waiting for the server to close the connection, and a cut after it does not matter;
 * EOF or a reset before it is a `StreamInterruptedError` (retryable). A frame that is not JSON is
 * a `ModelProtocolError` (secrets redacted from its cause); an `{error: …}` frame is a
 * `ModelHTTPError` with its code (or a `StreamInterruptedError`); frames with an `event:` name
 * other than `message` are ignored.
 */
export async function readGeminiStream(
  body: ReadableStream<Uint8Array> | null,
  assembler: ResponseAssembler,
  onDelta: DeltaHandler,
  options: GeminiStreamOptions,
): Promise<void> {
  await readSse(
    body,
    async (event) => {
      if (event.event !== undefined && event.event !== 'message') return;
      if (event.data.trim() === '') return;
      let payload: unknown;
      try {
        payload = JSON.parse(event.data);
      } catch (cause) {
        const clean = redact(event.data, options.secrets) === event.data;
        throw new ModelProtocolError(options.provider, 'a stream frame is not valid JSON', {
          cause: clean ? cause : redactCause(cause, options.secrets),
        });
      }
      if (isRecord(payload) && payload.error !== undefined)
        throw streamErrorFrame(options.provider, payload, event.data, options.secrets);
      for (const delta of assembler.push(payload)) await onDelta(delta);
      return assembler.finished ? STOP : undefined;
    },
    {
      provider: options.provider,
      signal: options.signal,
      maxLineBytes: options.maxLineBytes,
      settled: () => assembler.finished,
      secrets: options.secrets,
    },
  );
  if (!assembler.finished)
    throw new StreamInterruptedError(
      options.provider,
      'the stream ended before a chunk carried a finishReason (Gemini has no end-of-stream event)',
    );
}
