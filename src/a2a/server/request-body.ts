import type { IncomingMessage } from 'node:http';

/** What reading a request body gave: its text, or too large. */
export type BodyRead = { readonly text: string } | { readonly tooLarge: true };

/**
 * Reads the body of `req` up to `max` bytes. A declared or actual larger body stops the read
 * (`tooLarge`) without buffering the rest. A body Express already parsed (`req.body`) is reused.
 */
export async function readBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  const parsed = (req as { body?: unknown }).body;
  if (parsed !== undefined && typeof parsed === 'object' && parsed !== null && req.readableEnded) {
    const text = JSON.stringify(parsed);
    return Buffer.byteLength(text) > max ? { tooLarge: true } : { text };
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
