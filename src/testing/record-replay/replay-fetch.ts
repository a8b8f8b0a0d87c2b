import { testingConfigError } from './errors';
import type { FetchLike } from '../../core/contract/fetch';
import { resolveFixtures } from './fixture';
import type { FixtureResponse, FixtureSource } from './fixture-types';
import { ReplayQueue, type ReplayOptions } from './replay-queue';

/** Options of {@link replayFetch}. */
export interface ReplayFetchOptions extends ReplayOptions {
  /**
   * What answers a request that matches no recorded exchange (one too many, or one that differs):
   * `error` (default) rejects with `ReplayUnmatchedError` / `ReplayMismatchError`; a `fetch`
   * (the real one, or a `recordingFetch`) answers it instead and nothing is consumed.
   */
  onUnmatched?: 'error' | FetchLike;
}

/** An offline `fetch` serving recorded exchanges; pass it as an adapter's `fetch` option. */
export interface ReplayFetch {
  /** Answers the request from the next recorded exchange. */
  (input: string, init?: RequestInit): Promise<Response>;
  /** Exchanges served so far. */
  readonly served: number;
  /** Recorded exchanges not served yet. */
  readonly remaining: number;
  /**
   * Throws the first mismatch or extra request seen (even if the adapter wrapped it in a
   * transport error), or `ReplayUnmatchedError` when recorded exchanges were never requested.
   */
  assertDone(): void;
}

/**
 * An offline `fetch` that serves the exchanges of the given fixtures (objects or file paths, in
 * order) to the adapter under test. Each request is checked against the next recorded one (see
 * {@link ReplayOptions.match}); a request that differs rejects with `ReplayMismatchError` naming
 * the first differing field, one too many with `ReplayUnmatchedError`. Bodies stream chunk by
 * chunk (one server-sent event at a time, or re-split with {@link ReplayOptions.split}); an
 * aborted signal rejects like `fetch` does, and a recording marked `interrupted` fails the body
 * stream after its last chunk.
 */
export function replayFetch(
  fixtures: FixtureSource | readonly FixtureSource[],
  options: ReplayFetchOptions = {},
): ReplayFetch {
  const queue = new ReplayQueue(resolveFixtures(fixtures), options);
  const fallback = options.onUnmatched ?? 'error';
  if (fallback !== 'error' && typeof fallback !== 'function')
    throw testingConfigError("replay: onUnmatched must be 'error' or a fetch function");
  const replay = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted === true) throw abortReason(signal);
    const served = queue.take({
      method: init.method ?? 'GET',
      url: input,
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    if (served instanceof Error) {
      if (fallback !== 'error') return fallback(input, init);
      throw queue.fail(served);
    }
    return respond(served.exchange.response, served.chunks, signal);
  };
  return Object.defineProperties(replay, {
    served: { get: () => queue.served, enumerable: true },
    remaining: { get: () => queue.remaining, enumerable: true },
    assertDone: {
      value: () => {
        queue.assertDone();
      },
    },
  }) as ReplayFetch;
}

const NULL_BODY = new Set([204, 205, 304]);

function respond(
  recorded: FixtureResponse,
  chunks: readonly Uint8Array[],
  signal: AbortSignal | undefined,
): Response {
  const headers = new Headers(recorded.headers);
  if (NULL_BODY.has(recorded.status))
    return new Response(null, { status: recorded.status, headers });
  let next = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (signal?.aborted === true) {
          controller.error(abortReason(signal));
          return;
        }
        const chunk = chunks[next++];
        if (chunk !== undefined) controller.enqueue(chunk);
        else if (recorded.interrupted !== undefined)
          controller.error(new TypeError(`terminated (replayed: ${recorded.interrupted})`));
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: recorded.status, headers });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
