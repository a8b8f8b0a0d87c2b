import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StoredRun } from '../core/index';
import type { RunPage, RunSummary } from './api-types';
import { summarizeRow } from './run-summary';
import type { StudioContext } from './studio-context';
import { openPoller } from './studio-sse';

/** Rows a runs query reads at most (the `total` cap). */
const READ_CAP = 5000;

/** Rows the runs stream reads per poll: the newest, where every changed run lands. */
const STREAM_WINDOW = 200;

/** The store filter of a runs query, and whether it can match nothing (another owner asked). */
interface RowFilter {
  readonly filter: { agent?: string; status?: string[]; owner?: string };
  readonly none: boolean;
}

function intParam(value: string | null, fallback: number, max: number): number {
  if (value === null || !/^\d+$/.test(value)) return fallback;
  return Math.min(Number(value), max);
}

/** A non-negative amount (`minCost`), or undefined when absent or not a number. */
function costParam(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const amount = Number(value);
  return Number.isFinite(amount) && amount >= 0 ? amount : undefined;
}

function timeParam(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The raw rows the studio may see, newest `updatedAt` first (at most `limit`). */
async function readRows(
  ctx: StudioContext,
  filter: RowFilter['filter'],
  limit: number,
): Promise<StoredRun[]> {
  const rows = await ctx.store.listRuns({ ...filter, limit });
  return rows
    .filter((row) => ctx.owner === undefined || row.owner === ctx.owner)
    .sort((a, b) => b.updatedAt - a.updatedAt);
}

/** The owner to filter by: the asked one, the studio's scope, or false (outside the scope). */
function scopedOwner(ctx: StudioContext, asked: string | null): string | undefined | false {
  if (ctx.owner === undefined) return asked === null || asked === '' ? undefined : asked;
  return asked === null || asked === '' || asked === ctx.owner ? ctx.owner : false;
}

function rowFilter(ctx: StudioContext, query: URLSearchParams): RowFilter {
  const agent = query.get('agent') ?? '';
  const status = (query.get('status') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const who = scopedOwner(ctx, query.get('owner'));
  return {
    filter: {
      ...(agent !== '' && { agent }),
      ...(status.length > 0 && { status }),
      ...(typeof who === 'string' && { owner: who }),
    },
    none: who === false,
  };
}

/** `GET /api/runs`: a page of run summaries (filters: agent, status, owner, since, until, q). */
export async function runsPage(ctx: StudioContext, query: URLSearchParams): Promise<RunPage> {
  const { filter, none } = rowFilter(ctx, query);
  if (none) return { runs: [], total: 0 };
  const since = timeParam(query.get('since'));
  const until = timeParam(query.get('until'));
  const q = (query.get('q') ?? '').trim().toLowerCase();
  const minCost = costParam(query.get('minCost'));
  const limit = Math.max(1, intParam(query.get('limit'), 50, 200));
  const offset = intParam(query.get('offset'), 0, Number.MAX_SAFE_INTEGER);
  // Filters the store cannot apply need the rows read (up to the cap); otherwise this page and
  // one more row are enough — the list of a large store stays one indexed read.
  const narrowed = since !== undefined || until !== undefined || q !== '' || minCost !== undefined;
  const read = narrowed ? READ_CAP : Math.min(offset + limit + 1, READ_CAP);
  const rows = (await readRows(ctx, filter, read)).filter(
    (row) =>
      (since === undefined || row.updatedAt >= since) &&
      (until === undefined || row.updatedAt <= until) &&
      (q === '' ||
        row.id.toLowerCase().includes(q) ||
        row.agent.toLowerCase().includes(q) ||
        (row.conversationId ?? '').toLowerCase().includes(q)) &&
      (minCost === undefined || (ctx.spans.costOfRun(row.id)?.total ?? -1) >= minCost),
  );
  const now = Date.now();
  const page = rows
    .slice(offset, offset + limit)
    .map((row) => summarizeRow(row, now, ctx.spans.costOfRun(row.id)));
  return {
    runs: page,
    total: rows.length,
    ...(!narrowed && rows.length === read && { more: true }),
    ...(offset + limit < rows.length && { nextOffset: offset + limit }),
  };
}

/** `GET /api/runs/stream` (SSE): `runs` events with the summaries changed since the last poll. */
export function streamRuns(
  ctx: StudioContext,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
): void {
  const { filter, none } = rowFilter(ctx, query);
  const seen = new Map<string, number>();
  const poller = openPoller(
    req,
    res,
    ctx.pollMs,
    'runs',
    async () => {
      if (none) return [];
      // A run that changes moves to the top (newest updatedAt): the newest rows hold every change.
      const rows = await readRows(ctx, filter, STREAM_WINDOW);
      const now = Date.now();
      const changed: RunSummary[] = [];
      for (const row of rows) {
        if (seen.get(row.id) === row.version) continue;
        seen.set(row.id, row.version);
        changed.push(summarizeRow(row, now, ctx.spans.costOfRun(row.id)));
      }
      return changed.length > 0 ? [changed] : [];
    },
    (error) => void ctx.report(error, 'runs stream'),
    () => ctx.pollers.delete(poller),
  );
  ctx.pollers.add(poller);
}
