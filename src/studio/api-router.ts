import type { IncomingMessage, ServerResponse } from 'node:http';
import { evalsRoute } from './evals-routes';
import { replyError, replyJson } from './http-io';
import { playground } from './playground-route';
import { cancel, decide, replay, resume } from './run-actions';
import { runDetailRoute, streamRun } from './run-detail-routes';
import { runsPage, streamRuns } from './runs-routes';
import type { StudioContext } from './studio-context';
import { studioInfo } from './studio-info';

/**
 * Routes an authorized `/api/*` request: info, runs (list, detail, streams, actions),
 * playground, evals; anything else is 404 `no such API route`.
 */
export async function routeApi(
  ctx: StudioContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
): Promise<void> {
  const method = req.method ?? 'GET';
  const parts = path
    .split('/')
    .slice(2)
    .map((p) => decodeURIComponent(p)); // after '/api'
  const [head, id, action] = parts;
  const get = method === 'GET' || method === 'HEAD';
  if (head === 'info' && parts.length === 1 && get) {
    replyJson(res, 200, studioInfo(ctx));
    return;
  }
  if (head === 'runs') {
    if (parts.length === 1 && get) {
      replyJson(res, 200, await runsPage(ctx, query));
      return;
    }
    if (parts.length === 2 && id === 'stream' && get) {
      streamRuns(ctx, req, res, query);
      return;
    }
    if (id !== undefined && id !== '' && parts.length === 2 && get)
      return runDetailRoute(ctx, res, id);
    if (id !== undefined && id !== '' && parts.length === 3) {
      if (action === 'stream' && get) return streamRun(ctx, req, res, id);
      if (method === 'POST' && action === 'decisions') return decide(ctx, req, res, id);
      if (method === 'POST' && action === 'resume') return resume(ctx, res, id);
      if (method === 'POST' && action === 'replay') return replay(ctx, req, res, id);
      if (method === 'POST' && action === 'cancel') return cancel(ctx, req, res, id);
    }
  }
  if (head === 'playground' && parts.length === 2 && id !== undefined && method === 'POST')
    return playground(ctx, req, res, id);
  if (head === 'evals' && get) return evalsRoute(ctx.reports, res, parts, query);
  replyError(res, 404, 'no such API route');
}
