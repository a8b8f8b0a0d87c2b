/** Concurrent run starts on one new conversation in a real SQLite file (issue 25, item 2). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStore } from 'golem/stores/sqlite';
import { conversationRaceContract } from './support/contract-conversation-race';

conversationRaceContract('sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'golem-race-'));
  const store = sqliteStore({ path: join(dir, 'runs.db') });
  return Promise.resolve({
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
});
