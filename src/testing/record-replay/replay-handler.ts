import { Readable } from 'node:stream';
import { testingConfigError } from './errors';
import { resolveFixtures } from './fixture';
import type { FixtureResponse, FixtureSource } from './fixture-types';
import {
  listenable,
  requestBodyText,
  urlOf,
  type HttpHandlerLike,
  type HttpHandlerOptionsLike,
  type HttpRequestLike,
  type HttpResponseLike,
} from './http-handler';
import { ReplayQueue, type ReplayOptions } from './replay-queue';

/** Options of {@link replayHandler}. */
export interface ReplayHandlerOptions extends ReplayOptions {
  /**
   * What answers a request that matches no recorded exchange: `error` (default) rejects with
   * `ReplayUnmatchedError` / `ReplayMismatchError`; a handler answers it instead.
   */
  onUnmatched?: 'error' | HttpHandlerLike;
}

/** An offline Smithy request handler; pass it as `client: { requestHandler }`. */
export interface ReplayHandler {
  /** Answers the request from the next recorded exchange. */
  handle(
    request: HttpRequestLike,
    options?: HttpHandlerOptionsLike,
  ): Promise<{ response: HttpResponseLike }>;
  /** Exchanges served so far. */
  readonly served: number;
  /** Recorded exchanges not served yet. */
  readonly remaining: number;
  /** Throws the first mismatch or extra request seen, or `ReplayUnmatchedError` for unused exchanges. */
  assertDone(): void;
  /** Nothing to release. */
  destroy(): void;
  /** Nothing to configure. */
  updateHttpClientConfig(): void;
  /** No configuration. */
  httpHandlerConfigs(): object;
}

/**
 * The Bedrock (AWS SDK) counterpart of `replayFetch`: serves recorded exchanges to the real
 * SDK client offline, with the same matching, splitting and errors. Event-stream frames are
 * re-encoded with fresh checksums, so hand-written frames work. The SDK still signs each request:
 * give the model fake static credentials and a region.
 */
export function replayHandler(
  fixtures: FixtureSource | readonly FixtureSource[],
  options: ReplayHandlerOptions = {},
): ReplayHandler {
  const queue = new ReplayQueue(resolveFixtures(fixtures), options);
  const fallback = options.onUnmatched ?? 'error';
  if (fallback !== 'error' && typeof fallback.handle !== 'function')
    throw testingConfigError("replay: onUnmatched must be 'error' or a Smithy handler");
  return {
    handle(request, handlerOptions) {
      const signal = listenable(handlerOptions?.abortSignal);
      if (handlerOptions?.abortSignal?.aborted === true) return Promise.reject(aborted());
      const served = queue.take({
        method: request.method,
        url: urlOf(request),
        body: requestBodyText(request.body),
      });
      if (served instanceof Error) {
        if (fallback !== 'error') return fallback.handle(request, handlerOptions);
        return Promise.reject(queue.fail(served));
      }
      const recorded = served.exchange.response;
      return Promise.resolve({
        response: {
          statusCode: recorded.status,
          headers: { ...recorded.headers },
          body: Readable.from(frames(served.chunks, recorded, signal), { objectMode: false }),
        },
      });
    },
    get served() {
      return queue.served;
    },
    get remaining() {
      return queue.remaining;
    },
    assertDone: () => {
      queue.assertDone();
    },
    destroy: () => undefined,
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };
}

function* frames(
  chunks: readonly Uint8Array[],
  recorded: FixtureResponse,
  signal: AbortSignal | undefined,
): Generator<Buffer> {
  for (const chunk of chunks) {
    if (signal?.aborted === true) throw aborted();
    yield Buffer.from(chunk);
  }
  if (recorded.interrupted !== undefined)
    throw Object.assign(new Error(`socket hang up (replayed: ${recorded.interrupted})`), {
      code: 'ECONNRESET',
    });
}

function aborted(): Error {
  return Object.assign(new Error('Request aborted'), { name: 'AbortError' });
}
