/**
 * The SQLite response cache store on a real temp file, beside the run store in the same file:
 * hits across store instances (another process), expiry on an injected clock, lazy deletion of
 * expired rows, prune, upserts, options.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, StoreError } from 'golem';
import { responseCache } from 'golem/middleware';
import { sqliteCacheStore, sqliteStore } from 'golem/stores/sqlite';
import type { SqliteDriver } from 'golem/stores/sqlite';
import { FunctionModel, textResponse } from 'golem/testing';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as SqliteDriver;

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-sqlite-cache-'));
  file = join(dir, 'runs.db');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function rows(): { key: string; value: string; expires_at: number | null }[] {
  const db = new Database(file);
  try {
    return db
      .prepare('SELECT key, value, expires_at FROM golem_response_cache ORDER BY key')
      .all() as {
      key: string;
      value: string;
      expires_at: number | null;
    }[];
  } finally {
    db.close();
  }
}

test('shares the run store file; a second store on the file answers from the cache', async () => {
  const model = new FunctionModel(() => textResponse('hello', { inputTokens: 4, outputTokens: 2 }));
  const runs = sqliteStore({ path: file });
  const first = sqliteCacheStore({ path: file });
  await new Agent({ model, store: runs, middleware: [responseCache({ store: first })] }).run('hi');
  await first.close();
  const second = sqliteCacheStore({ path: file });
  const result = await new Agent({
    model,
    store: runs,
    middleware: [responseCache({ store: second })],
  }).run('hi');
  await second.close();
  await runs.close();
  expect(model.calls).toBe(1);
  expect(result.output).toBe('hello');
  expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 1 });
  const stored = rows();
  expect(stored).toHaveLength(1);
  expect(stored[0]?.key).toMatch(/^[0-9a-f]{64}$/);
  expect(stored[0]?.expires_at).toBeNull();
});

test('expiry on the store clock: an expired row is a miss and is deleted when read; prune clears the rest', async () => {
  let clock = 10_000;
  const store = sqliteCacheStore({ path: file, now: () => clock });
  await store.set('a', 'A', 100);
  await store.set('b', 'B', 50);
  await store.set('c', 'C', undefined);
  expect(rows().map((r) => r.expires_at)).toEqual([10_100, 10_050, null]);
  clock += 99;
  expect(await store.get('a')).toBe('A');
  clock += 1;
  expect(await store.get('a')).toBeUndefined();
  expect(rows().map((r) => r.key)).toEqual(['b', 'c']);
  expect(await store.prune()).toBe(1);
  expect(rows().map((r) => r.key)).toEqual(['c']);
  expect(await store.get('c')).toBe('C');
  await store.close();
});

test('set replaces (value and expiry); delete removes; a closed store refuses', async () => {
  const store = sqliteCacheStore({ path: file, now: () => 0 });
  await store.set('k', 'one', 10);
  await store.set('k', 'two', undefined);
  expect(await store.get('k')).toBe('two');
  expect(rows()).toEqual([{ key: 'k', value: 'two', expires_at: null }]);
  await store.delete('k');
  await store.delete('missing');
  expect(await store.get('k')).toBeUndefined();
  await store.close();
  await expect(store.get('k')).rejects.toMatchObject({ reason: 'closed' });
});

test('a database you opened is used and left open', async () => {
  const db = new Database(file);
  const store = sqliteCacheStore({ database: db, table: 'my_cache' });
  await store.set('k', 'v', undefined);
  await store.close();
  expect(db.prepare('SELECT value FROM my_cache').all()).toEqual([{ value: 'v' }]);
  db.close();
});

test('options are checked', () => {
  expect(() => sqliteCacheStore({})).toThrow(StoreError);
  expect(() => sqliteCacheStore({ path: file, database: new Database(':memory:') })).toThrow(
    /either/,
  );
  expect(() => sqliteCacheStore({ path: file, table: 'bad name' })).toThrow(/table/);
  expect(() => sqliteCacheStore({ path: join(dir, 'nope', 'x.db') })).toThrow(/does not exist/);
});
