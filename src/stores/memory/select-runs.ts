import type { RunFilter } from '../../core/durable/port';
import type { StoredRun } from '../../core/durable/records';

/** The default and largest number of runs one `listRuns` returns. */
export const LIST_LIMIT = 100;
export const LIST_LIMIT_MAX = 10_000;

/** The runs matching `filter`, newest `updatedAt` first (ties by id), at most `filter.limit`. */
export function selectRuns(runs: readonly StoredRun[], filter: RunFilter): StoredRun[] {
  const limit = Math.min(Math.max(filter.limit ?? LIST_LIMIT, 0), LIST_LIMIT_MAX);
  return runs
    .filter(
      (run) =>
        (filter.status === undefined || filter.status.includes(run.status)) &&
        (filter.agent === undefined || run.agent === filter.agent) &&
        (filter.conversationId === undefined || run.conversationId === filter.conversationId) &&
        (filter.owner === undefined || run.owner === filter.owner),
    )
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit);
}
