import { decodeFrames, encodeFrame, EVENT_STREAM_TYPE } from './event-stream';
import { FixtureSecretError } from './errors';
import type { FixtureRequest, FixtureResponse } from './fixture-types';
import { holdsSecret, redact, redactValue } from './redaction';

type ResponseBody = Pick<FixtureResponse, 'body' | 'bodyText' | 'bodyFrames' | 'bodyBase64'>;
type RequestBody = Pick<FixtureRequest, 'body' | 'bodyText'>;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** The body of a request as the fixture holds it: parsed JSON, or text. */
export function encodeRequestBody(
  text: string | undefined,
  secrets: readonly string[],
): RequestBody {
  if (text === undefined || text === '') return {};
  const json = parseJson(text);
  return json.ok ? { body: redactValue(json.value, secrets) } : { bodyText: redact(text, secrets) };
}

/** A request body text parsed for comparison: the JSON value, or the text when it is not JSON. */
export function requestBodyValue(text: string | undefined): RequestBody {
  if (text === undefined || text === '') return {};
  const json = parseJson(text);
  return json.ok ? { body: json.value } : { bodyText: text };
}

/**
 * The body of a response as the fixture holds it, secrets removed: AWS event streams as decoded
 * frames, JSON (by content type) parsed, other UTF-8 as text lines, anything else as base64 chunks
 * (refused with `FixtureSecretError` if a secret is in the bytes).
 */
export function encodeResponseBody(
  chunks: readonly Uint8Array[],
  contentType: string | undefined,
  secrets: readonly string[],
  fixture: string,
): ResponseBody {
  const bytes = concat(chunks);
  if (bytes.length === 0) return {};
  const type = (contentType ?? '').toLowerCase();
  if (type.startsWith(EVENT_STREAM_TYPE)) {
    const frames = decodeFrames(bytes);
    if (frames !== undefined)
      return {
        bodyFrames: frames.map((frame) => {
          const headers = redactValue(frame.headers, secrets) as Record<string, string>;
          return frame.payloadText === undefined
            ? { headers, payload: redactValue(frame.payload, secrets) }
            : { headers, payloadText: redact(frame.payloadText, secrets) };
        }),
      };
  }
  let text: string | undefined;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    const buffer = Buffer.from(bytes);
    if (holdsSecret(`${buffer.toString('latin1')}\n${buffer.toString('utf8')}`, secrets))
      throw new FixtureSecretError(fixture, 'a binary response body');
    return { bodyBase64: chunks.map((chunk) => Buffer.from(chunk).toString('base64')) };
  }
  if (/json/.test(type)) {
    const json = parseJson(text);
    if (json.ok) return { body: redactValue(json.value, secrets) };
  }
  return { bodyText: redact(text, secrets).split('\n') };
}

/**
 * The bytes a response body is served as, in its natural chunks: one per server-sent event, one
 * per event-stream frame, one per recorded base64 chunk, JSON whole.
 */
export function responseChunks(response: FixtureResponse): Uint8Array[] {
  if (response.bodyFrames !== undefined) return response.bodyFrames.map(encodeFrame);
  if (response.bodyBase64 !== undefined)
    return response.bodyBase64.map((chunk) => new Uint8Array(Buffer.from(chunk, 'base64')));
  if (response.bodyText !== undefined)
    return eventsOf(response.bodyText.join('\n')).map((event) => encoder.encode(event));
  if ('body' in response) return [encoder.encode(JSON.stringify(response.body))];
  return [];
}

/** Re-splits a body at the given byte offsets (out-of-range and repeated offsets ignored). */
export function resplit(chunks: readonly Uint8Array[], offsets: readonly number[]): Uint8Array[] {
  const bytes = concat(chunks);
  const cuts = [...new Set(offsets)]
    .filter((o) => Number.isInteger(o) && o > 0 && o < bytes.length)
    .sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    out.push(bytes.slice(start, cut));
    start = cut;
  }
  if (start < bytes.length) out.push(bytes.slice(start));
  return out;
}

/** Cut offsets every `size` bytes. */
export function everyBytes(size: number, length: number): number[] {
  const cuts: number[] = [];
  for (let at = size; at < length; at += size) cuts.push(at);
  return cuts;
}

/** Splits text after each blank line (the end of a server-sent event); the pieces rejoin to it. */
function eventsOf(text: string): string[] {
  const events: string[] = [];
  const separator = /\r\n\r\n|\n\n|\r\r/g;
  let start = 0;
  for (let match = separator.exec(text); match !== null; match = separator.exec(text)) {
    events.push(text.slice(start, match.index + match[0].length));
    start = match.index + match[0].length;
  }
  if (start < text.length) events.push(text.slice(start));
  return events;
}

/** The chunks joined into one buffer. */
export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
