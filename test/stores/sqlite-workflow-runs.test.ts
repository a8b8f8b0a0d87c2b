/**
 * The workflow-store port of `sqliteStore` on real SQLite files: the contract (two store
 * instances on one file for the races), damaged rows, and a schema-version-5 database migrating
 * to 6 with its runs kept.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRun, StoreError } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import type { SqliteDriver } from 'golem/stores/sqlite';
import { MIGRATIONS } from '../../src/stores/sql/schema';
import type { BothStores } from './support/contract-workflow-runs';
import { workflowRow, workflowRunsContract } from './support/contract-workflow-runs';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver under test, typed by golem's SqliteDriver
const Database = require('better-sqlite3') as SqliteDriver;

let dir: string;
let file: string;
const opened: BothStores[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-sqlite-workflows-'));
  file = join(dir, 'runs.db');
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(options: { clock?: () => number; migrate?: boolean } = {}): BothStores {
  const store = sqliteStore({ path: file, ...options });
  opened.push(store);
  return store;
}

workflowRunsContract('sqlite', (clock) =>
  Promise.resolve({
    store: open({ clock: clock.now }),
    another: () => open({ clock: clock.now }),
    cleanup: () => Promise.resolve(), // afterEach closes and removes
  }),
);

/** Runs `sql` on the file with the driver itself (as an operator or a damaged disk would). */
function raw(sql: string, ...params: unknown[]): unknown[] {
  const db = new Database(file);
  try {
    const statement = db.prepare(sql);
    return sql.startsWith('SELECT') || sql.startsWith('EXPLAIN')
      ? statement.all(...params)
      : [statement.run(...params)];
  } finally {
    db.close();
  }
}

async function errorOf(promise: Promise<unknown>): Promise<StoreError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!StoreError.is(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return error;
}

describe('damaged workflow rows', () => {
  test.each([
    ['version', `'two'`, 'version is not an integer ("two")'],
    ['steps', `X'00ff'`, 'steps is not text (an object)'],
    ['wake_at', '1.5', 'wake_at is not an integer or null (a number (1.5))'],
    ['created_at', `'soon'`, 'created_at is not an integer ("soon")'],
  ])(
    '%s holding %s is a corrupt StoreError naming the run and the column',
    async (column, value, problem) => {
      const store = open();
      await store.insertWorkflowRun(workflowRow('wf-1'));
      await store.insertWorkflowRun(workflowRow('wf-ok'));
      raw(`UPDATE golem_workflow_runs SET ${column} = ${value} WHERE id = 'wf-1'`);
      const error = await errorOf(store.getWorkflowRun('wf-1'));
      expect(error).toMatchObject({ reason: 'corrupt', runId: 'wf-1' });
      expect(error.message).toBe(
        `sqlite store "${file}": stored workflow run "wf-1" is unreadable: ${problem}; nothing was changed — repair or delete the row`,
      );
      expect((await errorOf(store.listWorkflowRuns())).reason).toBe('corrupt');
      expect(await store.getWorkflowRun('wf-ok')).toEqual(workflowRow('wf-ok'));
      expect(await store.replaceWorkflowRun(workflowRow('wf-1', { version: 2 }), 1)).toBe(
        column !== 'version', // the damaged version matches no expected version
      );
    },
  );
});

describe('schema version 6', () => {
  test('a fresh file is created at version 6 with the workflow table and its indexes', async () => {
    expect(await open().migrate()).toEqual({ from: 0, to: 6, applied: [1, 2, 3, 4, 5, 6] });
    const indexes = raw(
      `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'golem_workflow_runs' AND sql IS NOT NULL ORDER BY name`,
    );
    expect(indexes).toEqual([
      { name: 'golem_workflow_runs_owner' },
      { name: 'golem_workflow_runs_status' },
      { name: 'golem_workflow_runs_updated' },
      { name: 'golem_workflow_runs_wake' },
      { name: 'golem_workflow_runs_workflow' },
    ]);
    const plan = raw(
      `EXPLAIN QUERY PLAN SELECT id FROM golem_workflow_runs WHERE status = 'suspended' AND wake_at IS NOT NULL AND wake_at <= 5`,
    ) as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toContain('INDEX golem_workflow_runs_wake');
  });

  test('a version-5 database migrates to 6 keeping its runs, and then holds workflow runs', async () => {
    // Version 5 as golem made it: the version-4 fixture (two runs), migration 5 applied by hand.
    copyFileSync(join(__dirname, 'fixtures', 'runs-v4.db'), file);
    const tables = {
      runs: 'golem_runs',
      conversations: 'golem_conversations',
      migrations: 'golem_migrations',
      workingMemory: 'golem_working_memory',
      workflowRuns: 'golem_workflow_runs',
      lockSuffix: '',
    };
    const five = MIGRATIONS.find((m) => m.version === 5);
    if (five === undefined) throw new Error('migration 5 is missing');
    for (const statement of five.statements(tables)) raw(statement);
    raw(`INSERT INTO golem_migrations (version, description, applied_at) VALUES (5, 'v5', 0)`);
    raw(
      `INSERT INTO golem_conversations (id, messages, active_run_id, version, created_at, updated_at, owner, title) VALUES ('chat', '[]', NULL, 1, 1, 2, 'alice', 'Old chat')`,
    );
    const before = raw('SELECT * FROM golem_runs ORDER BY id');
    expect(before).toHaveLength(2);

    const checked = open({ migrate: false });
    expect((await errorOf(checked.getWorkflowRun('x'))).reason).toBe('schema-outdated');
    expect(await checked.migrate()).toEqual({ from: 5, to: 6, applied: [6] });
    expect(await checked.migrate()).toEqual({ from: 6, to: 6, applied: [] });

    expect(raw('SELECT * FROM golem_runs ORDER BY id')).toEqual(before);
    expect((await loadRun(checked, 'paused-1')).status).toBe('paused');
    expect(await checked.getConversation('chat')).toMatchObject({ title: 'Old chat' });
    expect(await checked.insertWorkflowRun(workflowRow('wf-1'))).toBe(true);
    const reopened = open();
    expect(await reopened.getWorkflowRun('wf-1')).toEqual(workflowRow('wf-1'));
    expect(raw('SELECT version FROM golem_migrations ORDER BY version')).toEqual(
      [1, 2, 3, 4, 5, 6].map((version) => ({ version })),
    );
  });
});
