/**
 * A schema-version-4 database (fixtures/runs-v4.db) migrates to version 5: conversations stored
 * before titles existed read as untitled threads, its runs still load, and threads and working
 * memory work on it.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConversation, loadRun, StoreError } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import type { SqliteDriver } from 'golem/stores/sqlite';
import { Threads } from '../../src/memory/threads';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver under test, typed by golem's SqliteDriver
const Database = require('better-sqlite3') as SqliteDriver;

const FIXTURE = join(__dirname, 'fixtures', 'runs-v4.db');
const LATER = 1_700_000_000_000 + 60 * 60 * 1000;

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-threads-migration-'));
  file = join(dir, 'runs.db');
  copyFileSync(FIXTURE, file);
  // A conversation as golem wrote it at schema version 4: no title or metadata columns.
  const db = new Database(file);
  db.prepare(
    'INSERT INTO golem_conversations (id, messages, active_run_id, version, created_at, updated_at, owner) VALUES (?, ?, NULL, 2, ?, ?, ?)',
  ).run('old-chat', '[{"role":"user","content":"hello from v4"}]', 1, 2, 'alice');
  db.close();
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('a version-4 database is refused until migrated, then migrates to 6 (5 and 6 applied once)', async () => {
  const checked = sqliteStore({ path: file, migrate: false, clock: () => LATER });
  const outdated: unknown = await checked.getConversation('old-chat').catch((e: unknown) => e);
  expect(StoreError.isReason(outdated, 'schema-outdated')).toBe(true);
  expect(await checked.migrate()).toEqual({ from: 4, to: 6, applied: [5, 6] });
  expect(await checked.migrate()).toEqual({ from: 6, to: 6, applied: [] });
  await checked.close();
});

test('after migrating, old rows read as before and threads and working memory work', async () => {
  const store = sqliteStore({ path: file, clock: () => LATER });
  try {
    expect((await loadRun(store, 'paused-1')).status).toBe('paused');
    const old = await loadConversation(store, 'old-chat', { owner: 'alice' });
    expect(old).toMatchObject({ title: undefined, metadata: undefined, owner: 'alice' });
    const threads = new Threads(store);
    expect(await threads.list({ owner: 'alice' })).toMatchObject([
      { id: 'old-chat', title: undefined },
    ]);
    expect(await threads.search({ owner: 'alice', text: 'FROM V4' })).toHaveLength(1);
    await threads.rename('old-chat', 'Old chat', { owner: 'alice' });
    const fork = await threads.fork('old-chat', { owner: 'alice', atMessage: 1 });
    expect(fork).toMatchObject({
      title: 'Old chat (fork)',
      messages: [{ content: 'hello from v4' }],
    });
    const record = { scope: 's', value: '{}', version: 1, updatedAt: LATER };
    expect(await store.putWorkingMemory?.(record, 0)).toBe(true);
    expect(await store.getWorkingMemory?.('s')).toEqual(record);
  } finally {
    await store.close();
  }
});
