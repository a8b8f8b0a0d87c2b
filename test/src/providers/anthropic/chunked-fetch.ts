/**
 * An injected fetch whose response body is a pull-based stream of given chunks (no socket), for
 * the adversarial split and oversized-line tests: the whole adapter path runs, reads are counted
 * and cancellation is observable.
 */
import type { Delta, ModelRequest, ModelResponse } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { API_KEY } from './support';

/** A one-message request. */
export const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
/** UTF-8 encoder. */
export const encoder = new TextEncoder();

/** What the fake body saw: reads, cancellation, and the request signal. */
export interface BodyStats {
  pulls: number;
  cancelled: boolean;
  signal?: AbortSignal;
}

/** A fetch whose response body yields `chunks` one per read, counting reads. */
export function chunkedFetch(
  chunks: Iterable<Uint8Array>,
  stats: BodyStats = { pulls: 0, cancelled: false },
): (url: string, init: RequestInit) => Promise<Response> {
  return (_url: string, init: RequestInit): Promise<Response> => {
    stats.signal = init.signal ?? undefined;
    const iterator = chunks[Symbol.iterator]();
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          stats.pulls++;
          const next = iterator.next();
          if (next.done === true) controller.close();
          else controller.enqueue(next.value);
        },
        cancel() {
          stats.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    return Promise.resolve(
      new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    );
  };
}

/** Streams `chunks` through the adapter (injected fetch), collecting deltas. */
export async function streamChunks(
  chunks: Iterable<Uint8Array>,
  options: { maxLineBytes?: number; stats?: BodyStats } = {},
): Promise<{ response: ModelResponse; deltas: Delta[] }> {
  const deltas: Delta[] = [];
  const model = anthropic({
    model: 'm',
    apiKey: API_KEY,
    fetch: chunkedFetch(chunks, options.stats),
    maxLineBytes: options.maxLineBytes,
  });
  const response = await model.stream(request, (d) => void deltas.push(d));
  return { response, deltas };
}

/** `bytes` cut at the given offsets (deduplicated, in order). */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const points = [...new Set(offsets)]
    .filter((o) => o > 0 && o < bytes.length)
    .sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(from, point));
    from = point;
  }
  return chunks;
}

/** Whether a value's JSON contains U+FFFD (a broken UTF-8 decode). */
export const hasReplacement = (value: unknown): boolean => JSON.stringify(value).includes('\uFFFD');
