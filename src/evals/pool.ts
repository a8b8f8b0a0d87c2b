/**
 * Runs `worker(0)` … `worker(count - 1)` with at most `concurrency` running at once, starting them
 * in index order, and resolves with their results in index order. Once `signal` aborts no more
 * start (those never started are `undefined`); the ones running finish. A worker that throws
 * rejects the pool after the running ones settle.
 */
export async function runPool<T>(
  count: number,
  concurrency: number,
  worker: (index: number) => Promise<T>,
  signal: AbortSignal,
): Promise<(T | undefined)[]> {
  const results: (T | undefined)[] = new Array<T | undefined>(count).fill(undefined);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count && !signal.aborted) {
      const index = next;
      next += 1;
      results[index] = await worker(index);
    }
  };
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, lane);
  const settled = await Promise.allSettled(lanes);
  for (const outcome of settled) {
    if (outcome.status === 'rejected') throw outcome.reason;
  }
  return results;
}
