import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { UnsupportedContentEncodingError, WebFetchError, causeText } from './errors';
import type { FetchScope } from './scope';

/** A content coding the tool decodes. Internal. */
export type Coding = 'identity' | 'gzip' | 'deflate' | 'br';

/** The value the tool sends as `Accept-Encoding`. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The body as kept: at most `maxBytes` decoded bytes; `truncated` when there was more. */
export interface Body {
  readonly bytes: Buffer;
  readonly truncated: boolean;
}

/**
 * The coding of a response from its `Content-Encoding`; anything but one of gzip (x-gzip),
 * deflate, br or identity — including a list of codings — is refused.
 */
export function codingOf(response: IncomingMessage, url: string): Coding {
  const raw = response.headers['content-encoding'];
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate' || value === 'br') return value;
  throw new UnsupportedContentEncodingError(value, url);
}

function decoderFor(coding: Exclude<Coding, 'identity'>): Readable & NodeJS.WritableStream {
  if (coding === 'gzip') return createGunzip();
  if (coding === 'deflate') return createInflate();
  return createBrotliDecompress();
}

/**
 * Reads the body, decoding it as it streams, and stops as soon as more than `maxBytes` decoded
 * bytes arrived (a decompression bomb never inflates past the cap). A compressed body whose wire
 * size passes `2 × maxBytes + 64 KiB` is also cut. The response (and its socket) is destroyed
 * when reading ends, whatever the outcome.
 */
export async function readBody(
  response: IncomingMessage,
  coding: Coding,
  maxBytes: number,
  url: string,
  scope: FetchScope,
): Promise<Body> {
  const decoder = coding === 'identity' ? undefined : decoderFor(coding);
  const wireCap = maxBytes * 2 + 65_536;
  const wire = { bytes: 0, exceeded: false };
  if (decoder !== undefined) {
    response.on('data', (chunk: Buffer) => {
      wire.bytes += chunk.length;
      if (wire.bytes > wireCap && !wire.exceeded) {
        wire.exceeded = true;
        decoder.destroy();
      }
    });
    response.once('error', (error) => decoder.destroy(error));
    response.pipe(decoder);
  }
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  try {
    for await (const chunk of decoder ?? response) {
      const buffer = chunk as Buffer;
      if (kept + buffer.length > maxBytes) {
        chunks.push(buffer.subarray(0, maxBytes - kept));
        kept = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(buffer);
      kept += buffer.length;
    }
  } catch (cause) {
    scope.check();
    if (!wire.exceeded) {
      throw new WebFetchError(url, `reading the body failed: ${causeText(cause)}`, { cause });
    }
    truncated = true;
  } finally {
    decoder?.destroy();
    response.destroy();
  }
  scope.check();
  return { bytes: Buffer.concat(chunks, kept), truncated };
}
