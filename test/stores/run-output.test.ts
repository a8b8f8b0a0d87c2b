/**
 * Schema version 2: a completed run's decoded output is stored with it (JSON), and a database
 * migrated by the version-1 golem is upgraded in place with its rows still readable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, decodeJSON, loadRun } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { sqliteStore } from 'golem/stores/sqlite';
import type { SqliteDriver } from 'golem/stores/sqlite';
import { ScriptedModel, textResponse } from 'golem/testing';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as SqliteDriver;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-run-output-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

test.each(['memory', 'sqlite'])('a completed run stores its decoded output (%s)', async (kind) => {
  const store = kind === 'memory' ? memoryStore() : sqliteStore({ path: join(dir, 'runs.db') });
  const agent = new Agent({
    model: new ScriptedModel([textResponse('{"city":"Lagos","celsius":31}')]),
    output: decodeJSON<{ city: string; celsius: number }>(),
    store,
  });
  const { runId } = await agent.run('weather');
  expect((await loadRun(store, runId ?? '')).output).toEqual({ city: 'Lagos', celsius: 31 });
  await store.close();
});

test('an output JSON cannot hold is left out, the run still completes', async () => {
  const store = memoryStore();
  const agent = new Agent({
    model: new ScriptedModel([textResponse('9')]),
    output: (response) => BigInt(response.message.content ?? '0'),
    store,
  });
  const result = await agent.run('n');
  expect(result.output).toBe(9n);
  const record = await loadRun(store, result.runId ?? '');
  expect(record).toMatchObject({ status: 'completed', output: undefined });
});

test('a version-1 SQLite database is migrated to the current version and its runs stay readable', async () => {
  const file = join(dir, 'v1.db');
  const db = new Database(file);
  // The version-1 schema, as the first durable release created it, with one completed run.
  db.exec(`CREATE TABLE golem_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL);
    INSERT INTO golem_migrations VALUES (1, 'runs and conversations', 0);
    CREATE TABLE golem_conversations (id TEXT PRIMARY KEY, messages TEXT NOT NULL, active_run_id TEXT, version INTEGER NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);
    CREATE TABLE golem_runs (id TEXT PRIMARY KEY, agent TEXT NOT NULL, conversation_id TEXT, conversation_base INTEGER NOT NULL, status TEXT NOT NULL, messages TEXT NOT NULL, usage TEXT NOT NULL, requests INTEGER NOT NULL, tool_calls INTEGER NOT NULL, turns INTEGER NOT NULL, pending TEXT, in_flight TEXT, error_stage TEXT, error_message TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, lease_owner TEXT, lease_expires_at BIGINT, version INTEGER NOT NULL);
    INSERT INTO golem_runs VALUES ('old', 'agent', NULL, 0, 'completed', '[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]', '{"inputTokens":1,"outputTokens":1}', 1, 0, 1, NULL, NULL, NULL, NULL, 0, 0, NULL, NULL, 3);`);
  db.close();
  const store = sqliteStore({ path: file });
  expect(await loadRun(store, 'old')).toMatchObject({
    status: 'completed',
    output: undefined,
    owner: undefined,
  });
  const agent = new Agent({ model: new ScriptedModel([textResponse('new')]), store });
  const { runId } = await agent.run('again');
  expect((await loadRun(store, runId ?? '')).output).toBe('new');
  await store.close();
  const check = new Database(file);
  expect(check.prepare('SELECT version FROM golem_migrations ORDER BY version').all()).toEqual([
    { version: 1 },
    { version: 2 },
    { version: 3 },
    { version: 4 },
    { version: 5 },
    { version: 6 },
  ]);
  check.close();
});
