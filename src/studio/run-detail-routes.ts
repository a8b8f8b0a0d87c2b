import type { IncomingMessage, ServerResponse } from 'node:http';
import { replyError, replyJson } from './http-io';
import type { StudioContext } from './studio-context';
import { openPoller } from './studio-sse';

/** `GET /api/runs/:id`: the run's detail (with its place on the queue, when there is one), or 404. */
export async function runDetailRoute(
  ctx: StudioContext,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const record = await ctx.findRun(id);
  if (record === undefined) replyError(res, 404, 'run not found');
  else replyJson(res, 200, await ctx.liveDetailOf(record));
}

/**
 * `GET /api/runs/:id/stream` (SSE): a `run` event with the detail whenever it changes — its
 * stored version, or (with a queue) its place on the queue, which moves without a store write.
 */
export async function streamRun(
  ctx: StudioContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const first = await ctx.findRun(id);
  if (first === undefined) {
    replyError(res, 404, 'run not found');
    return;
  }
  let shown = '';
  const poller = openPoller(
    req,
    res,
    ctx.pollMs,
    'run',
    async () => {
      const record = await ctx.findRun(id);
      if (record === undefined) return [];
      if (ctx.queue === undefined) {
        if (String(record.version) === shown) return [];
        shown = String(record.version);
        return [ctx.detailOf(record)];
      }
      const detail = await ctx.liveDetailOf(record);
      const key = `${String(record.version)} ${JSON.stringify(detail.queue ?? null)}`;
      if (key === shown) return [];
      shown = key;
      return [detail];
    },
    (error) => void ctx.report(error, 'run stream'),
    () => ctx.pollers.delete(poller),
  );
  ctx.pollers.add(poller);
}
