import type { IncomingMessage } from 'node:http';
import { tokenMatches } from './http-io';

/** The token of an `Authorization: Bearer <token>` header, if any. */
function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1];
}

/** Whether a request is one of the SSE streams (the only ones that may carry `?token=`). */
function isStream(method: string, path: string): boolean {
  return method === 'GET' && /^\/api\/runs\/(?:[^/]+\/)?stream$/.test(path);
}

/**
 * Whether an `/api` or `/v1` request carries the studio's token: the bearer header, or `?token=`
 * on an SSE stream (EventSource cannot send headers). Compared in constant time.
 */
export function hasToken(req: IncomingMessage, url: URL, token: string): boolean {
  const method = req.method ?? 'GET';
  const given =
    bearer(req) ??
    (isStream(method, url.pathname) ? (url.searchParams.get('token') ?? undefined) : undefined);
  return given !== undefined && tokenMatches(given, token);
}
