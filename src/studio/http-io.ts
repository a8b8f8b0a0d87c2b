import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRequestBody, writeJson } from '../core/kit/node-http';

/** Writes a JSON body with `status` (never cached). */
export function replyJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  writeJson(res, status, body, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
}

/** Writes `{ error }` with `status`. */
export function replyError(
  res: ServerResponse,
  status: number,
  error: string,
  headers?: Record<string, string>,
): void {
  replyJson(res, status, { error }, headers);
}

/** Whether `given` equals `token`, in constant time (both hashed first, so lengths leak nothing). */
export function tokenMatches(given: string, token: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Why `req` is refused (a 403 text), or undefined: the `Host` must be a loopback name or one of
 * `allowedHosts` (DNS rebinding), and an `Origin` header must be the studio's own origin (the
 * scheme and the Host the request names).
 */
export function hostRefusal(
  req: IncomingMessage,
  allowedHosts: ReadonlySet<string>,
): string | undefined {
  const host = (req.headers.host ?? '').trim().toLowerCase();
  const name = hostName(host);
  if (!LOOPBACK.has(name) && !allowedHosts.has(name) && !allowedHosts.has(host))
    return 'the Host header names a host this studio does not serve (allowedHosts)';
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  const own = `${secure ? 'https' : 'http'}://${host}`;
  if (origin.trim().toLowerCase() === own) return undefined;
  return 'the Origin header names another site: the studio answers its own pages only';
}

/** The largest request body the studio reads (1 MiB). */
export const MAX_BODY = 1024 * 1024;

/**
 * Reads a JSON request body (empty: `{}`); answers 413 (too large) or 400 (not JSON) itself and
 * then returns undefined.
 */
export async function readJson(
  req: IncomingMessage,
  res: ServerResponse,
): Promise<{ value: unknown } | undefined> {
  const body = await readRequestBody(req, MAX_BODY);
  if ('tooLarge' in body) {
    replyError(res, 413, `request body exceeds ${String(MAX_BODY)} bytes`, {
      connection: 'close',
    });
    return undefined;
  }
  try {
    return { value: body.text === '' ? {} : (JSON.parse(body.text) as unknown) };
  } catch {
    replyError(res, 400, 'the body is not valid JSON');
    return undefined;
  }
}
