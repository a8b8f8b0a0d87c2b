import type { RunSummary, StudioRunStatus } from '../../../src/studio/api-types';

/** The runs list's filters, as the user set them. */
export interface RunFilters {
  readonly agent: string;
  readonly status: StudioRunStatus | '';
  readonly owner: string;
  /** How far back, in ms ('' = any time). */
  readonly window: '' | '3600000' | '86400000' | '604800000';
  readonly q: string;
  /** The least cost a run shows with ('' = any; runs without a known cost are then hidden). */
  readonly minCost: string;
}

/** No filter. */
export const NO_FILTERS: RunFilters = {
  agent: '',
  status: '',
  owner: '',
  window: '',
  q: '',
  minCost: '',
};

/** Every run status, in the order the chips show them. */
export const STATUSES: readonly StudioRunStatus[] = ['running', 'paused', 'completed', 'failed'];

/** The `GET /api/runs` query of a filter set and page. */
export function runsQuery(filters: RunFilters, offset: number, limit: number, now: number): string {
  const params = new URLSearchParams();
  if (filters.agent !== '') params.set('agent', filters.agent);
  if (filters.status !== '') params.set('status', filters.status);
  if (filters.owner.trim() !== '') params.set('owner', filters.owner.trim());
  if (filters.window !== '') params.set('since', String(now - Number(filters.window)));
  if (filters.q.trim() !== '') params.set('q', filters.q.trim());
  if (filters.minCost.trim() !== '') params.set('minCost', filters.minCost.trim());
  params.set('limit', String(limit));
  if (offset > 0) params.set('offset', String(offset));
  return `api/runs?${params.toString()}`;
}

/** Whether a live-updated run belongs in the list the filters show (the server's rules). */
export function matchesFilters(run: RunSummary, filters: RunFilters, now: number): boolean {
  if (filters.agent !== '' && run.agent !== filters.agent) return false;
  if (filters.status !== '' && run.status !== filters.status) return false;
  if (filters.owner.trim() !== '' && run.owner !== filters.owner.trim()) return false;
  if (filters.window !== '' && run.updatedAt < now - Number(filters.window)) return false;
  const minCost = filters.minCost.trim() === '' ? undefined : Number(filters.minCost);
  if (minCost !== undefined && Number.isFinite(minCost) && (run.cost?.total ?? -1) < minCost)
    return false;
  const q = filters.q.trim().toLowerCase();
  if (q !== '') {
    const fields = [run.id, run.agent, run.conversationId ?? ''];
    if (!fields.some((field) => field.toLowerCase().includes(q))) return false;
  }
  return true;
}

/**
 * Merges changed runs (from the live stream) into a page: known rows are replaced (or dropped
 * when they no longer match), new matching rows join the first page; newest first.
 */
export function mergeRuns(
  rows: readonly RunSummary[],
  changed: readonly RunSummary[],
  filters: RunFilters,
  firstPage: boolean,
  limit: number,
  now: number,
): RunSummary[] {
  const byId = new Map(rows.map((run) => [run.id, run]));
  for (const run of changed) {
    const matches = matchesFilters(run, filters, now);
    if (byId.has(run.id)) {
      if (matches) byId.set(run.id, run);
      else byId.delete(run.id);
    } else if (matches && firstPage) byId.set(run.id, run);
  }
  return [...byId.values()].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, limit);
}
