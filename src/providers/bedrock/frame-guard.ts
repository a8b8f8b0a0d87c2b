/** The default largest accepted event-stream frame (spec §25: frames <= 16 MiB). */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** Prelude (total length, headers length, prelude CRC) plus the message CRC. */
const MIN_FRAME_BYTES = 16;

type Handler = (args: unknown) => Promise<{ response: unknown }>;

/**
 * Guards an event-stream response body before the SDK decodes it: every frame's declared total
 * length (the first 4 bytes of its prelude) must lie within [16, `maxFrameBytes`]. The SDK
 * allocates a buffer of the declared length as soon as it reads it, so a hostile or corrupt
 * length must be refused first. A violation cancels the body and fails the read; `problem` then
 * describes it (the SDK decorates the errors it sees, so callers build their typed error from
 * this field rather than from what the SDK rethrows).
 */
export class FrameGuard {
  problem: string | undefined;
  /** Whether a 2xx response arrived (failures after it happened while reading the stream). */
  responded = false;

  constructor(readonly maxFrameBytes: number) {}

  /** A deserialize-step middleware (innermost: it sees the raw HTTP response) wrapping the body. */
  readonly middleware = (next: Handler): Handler => {
    return async (args) => {
      const result = await next(args);
      const response = result.response as { statusCode?: unknown; body?: unknown };
      const status = typeof response.statusCode === 'number' ? response.statusCode : 0;
      if (status >= 200 && status < 300) {
        this.responded = true;
        if (isAsyncIterable(response.body)) response.body = this.guard(response.body);
      }
      return result;
    };
  };

  private async *guard(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const prelude = new Uint8Array(4);
    let preludeBytes = 0;
    let remaining = 0;
    for await (const chunk of source) {
      let offset = 0;
      while (offset < chunk.length) {
        if (remaining > 0) {
          const take = Math.min(remaining, chunk.length - offset);
          remaining -= take;
          offset += take;
          continue;
        }
        const byte = chunk[offset] ?? 0;
        prelude[preludeBytes++] = byte;
        offset++;
        if (preludeBytes < 4) continue;
        const total = new DataView(prelude.buffer).getUint32(0, false);
        preludeBytes = 0;
        if (total < MIN_FRAME_BYTES || total > this.maxFrameBytes) {
          this.problem =
            total < MIN_FRAME_BYTES
              ? `an event-stream frame declares ${total} bytes, below the ${MIN_FRAME_BYTES}-byte minimum`
              : `an event-stream frame declares ${total} bytes, over the ${this.maxFrameBytes}-byte cap; the stream was cancelled`;
          throw new Error(this.problem);
        }
        remaining = total - 4;
      }
      yield chunk;
    }
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}
