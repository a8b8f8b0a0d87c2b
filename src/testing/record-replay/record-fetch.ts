import type { FetchLike } from '../../core/contract/fetch';
import type { Fixture } from './fixture-types';
import { FixtureRecorder, type RecordOptions } from './recorder';

/** Options of {@link recordingFetch}. */
export interface RecordFetchOptions extends RecordOptions {
  /** The real `fetch` to record; default the global one. */
  fetch?: FetchLike;
}

/**
 * A `fetch` that records: pass it as an adapter's `fetch` option. Call {@link RecordingFetch.settled} after the
 * code under test to wait until every body is captured and the file is written.
 */
export interface RecordingFetch {
  /** Sends the request with the real `fetch` and returns its response (the body still streams). */
  (input: string, init?: RequestInit): Promise<Response>;
  /** The fixture file, or `undefined` when the recording is kept in memory only. */
  readonly file: string | undefined;
  /** The exchanges completed so far, as the fixture holds them (secrets redacted). */
  readonly fixture: Fixture;
  /** Waits for every body being captured; resolves to the fixture, or rejects with a write failure. */
  settled(): Promise<Fixture>;
}

/**
 * Wraps the real `fetch` to record every exchange into a fixture: the request (method, URL with
 * secret query values redacted, headers without credentials, JSON body) and the response
 * (status, kept headers, body — JSON parsed, server-sent events as text lines). The caller gets
 * the real response and streams it as usual; a copy of the body is read to the end alongside,
 * even when the caller stops early. Credential headers (`authorization`, `x-api-key`, `api-key`,
 * `x-goog-api-key`, `x-amz-security-token`, and any header named like a credential) are never
 * written, and their values plus `secrets` are redacted wherever they appear. Recording talks to
 * the real provider: it needs a live key, so keep it out of CI.
 */
export function recordingFetch(options: RecordFetchOptions = {}): RecordingFetch {
  const recorder = new FixtureRecorder(options);
  const inner = options.fetch;
  const record = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const slot = recorder.begin({
      method: init.method ?? 'GET',
      url: input,
      headers: entries(new Headers(init.headers)),
      body: bodyText(init.body),
    });
    let response: Response;
    try {
      response = await (inner ?? globalThis.fetch)(input, init);
    } catch (error) {
      recorder.abandon(slot);
      throw error;
    }
    const status = response.status;
    const headers = entries(response.headers);
    if (response.body === null) {
      recorder.complete(slot, { status, headers, chunks: [] });
      return response;
    }
    const [mine, theirs] = response.body.tee();
    recorder.track(
      capture(mine).then((body) => {
        recorder.complete(slot, { status, headers, ...body });
      }),
    );
    return new Response(theirs, {
      status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return Object.defineProperties(record, {
    file: { value: recorder.file, enumerable: true },
    fixture: { get: () => recorder.fixture(), enumerable: true },
    settled: { value: () => recorder.settled() },
  }) as RecordingFetch;
}

/** Reads a stream to its end; a failure keeps what arrived and says why it stopped. */
export async function capture(
  stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
): Promise<{ chunks: Uint8Array[]; interrupted?: string }> {
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<Uint8Array>)
      chunks.push(new Uint8Array(chunk));
    return { chunks };
  } catch (error) {
    return { chunks, interrupted: error instanceof Error ? error.message : String(error) };
  }
}

function entries(headers: Headers): [string, string][] {
  const list: [string, string][] = [];
  headers.forEach((value, name) => list.push([name, value]));
  return list;
}

function bodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer)
    return new TextDecoder().decode(body);
  if (body instanceof URLSearchParams) return body.toString();
  return '(a body the recorder cannot read)';
}
