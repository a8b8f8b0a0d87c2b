import { PassThrough } from 'node:stream';
import { testingConfigError } from './errors';
import type { Fixture } from './fixture-types';
import {
  requestBodyText,
  urlOf,
  type HttpHandlerLike,
  type HttpHandlerOptionsLike,
  type HttpRequestLike,
  type HttpResponseLike,
} from './http-handler';
import { FixtureRecorder, type RecordOptions } from './recorder';

/** Options of {@link recordingHandler}. */
export interface RecordHandlerOptions extends RecordOptions {
  /** The real handler to record, e.g. `new NodeHttpHandler()` from `@smithy/node-http-handler`. */
  handler: HttpHandlerLike;
}

/** A Smithy request handler that records; pass it as `client: { requestHandler }`. */
export interface RecordingHandler {
  /** Sends the request through the real handler; the response body still streams. */
  handle(
    request: HttpRequestLike,
    options?: HttpHandlerOptionsLike,
  ): Promise<{ response: HttpResponseLike }>;
  /** The fixture file, or `undefined` when the recording is kept in memory only. */
  readonly file: string | undefined;
  /** The exchanges completed so far, as the fixture holds them (secrets redacted). */
  readonly fixture: Fixture;
  /** Waits for every body being captured; resolves to the fixture, or rejects with a write failure. */
  settled(): Promise<Fixture>;
  /** Destroys the real handler (the SDK calls it when the client is destroyed). */
  destroy(): void;
  /** Forwards a configuration update to the real handler. */
  updateHttpClientConfig(key: never, value: never): void;
  /** The real handler's configuration. */
  httpHandlerConfigs(): object;
}

/**
 * The Bedrock (AWS SDK) counterpart of `recordingFetch`: wraps a real Smithy handler and
 * records every exchange. Event-stream responses (ConverseStream) are stored as decoded frames —
 * headers and JSON payloads — so the file stays readable; the SigV4 `authorization` header and
 * `x-amz-security-token` are never written. Pass the real credentials to the SDK as usual.
 */
export function recordingHandler(options: RecordHandlerOptions): RecordingHandler {
  const inner = (options as Partial<RecordHandlerOptions>).handler;
  if (typeof inner?.handle !== 'function')
    throw testingConfigError(
      'recordingHandler: handler must be the real Smithy handler, e.g. new NodeHttpHandler() from @smithy/node-http-handler',
    );
  const recorder = new FixtureRecorder(options);
  return {
    async handle(request, handlerOptions) {
      const slot = recorder.begin({
        method: request.method,
        url: urlOf(request),
        headers: Object.entries(request.headers),
        body: requestBodyText(request.body),
      });
      let output: { response: HttpResponseLike };
      try {
        output = await inner.handle(request, handlerOptions);
      } catch (error) {
        recorder.abandon(slot);
        throw error;
      }
      const response = output.response;
      const status = response.statusCode;
      const headers = Object.entries(response.headers);
      const body = response.body;
      if (!isAsyncIterable(body)) {
        recorder.complete(slot, { status, headers, chunks: staticBody(body) });
        return output;
      }
      const pass = new PassThrough();
      recorder.track(
        pump(body, pass).then((captured) => {
          recorder.complete(slot, { status, headers, ...captured });
        }),
      );
      response.body = pass;
      return output;
    },
    get file() {
      return recorder.file;
    },
    get fixture() {
      return recorder.fixture();
    },
    settled: () => recorder.settled(),
    destroy: () => inner.destroy?.(),
    updateHttpClientConfig: (key, value) => inner.updateHttpClientConfig?.(key, value),
    httpHandlerConfigs: () => inner.httpHandlerConfigs?.() ?? {},
  };
}

/** Copies `source` into `out` and keeps every chunk, reading to the end even if `out` closes. */
async function pump(
  source: AsyncIterable<Uint8Array>,
  out: PassThrough,
): Promise<{ chunks: Uint8Array[]; interrupted?: string }> {
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of source) {
      chunks.push(new Uint8Array(chunk));
      if (!out.destroyed) out.write(chunk);
    }
    out.end();
    return { chunks };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    out.destroy(failure);
    return { chunks, interrupted: failure.message };
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

function staticBody(body: unknown): Uint8Array[] {
  if (typeof body === 'string') return [new TextEncoder().encode(body)];
  if (body instanceof Uint8Array) return [body];
  return [];
}
