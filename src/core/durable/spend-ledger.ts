import type { SpendDimension, SpendEntry, SpendQuery, SpendRow } from './spend-port';

const DIMENSIONS: readonly SpendDimension[] = ['owner', 'agent', 'model', 'conversationId'];

/**
 * Sums `entries` in `query`'s period (`from <= at < to`) grouped by `query.by` (and currency), the
 * rows sorted by their group values. What the memory and Redis spend stores report with. Internal.
 */
export function sumSpend(entries: Iterable<SpendEntry>, query: SpendQuery): SpendRow[] {
  const by = DIMENSIONS.filter((d) => query.by.includes(d));
  const groups = new Map<string, { row: Record<string, unknown>; sort: string[] }>();
  for (const entry of entries) {
    if (entry.at < query.from || entry.at >= query.to) continue;
    const values = by.map((d) => entry[d]);
    const id = JSON.stringify([...values, entry.currency]);
    let group = groups.get(id);
    if (group === undefined) {
      const row: Record<string, unknown> = {};
      by.forEach((d, i) => {
        if (values[i] !== undefined) row[d] = values[i];
      });
      Object.assign(row, {
        cost: 0,
        currency: entry.currency,
        calls: 0,
        inputTokens: 0,
        outputTokens: 0,
      });
      group = { row, sort: [...values.map((v) => v ?? ''), entry.currency] };
      groups.set(id, group);
    }
    const row = group.row as {
      cost: number;
      calls: number;
      inputTokens: number;
      outputTokens: number;
    };
    row.cost += entry.cost;
    row.calls += 1;
    row.inputTokens += entry.inputTokens;
    row.outputTokens += entry.outputTokens;
  }
  return [...groups.values()]
    .sort((a, b) => compareLists(a.sort, b.sort))
    .map((g) => g.row as unknown as SpendRow);
}

function compareLists(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
