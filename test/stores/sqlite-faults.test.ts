/**
 * SQLite bad data and operations: rows that do not decode, a schema newer than the code, a
 * truncated or foreign file, migrations, a missing driver. Nothing is ever deleted or rewritten.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, listRuns, loadConversation, loadRun, StoreError } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import type { SqliteDriver } from 'golem/stores/sqlite';
import { ScriptedModel, textResponse } from 'golem/testing';

// The driver itself, to damage files the way a disk or an operator might.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as SqliteDriver;

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-sqlite-faults-'));
  file = join(dir, 'runs.db');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function seed(): Promise<string> {
  const store = sqliteStore({ path: file });
  const agent = new Agent({ model: new ScriptedModel([textResponse('hello')]), store });
  const { runId } = await agent.run('hi', { conversation: 'c1' });
  await store.close();
  return runId ?? '';
}

function raw(sql: string, ...params: unknown[]): unknown[] {
  const db = new Database(file);
  try {
    const statement = db.prepare(sql);
    return sql.startsWith('SELECT') ? statement.all(...params) : [statement.run(...params)];
  } finally {
    db.close();
  }
}

async function errorOf(promise: Promise<unknown>): Promise<StoreError> {
  const error: unknown = await promise.catch((e: unknown) => e);
  if (!StoreError.is(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return error;
}

test('runs and conversations survive closing and reopening the file', async () => {
  const runId = await seed();
  const store = sqliteStore({ path: file });
  expect((await loadRun(store, runId)).status).toBe('completed');
  expect((await loadConversation(store, 'c1'))?.messages.map((m) => m.content)).toEqual([
    'hi',
    'hello',
  ]);
  await store.close();
});

test('a row whose messages do not decode is a corrupt error naming the run; the row is kept', async () => {
  const runId = await seed();
  raw(`UPDATE golem_runs SET messages = '[{"role":"robot"}]' WHERE id = ?`, runId);
  const store = sqliteStore({ path: file });
  const error = await errorOf(loadRun(store, runId));
  expect(error).toMatchObject({ reason: 'corrupt', runId, retryable: false });
  expect(error.message).toContain(
    `stored run "${runId}" is unreadable: messages do not decode (history message 0: role must be one of`,
  );
  await expect(listRuns(store)).rejects.toThrow(StoreError);
  const agent = new Agent({ model: new ScriptedModel([]), store });
  expect((await errorOf(agent.resumeRun(runId))).reason).toBe('corrupt');
  await store.close();
  expect(raw('SELECT messages FROM golem_runs WHERE id = ?', runId)).toEqual([
    { messages: '[{"role":"robot"}]' },
  ]);
});

test('bad counters, status and pending are named', async () => {
  const runId = await seed();
  const store = sqliteStore({ path: file });
  raw(`UPDATE golem_runs SET status = 'exploded' WHERE id = ?`, runId);
  expect((await errorOf(loadRun(store, runId))).message).toContain(
    'status "exploded" is not one of running, paused, completed, failed',
  );
  raw(
    `UPDATE golem_runs SET status = 'paused', pending = '{"approvals":[{}]}' WHERE id = ?`,
    runId,
  );
  expect((await errorOf(loadRun(store, runId))).message).toContain(
    'pending.approvals[0] is not { callId, toolName, args, reason }',
  );
  raw(`UPDATE golem_runs SET pending = NULL, requests = 'many' WHERE id = ?`, runId);
  expect((await errorOf(loadRun(store, runId))).message).toContain(
    'requests is not a non-negative integer',
  );
  raw(`UPDATE golem_conversations SET messages = 'not json' WHERE id = 'c1'`);
  const conversation = await errorOf(loadConversation(store, 'c1'));
  expect(conversation).toMatchObject({ reason: 'corrupt', conversationId: 'c1' });
  const agent = new Agent({ model: new ScriptedModel([textResponse('x')]), store });
  expect((await errorOf(agent.run('more', { conversation: 'c1' }))).reason).toBe('corrupt');
  await store.close();
});

test('a schema newer than the code is refused and left alone', async () => {
  await seed();
  raw(`INSERT INTO golem_migrations (version, description, applied_at) VALUES (99, 'future', 0)`);
  const store = sqliteStore({ path: file });
  const error = await errorOf(loadRun(store, 'any'));
  expect(error.reason).toBe('schema-too-new');
  expect(error.message).toBe(
    `sqlite store "${file}": the database schema is at version 99, newer than the 6 this golem knows; upgrade golem (nothing was changed)`,
  );
  expect((await errorOf(store.migrate())).reason).toBe('schema-too-new');
  await store.close();
  expect(raw('SELECT COUNT(*) AS n FROM golem_runs')).toEqual([{ n: 1 }]);
});

test('migrate() applies the schema once; migrate: false only checks it', async () => {
  const unmigrated = sqliteStore({ path: file, migrate: false });
  expect((await errorOf(loadRun(unmigrated, 'x'))).reason).toBe('schema-outdated');
  expect(await unmigrated.migrate()).toEqual({ from: 0, to: 6, applied: [1, 2, 3, 4, 5, 6] });
  expect(await unmigrated.migrate()).toEqual({ from: 6, to: 6, applied: [] });
  expect((await errorOf(loadRun(unmigrated, 'x'))).reason).toBe('not-found');
  await unmigrated.close();
  expect(raw('SELECT version, description FROM golem_migrations')).toEqual([
    { version: 1, description: 'runs and conversations' },
    { version: 2, description: 'run outputs' },
    { version: 3, description: 'run and conversation owners' },
    { version: 4, description: 'the conversation length a run started on' },
    {
      version: 5,
      description: 'threads (conversation titles and metadata), working memory, compactions',
    },
    { version: 6, description: 'workflow runs' },
  ]);
});

test('a truncated database file is a corrupt error and its bytes are not touched', async () => {
  await seed();
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('journal_mode = DELETE');
  db.close();
  truncateSync(file, 4096 + 100); // the first page and a piece of the next
  const before = readFileSync(file);
  const error = await errorOf(
    (async () => {
      const store = sqliteStore({ path: file });
      try {
        await loadRun(store, 'any');
      } finally {
        await store.close();
      }
    })(),
  );
  expect(error.reason).toBe('corrupt');
  expect(error.message).toContain(
    `sqlite store "${file}": the database file is damaged or not a SQLite database (SQLITE_`,
  );
  expect(readFileSync(file).equals(before)).toBe(true);
});

test('a file that is not a database is refused unchanged', async () => {
  writeFileSync(file, 'these are my notes, not a database\n'.repeat(200));
  const before = readFileSync(file);
  let error: unknown;
  try {
    const store = sqliteStore({ path: file });
    await loadRun(store, 'x').finally(() => store.close());
  } catch (e) {
    error = e;
  }
  expect(StoreError.isReason(error, 'corrupt')).toBe(true);
  expect(readFileSync(file).equals(before)).toBe(true);
});

test('without better-sqlite3 installed the store says what to install', () => {
  const missing = () => {
    const error = new Error("Cannot find module 'better-sqlite3'") as Error & { code: string };
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  };
  let error: unknown;
  try {
    sqliteStore({ path: file, driver: missing });
  } catch (e) {
    error = e;
  }
  expect(error).toMatchObject({ reason: 'driver-missing' });
  expect((error as Error).message).toBe(
    'sqliteStore: the package better-sqlite3 is not installed; it is an optional peer dependency of golem: run `npm install better-sqlite3`',
  );
});

test('invalid options are typed errors', () => {
  expect(() => sqliteStore({ path: '' })).toThrow(
    "sqliteStore: `path` must be a file name (or ':memory:')",
  );
  expect(() => sqliteStore({ path: file, leaseMs: 0 })).toThrow(
    'sqliteStore: leaseMs must be a positive integer of milliseconds',
  );
  expect(() => sqliteStore({ path: file, synchronous: 'off' as 'full' })).toThrow(
    "sqliteStore: `synchronous` must be 'normal' or 'full'",
  );
  expect(() => new Agent({ model: new ScriptedModel([]), store: {} as never })).toThrow(
    'Agent `store` must be a RunStore',
  );
});

test('a closed store refuses work', async () => {
  const store = sqliteStore({ path: ':memory:' });
  await store.close();
  expect((await errorOf(loadRun(store, 'x'))).reason).toBe('closed');
});
