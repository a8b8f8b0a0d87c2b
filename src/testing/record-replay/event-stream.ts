import { crc32 } from 'node:zlib';
import type { FixtureFrame } from './fixture-types';

/** The content type of AWS event streams (Bedrock ConverseStream). */
export const EVENT_STREAM_TYPE = 'application/vnd.amazon.eventstream';

/** Prelude (total length, headers length, prelude CRC) plus the trailing message CRC. */
const PRELUDE = 12;
const TRAILER = 4;
/** Header value type 7: a UTF-8 string with a 2-byte length. */
const STRING_TYPE = 7;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/**
 * Decodes a whole event stream into frames: every frame well formed (lengths and both CRCs
 * check), only string headers, a UTF-8 payload. Returns `undefined` for anything else, so the
 * caller can keep the bytes as they are.
 */
export function decodeFrames(bytes: Uint8Array): FixtureFrame[] | undefined {
  const frames: FixtureFrame[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const frame = decodeFrame(bytes, offset);
    if (frame === undefined) return undefined;
    frames.push(frame.frame);
    offset = frame.end;
  }
  return frames.length === 0 ? undefined : frames;
}

function decodeFrame(
  bytes: Uint8Array,
  offset: number,
): { frame: FixtureFrame; end: number } | undefined {
  if (bytes.length - offset < PRELUDE + TRAILER) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, bytes.length - offset);
  const total = view.getUint32(0);
  const headersLength = view.getUint32(4);
  if (total < PRELUDE + TRAILER + headersLength || total > bytes.length - offset) return undefined;
  if (view.getUint32(8) !== crc32(bytes.subarray(offset, offset + 8))) return undefined;
  if (view.getUint32(total - 4) !== crc32(bytes.subarray(offset, offset + total - 4)))
    return undefined;
  const headers = decodeHeaders(bytes.subarray(offset + PRELUDE, offset + PRELUDE + headersLength));
  if (headers === undefined) return undefined;
  let text: string;
  try {
    text = strictUtf8.decode(bytes.subarray(offset + PRELUDE + headersLength, offset + total - 4));
  } catch {
    return undefined;
  }
  const frame: FixtureFrame = { headers };
  const json = parseJson(text);
  if (json.ok) frame.payload = json.value;
  else frame.payloadText = text;
  return { frame, end: offset + total };
}

function decodeHeaders(bytes: Uint8Array): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let at = 0;
  try {
    while (at < bytes.length) {
      const nameLength = view.getUint8(at);
      const name = strictUtf8.decode(bytes.subarray(at + 1, at + 1 + nameLength));
      at += 1 + nameLength;
      if (view.getUint8(at) !== STRING_TYPE) return undefined;
      const valueLength = view.getUint16(at + 1);
      if (at + 3 + valueLength > bytes.length) return undefined;
      headers[name] = strictUtf8.decode(bytes.subarray(at + 3, at + 3 + valueLength));
      at += 3 + valueLength;
    }
  } catch {
    return undefined; // a length running past the end, or a name that is not UTF-8
  }
  return headers;
}

/** Encodes one frame with fresh CRCs (payload: compact JSON, or the text as is). */
export function encodeFrame(frame: FixtureFrame): Uint8Array {
  const headerParts = Object.entries(frame.headers).map(([name, value]) => {
    const nameBytes = encoder.encode(name);
    const valueBytes = encoder.encode(value);
    const part = new Uint8Array(1 + nameBytes.length + 3 + valueBytes.length);
    const view = new DataView(part.buffer);
    view.setUint8(0, nameBytes.length);
    part.set(nameBytes, 1);
    view.setUint8(1 + nameBytes.length, STRING_TYPE);
    view.setUint16(2 + nameBytes.length, valueBytes.length);
    part.set(valueBytes, 4 + nameBytes.length);
    return part;
  });
  const headersLength = headerParts.reduce((sum, part) => sum + part.length, 0);
  const payload = encoder.encode(
    frame.payloadText ?? (frame.payload === undefined ? '' : JSON.stringify(frame.payload)),
  );
  const total = PRELUDE + headersLength + payload.length + TRAILER;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  let at = PRELUDE;
  for (const part of headerParts) {
    out.set(part, at);
    at += part.length;
  }
  out.set(payload, at);
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)));
  return out;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
