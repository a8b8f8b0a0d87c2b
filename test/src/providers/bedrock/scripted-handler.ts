/**
 * An in-process `requestHandler` for the real BedrockRuntimeClient: it answers every request
 * with a 200 event-stream whose body yields exactly the given chunks (TCP may coalesce writes;
 * this does not), so the SDK's decoder sees every split point. It records whether the body was
 * read to the end or closed early and whether the request was aborted, and can hold the stream
 * open until the request is aborted.
 */
import type { BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime';
import { EVENT_STREAM } from './support';

export interface ScriptedHandlerOptions {
  /** After the chunks, wait until the request's abort signal fires (then fail like a socket). */
  hold?: boolean;
}

export class ScriptedHandler {
  requests = 0;
  /** Chunks handed to the SDK. */
  delivered = 0;
  /** The body generator finished: `'end'` after the last chunk, `'closed'` when closed early. */
  outcome: 'open' | 'end' | 'closed' = 'open';
  /** The request's abort signal fired (how the adapter tears a connection down). */
  aborted = false;

  constructor(
    /** The chunks the next request's body yields (replace it to script another reply). */
    public chunks: readonly Uint8Array[],
    private readonly options: ScriptedHandlerOptions = {},
  ) {}

  handle(
    _request: unknown,
    handlerOptions: { abortSignal?: AbortSignal } = {},
  ): Promise<{
    response: {
      statusCode: number;
      headers: Record<string, string>;
      body: AsyncIterable<Uint8Array>;
    };
  }> {
    this.requests++;
    handlerOptions.abortSignal?.addEventListener('abort', () => {
      this.aborted = true;
    });
    return Promise.resolve({
      response: {
        statusCode: 200,
        headers: { 'content-type': EVENT_STREAM },
        body: this.body(handlerOptions.abortSignal),
      },
    });
  }

  private async *body(signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
    let ended = false;
    try {
      for (const chunk of this.chunks) {
        this.delivered++;
        yield chunk;
      }
      if (this.options.hold === true)
        await new Promise<never>((_, reject) => {
          const fail = (): void => {
            reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
          };
          if (signal?.aborted === true) fail();
          else signal?.addEventListener('abort', fail, { once: true });
        });
      ended = true;
    } finally {
      this.outcome = ended ? 'end' : 'closed';
    }
  }

  /** Client configuration that routes every request to this handler. */
  clientConfig(): BedrockRuntimeClientConfig {
    return { requestHandler: this };
  }

  updateHttpClientConfig(): void {
    // nothing to configure
  }

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  destroy(): void {
    // nothing to release
  }
}

/** `bytes` split at the given offsets (sorted, deduplicated, inside the buffer). */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(offsets)].filter((o) => o > 0 && o < bytes.length).sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    out.push(bytes.subarray(start, cut));
    start = cut;
  }
  out.push(bytes.subarray(start));
  return out;
}

/** `bytes` as one-byte chunks. */
export function bytewise(bytes: Uint8Array): Uint8Array[] {
  return Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
}
