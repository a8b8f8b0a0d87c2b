/**
 * The recall-store contract on the memory adapter and on SQLite files through sqlite-vec (real
 * better-sqlite3 and sqlite-vec, files in temporary folders), and what only SQLite has.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreError } from 'golem';
import { memoryRecallStore } from 'golem/stores/memory';
import type { RecallSqliteDatabase } from 'golem/stores/sqlite';
import { sqliteRecallStore, sqliteStore } from 'golem/stores/sqlite';
import { entry, recallContract } from './support/recall-contract';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver under test, typed by golem's own interface
const Database = require('better-sqlite3') as new (
  file: string,
  options?: { readonly?: boolean },
) => RecallSqliteDatabase;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'golem-recall-'));
  dirs.push(dir);
  return join(dir, 'memory.db');
}

recallContract(
  'memory',
  (dimensions) => {
    const store = memoryRecallStore({ dimensions });
    return Promise.resolve({ store, cleanup: () => store.close() });
  },
  { persistent: false },
);

recallContract(
  'sqlite',
  (dimensions) => {
    const path = tempFile();
    const store = sqliteRecallStore({ path, dimensions });
    return Promise.resolve({
      store,
      reopen: (size = dimensions) => sqliteRecallStore({ path, dimensions: size }),
      cleanup: () => store.close(),
    });
  },
  { persistent: true },
);

async function reason(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return StoreError.is(error) ? error.reason : String(error);
}

function caught(body: () => unknown): unknown {
  try {
    body();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('sqliteRecallStore', () => {
  test('shares a file with the run store, each with its own tables and version', async () => {
    const path = tempFile();
    const runs = sqliteStore({ path });
    const recall = sqliteRecallStore({ path, dimensions: 3 });
    expect(await runs.migrate()).toMatchObject({ from: 0 });
    expect(await recall.migrate()).toEqual({ from: 0, to: 1, applied: [1] });
    await recall.upsert([entry({ id: 'a', embedding: [1, 0, 0] })]);
    expect(await runs.listRuns()).toEqual([]);
    await runs.close();
    await recall.close();
    const db = new Database(path, { readonly: true });
    const names = (
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]
    ).map((r) => r.name);
    db.close();
    expect(names).toEqual(
      expect.arrayContaining([
        'golem_runs',
        'golem_migrations',
        'golem_recall_meta',
        'golem_recall_entries',
        'golem_recall_vectors',
      ]),
    );
  });

  test('another table prefix holds another embedding size in the same file', async () => {
    const path = tempFile();
    const small = sqliteRecallStore({ path, dimensions: 3 });
    const large = sqliteRecallStore({ path, dimensions: 5, table: 'recall_large' });
    await small.upsert([entry({ id: 'a', embedding: [1, 0, 0] })]);
    await large.upsert([entry({ id: 'a', embedding: [0, 0, 0, 0, 1] })]);
    expect(await small.count()).toBe(1);
    expect(
      (await large.query({ owner: 'alice', embedding: [0, 0, 0, 0, 2], topK: 1 }))[0]?.score,
    ).toBeCloseTo(1, 5);
    await small.close();
    await large.close();
  });

  test('takes a better-sqlite3 database you opened, and leaves it open', async () => {
    const db = new Database(tempFile());
    const recall = sqliteRecallStore({ database: db, dimensions: 2 });
    await recall.upsert([entry({ id: 'a', embedding: [0, 1] })]);
    await recall.close();
    expect(db.prepare('SELECT COUNT(*) AS n FROM golem_recall_entries').all()).toEqual([{ n: 1 }]);
    db.close();
  });

  test('with migrate: false, checks the schema and says to migrate', async () => {
    const path = tempFile();
    const unmigrated = sqliteRecallStore({ path, dimensions: 3, migrate: false });
    expect(await reason(unmigrated.count())).toBe('schema-outdated');
    expect(await unmigrated.migrate()).toEqual({ from: 0, to: 1, applied: [1] });
    expect(await unmigrated.count()).toBe(0);
    await unmigrated.close();
  });

  test('refuses a schema newer than it knows, changing nothing', async () => {
    const path = tempFile();
    const first = sqliteRecallStore({ path, dimensions: 3 });
    await first.migrate();
    await first.close();
    const db = new Database(path);
    db.prepare(`INSERT INTO golem_recall_meta VALUES (99, 'future', 3, 0)`).run();
    db.close();
    const again = sqliteRecallStore({ path, dimensions: 3 });
    expect(await reason(again.count())).toBe('schema-too-new');
    await again.close();
  });

  test('names a missing peer and what to install', () => {
    const missing = () => {
      throw Object.assign(new Error("Cannot find module 'sqlite-vec'"), {
        code: 'MODULE_NOT_FOUND',
      });
    };
    const vec = caught(() =>
      sqliteRecallStore({ path: ':memory:', dimensions: 3, extension: missing }),
    );
    expect(StoreError.isReason(vec, 'driver-missing')).toBe(true);
    expect((vec as Error).message).toMatch(
      /sqlite-vec is not installed.*npm install better-sqlite3 sqlite-vec/,
    );
    const driver = caught(() =>
      sqliteRecallStore({ path: ':memory:', dimensions: 3, driver: missing }),
    );
    expect((driver as Error).message).toMatch(/better-sqlite3 is not installed/);
    const broken = caught(() =>
      sqliteRecallStore({
        path: ':memory:',
        dimensions: 3,
        extension: () => ({
          load: () => {
            throw new Error('no such file');
          },
        }),
      }),
    );
    expect(StoreError.isReason(broken, 'driver-missing')).toBe(true);
    expect((broken as Error).message).toMatch(/could not be loaded \(no such file\)/);
  });

  test('refuses bad options', () => {
    const bad = [
      { dimensions: 0, path: ':memory:' },
      { dimensions: 1.5, path: ':memory:' },
      { dimensions: 9_000, path: ':memory:' },
      { dimensions: 3 },
      { dimensions: 3, path: '' },
      { dimensions: 3, path: ':memory:', chunkSize: 12 },
      { dimensions: 3, path: ':memory:', table: 'x; DROP TABLE y' },
    ];
    for (const options of bad) {
      const error = caught(() => sqliteRecallStore(options));
      expect(StoreError.isReason(error, 'invalid-options')).toBe(true);
    }
    expect(
      StoreError.isReason(
        caught(() => memoryRecallStore({ dimensions: -1 })),
        'invalid-options',
      ),
    ).toBe(true);
  });

  test('a missing folder is named, not created', () => {
    const error = caught(() =>
      sqliteRecallStore({ path: join(tempFile(), 'nope', 'memory.db'), dimensions: 3 }),
    );
    expect(StoreError.isReason(error, 'unavailable')).toBe(true);
    expect((error as Error).message).toMatch(/the folder .*nope.* does not exist/);
  });

  test('a damaged file is a corrupt StoreError', async () => {
    const path = tempFile();
    writeFileSync(path, 'not a database at all, not at all'.repeat(200));
    const error = await reason(
      Promise.resolve().then(() => sqliteRecallStore({ path, dimensions: 3 }).count()),
    );
    expect(error).toBe('corrupt');
  });
});
