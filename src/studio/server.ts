import type { IncomingMessage, ServerResponse } from 'node:http';
import { routeApi } from './api-router';
import { hostRefusal, replyError } from './http-io';
import { hasToken } from './request-guard';
import { serveStatic } from './static-files';
import { studioContext } from './studio-context';
import type { StudioOptions } from './studio-options';
import { ingestTraces } from './traces-route';

/** A running studio: its token, its request handler, and `close`. */
export interface Studio {
  /** The API token (`Authorization: Bearer <token>`; `?token=` on SSE streams). */
  readonly token: string;
  /**
   * Handles a request (node:http, or Express middleware). With `next`, paths the studio does not
   * serve (non-GET requests outside its API) go there.
   */
  handle(req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void>;
  /** Ends the live streams and waits for the runs the studio started. */
  close(): Promise<void>;
}

/**
 * Golem Studio's server: the studio app's static files and its JSON API over a run store — runs
 * (list, detail with a derived timeline, live SSE streams), actions (decisions on paused runs,
 * resuming interrupted ones, replays from a checkpoint as new runs), a playground chat (golem/ui's
 * stream), eval reports, and an OTLP/HTTP JSON trace endpoint. Every `/api` and `/v1` request
 * needs the token; Host and Origin are checked (403), bodies bounded (413), and internal errors
 * answer only `internal error (ref …)`.
 */
export function createStudio(options: StudioOptions): Studio {
  const ctx = studioContext(options);
  let closed = false;

  /** An authorized `/api` or `/v1` request. */
  const serveApi = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const path = url.pathname;
    if (path === '/v1' || path.startsWith('/v1/')) {
      if (path === '/v1/traces' && req.method === 'POST' && ctx.traces)
        return ingestTraces(ctx.spans, req, res);
      replyError(res, 404, 'no such route');
      return;
    }
    return routeApi(ctx, req, res, path, url.searchParams);
  };

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    next?: () => void,
  ): Promise<void> => {
    const method = req.method ?? 'GET';
    let url: URL;
    try {
      const raw = (req as { originalUrl?: unknown }).originalUrl;
      url = new URL(typeof raw === 'string' ? raw : (req.url ?? '/'), 'http://localhost');
    } catch {
      replyError(res, 400, 'bad request URL');
      return;
    }
    const path = url.pathname;
    const refused = hostRefusal(req, ctx.allowedHosts);
    if (refused !== undefined) {
      replyError(res, 403, refused);
      return;
    }
    const isApi = path === '/api' || path.startsWith('/api/');
    const isOtlp = path === '/v1' || path.startsWith('/v1/');
    try {
      if (isApi || isOtlp) {
        if (closed) {
          replyError(res, 503, 'the studio is closed');
          return;
        }
        if (!hasToken(req, url, ctx.token)) {
          replyError(res, 401, 'a valid studio token is required', {
            'www-authenticate': 'Bearer',
          });
          return;
        }
        await serveApi(req, res, url);
        return;
      }
      if (method !== 'GET' && method !== 'HEAD') {
        if (next !== undefined) {
          next();
          return;
        }
        replyError(res, 405, 'method not allowed', { allow: 'GET, HEAD' });
        return;
      }
      await serveStatic(ctx.appDir, path, res, method === 'HEAD');
    } catch (error) {
      const ref = ctx.report(error, `${method} ${path}`);
      if (res.headersSent) {
        if (!res.writableEnded) res.end();
        return;
      }
      replyError(res, 500, `internal error (ref ${ref})`);
    }
  };

  return {
    token: ctx.token,
    handle,
    close: async () => {
      closed = true;
      for (const poller of [...ctx.pollers]) poller.stop();
      while (ctx.background.size > 0) await Promise.all([...ctx.background]);
    },
  };
}
