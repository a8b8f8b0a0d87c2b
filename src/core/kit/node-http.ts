import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Request and response helpers of the node:http doors that answer JSON (`golem/a2a`'s server,
 * `golem/studio`). Internal. Types only from node:http: nothing here loads it.
 */

/** What reading a request body gave: its text, or too large. */
export type BodyRead = { readonly text: string } | { readonly tooLarge: true };

/** What a framework's body parser may have left on the request (Express, NestJS). */
type ParsedRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

/**
 * Reads the body of `req` up to `max` bytes. A declared or actual larger body stops the read
 * (`tooLarge`) without buffering the rest. A body a framework already read is reused: its raw
 * bytes (`req.rawBody`, e.g. NestJS with `rawBody: true`), else the text or JSON it parsed into
 * `req.body` (Express's and NestJS's JSON parser).
 */
export async function readRequestBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  const { body: parsed, rawBody } = req as ParsedRequest;
  if (req.readableEnded) {
    if (Buffer.isBuffer(rawBody)) {
      return rawBody.length > max ? { tooLarge: true } : { text: rawBody.toString('utf8') };
    }
    if (typeof parsed === 'string') {
      return Buffer.byteLength(parsed) > max ? { tooLarge: true } : { text: parsed };
    }
    if (typeof parsed === 'object' && parsed !== null) {
      const text = JSON.stringify(parsed);
      return Buffer.byteLength(text) > max ? { tooLarge: true } : { text };
    }
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return { tooLarge: true };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > max) return { tooLarge: true };
    chunks.push(bytes);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}

/**
 * Writes `body` as JSON with `status` and its length; `headers` add to (or replace) the
 * `content-type: application/json` it sends.
 */
export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    })
    .end(text);
}
