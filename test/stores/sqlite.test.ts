/** The run-store contract against SQLite files in temporary folders (real better-sqlite3). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStore } from 'golem/stores/sqlite';
import { cachePointsContract } from './support/contract-cache-points';
import { recoveryContract } from './support/contract-recovery';
import { runsContract } from './support/contract-runs';
import { writesContract } from './support/contract-writes';
import { ownersContract } from './support/contract-owners';
import { conversationOrderContract } from './support/contract-conversation-order';

const factory = (clock: { now: () => number }) => {
  const dir = mkdtempSync(join(tmpdir(), 'golem-sqlite-'));
  const store = sqliteStore({ path: join(dir, 'runs.db'), clock: clock.now });
  return Promise.resolve({
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
};

runsContract('sqlite', factory);
recoveryContract('sqlite', factory);
cachePointsContract('sqlite', factory);
writesContract('sqlite', factory);
ownersContract('sqlite', factory);
conversationOrderContract('sqlite', factory);
