/**
 * Races for the spend-cap and rate-limit suites: worker processes (spend-child.ts) start, say
 * they are ready, and are told to go at once.
 */
import { join } from 'node:path';
import { WorkerProcess } from '../queue/processes';
import type { SpendChildConfig } from './spend-child';

const CHILD = join(__dirname, 'spend-child.ts');

/** What the workers did, summed. */
export interface RaceOutcome {
  ok: number;
  refused: number;
  other: string[];
  kinds: Record<string, number>;
}

/** Starts `count` worker processes with `config` and waits until each is ready. */
export async function startChildren(
  count: number,
  config: SpendChildConfig,
): Promise<WorkerProcess[]> {
  const workers = Array.from({ length: count }, () => new WorkerProcess(config as never, CHILD));
  await Promise.all(workers.map((w) => w.next((m) => typeof m.ready === 'number')));
  return workers;
}

/** Tells `workers` to run `runs` runs each (`concurrency` at a time) and sums what they report. */
export async function go(
  workers: readonly WorkerProcess[],
  runs: number,
  concurrency: number,
): Promise<RaceOutcome> {
  for (const w of workers) w.send({ go: { runs, concurrency } });
  const results = await Promise.all(workers.map((w) => w.next((m) => 'done' in m)));
  const sum: RaceOutcome = { ok: 0, refused: 0, other: [], kinds: {} };
  for (const { done } of results) {
    const o = done as RaceOutcome;
    sum.ok += o.ok;
    sum.refused += o.refused;
    sum.other.push(...o.other);
    for (const [k, v] of Object.entries(o.kinds)) sum.kinds[k] = (sum.kinds[k] ?? 0) + v;
  }
  return sum;
}

/** Closes every worker. */
export async function closeAll(workers: readonly WorkerProcess[]): Promise<void> {
  await Promise.all(workers.map((w) => w.close()));
}
