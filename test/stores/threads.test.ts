/** Threads and working-memory rows on the memory store and on a real SQLite file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from 'golem/stores/memory';
import { sqliteStore } from 'golem/stores/sqlite';
import type { StoreFactory } from './support/contract-runs';
import { threadsContract } from './support/contract-threads';

const memory: StoreFactory = (clock) =>
  Promise.resolve({ store: memoryStore({ clock: clock.now }), cleanup: () => Promise.resolve() });

const sqlite: StoreFactory = (clock) => {
  const dir = mkdtempSync(join(tmpdir(), 'golem-threads-'));
  const store = sqliteStore({ path: join(dir, 'runs.db'), clock: clock.now });
  return Promise.resolve({
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
};

threadsContract('memory', memory);
threadsContract('sqlite', sqlite);
