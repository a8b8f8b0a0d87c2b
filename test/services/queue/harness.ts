/**
 * In-process queue harness for the services suite: a unique Redis key prefix and a fresh SQLite
 * file per test, a producer and workers on them, and a cleanup that closes everything and deletes
 * every key under the prefix (asserting nothing is left behind).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunStore } from 'golem';
import { runQueue, runWorker } from 'golem/queue';
import type { RunQueue, RunQueueOptions, RunWorker, RunWorkerOptions } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../redis';

/** Fast crash detection for tests: locks of 1 s, stalled checks every 300 ms. */
export const FAST_STALLED = { lockDuration: 1_000, interval: 300, maxCount: 10 };

export interface Harness {
  readonly prefix: string;
  readonly dir: string;
  readonly dbPath: string;
  readonly store: RunStore;
  readonly queue: RunQueue;
  readonly errors: Error[];
  worker(
    options: Omit<RunWorkerOptions, 'connection' | 'store' | 'prefix'> & { store?: RunStore },
  ): Promise<RunWorker>;
  close(): Promise<void>;
}

export async function harness(
  options: Partial<Omit<RunQueueOptions, 'connection'>> & { leaseMs?: number } = {},
): Promise<Harness> {
  const prefix = uniquePrefix();
  const dir = mkdtempSync(join(tmpdir(), 'golem-queue-'));
  const dbPath = join(dir, 'runs.db');
  const store = options.store ?? sqliteStore({ path: dbPath, leaseMs: options.leaseMs ?? 30_000 });
  const errors: Error[] = [];
  const queue = runQueue({ connection: REDIS_URL, prefix, ...options, store });
  const workers: RunWorker[] = [];
  return {
    prefix,
    dir,
    dbPath,
    store,
    queue,
    errors,
    async worker(o) {
      const worker = await runWorker({
        connection: REDIS_URL,
        prefix,
        store,
        onError: (e) => errors.push(e),
        ...o,
      });
      workers.push(worker);
      return worker;
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await queue.close();
      await store.close();
      const redis = testRedis();
      await deletePrefix(redis, prefix);
      redis.disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
