/**
 * A run that lost its run row to another writer between its last checkpoint and its end, on a
 * conversation: its end is refused with `conflict` and the conversation is left as it was — on
 * SQLite too, where explaining the refusal must not wait for the store beside its own open
 * transaction (it did, and the run hung forever).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, loadConversation, StoreError } from 'golem';
import type { RunStore } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse } from 'golem/testing';

const stores: [string, () => { store: RunStore; cleanup: () => Promise<void> }][] = [
  ['memory', () => ({ store: memoryStore(), cleanup: () => Promise.resolve() })],
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'golem-takeover-'));
      const store = sqliteStore({ path: join(dir, 'runs.db') });
      return {
        store,
        cleanup: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

describe.each(stores)('%s: a run whose row changed before its end', (_name, make) => {
  test('ends with conflict and leaves its conversation unchanged', async () => {
    const { store, cleanup } = make();
    try {
      const agent = new Agent({
        store,
        model: new FunctionModel(() => textResponse('answer')),
        // Runs after the final answer's checkpoint, before the run's end: another writer takes
        // the run row over (as a process that took an expired lease would).
        output: async () => {
          const row = await store.getRun('r');
          if (row === undefined) throw new Error('no row');
          await store.replaceRun(
            { ...row, leaseOwner: 'other', version: row.version + 1 },
            row.version,
          );
          return 'decoded';
        },
      });
      const error: unknown = await agent
        .run('hi', { conversation: 'c', runId: 'r' })
        .catch((e: unknown) => e);
      expect(StoreError.isReason(error, 'conflict')).toBe(true);
      expect((error as StoreError).message).toMatch(/run "r" was changed by another process/);
      const conversation = await loadConversation(store, 'c');
      expect(conversation?.messages).toEqual([]);
    } finally {
      await cleanup();
    }
  });
});
