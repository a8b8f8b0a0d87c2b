/**
 * The workflow-store port of `postgresStore` against a real PostgreSQL server, one fresh schema
 * per test: the contract (two stores with their own pools racing on one schema), a damaged row,
 * and a schema-version-5 database migrating to 6 with its runs kept.
 */
import { loadRun, StoreError } from 'golem';
import { postgresStore } from 'golem/stores/postgres';
import { MIGRATIONS } from '../../src/stores/sql/schema';
import type { BothStores } from '../stores/support/contract-workflow-runs';
import { workflowRow, workflowRunsContract } from '../stores/support/contract-workflow-runs';
import { dropSchema, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

const admin = testPool();
afterAll(() => admin.end());

const schemas: string[] = [];
const opened: BothStores[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const schema of schemas.splice(0)) await dropSchema(admin, schema);
});

function open(schema: string, options: { clock?: () => number; migrate?: boolean } = {}) {
  const store = postgresStore({ connectionString: POSTGRES_URL, schema, poolSize: 2, ...options });
  opened.push(store);
  return store;
}

function freshSchema(): string {
  const schema = schemaName();
  schemas.push(schema);
  return schema;
}

workflowRunsContract('postgres', (clock) => {
  const schema = freshSchema();
  return Promise.resolve({
    store: open(schema, { clock: clock.now }),
    another: () => open(schema, { clock: clock.now }),
    cleanup: () => Promise.resolve(), // afterEach closes the stores and drops the schema
  });
});

async function errorOf(promise: Promise<unknown>): Promise<StoreError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!StoreError.is(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return error;
}

test('a damaged row (steps emptied by hand) is a corrupt StoreError naming the run', async () => {
  const schema = freshSchema();
  const store = open(schema);
  await store.insertWorkflowRun(workflowRow('wf-1'));
  const ok = workflowRow('wf-ok', { updatedAt: workflowRow('wf-1').updatedAt + 1 });
  await store.insertWorkflowRun(ok);
  await admin.query(`ALTER TABLE "${schema}".golem_workflow_runs ALTER COLUMN steps DROP NOT NULL`);
  await admin.query(`UPDATE "${schema}".golem_workflow_runs SET steps = NULL WHERE id = 'wf-1'`);
  const error = await errorOf(store.getWorkflowRun('wf-1'));
  expect(error).toMatchObject({ reason: 'corrupt', runId: 'wf-1' });
  expect(error.message).toBe(
    `postgres store (schema "${schema}"): stored workflow run "wf-1" is unreadable: steps is not text (null); nothing was changed — repair or delete the row`,
  );
  expect((await errorOf(store.listWorkflowRuns())).reason).toBe('corrupt');
  expect(await store.listWorkflowRuns({ limit: 1 })).toEqual([ok]); // the damaged row not read
});

test('ids and filters holding U+0000 match nothing; such an id cannot be inserted', async () => {
  const store = open(freshSchema());
  await store.insertWorkflowRun(workflowRow('wf-1', { owner: 'alice' }));
  expect(await store.getWorkflowRun('wf-1\u0000')).toBeUndefined();
  expect(await store.replaceWorkflowRun(workflowRow('wf-1\u0000', { version: 2 }), 1)).toBe(false);
  expect(await store.listWorkflowRuns({ owner: 'alice\u0000' })).toEqual([]);
  const error = await errorOf(store.insertWorkflowRun(workflowRow('bad\u0000id')));
  expect(error.reason).toBe('invalid-input');
  const named = workflowRow('wf-2', { workflow: 'ord\u0000er' });
  expect(await store.insertWorkflowRun(named)).toBe(true);
  expect((await store.getWorkflowRun('wf-2'))?.workflow).toBe('ord\ufffder');
});

test('schema version 6 adds the workflow table and its indexes', async () => {
  const schema = freshSchema();
  expect(await open(schema).migrate()).toEqual({ from: 0, to: 6, applied: [1, 2, 3, 4, 5, 6] });
  const { rows } = await admin.query(
    `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'golem_workflow_runs' ORDER BY indexname`,
    [schema],
  );
  expect(rows).toEqual(
    [
      'golem_workflow_runs_owner',
      'golem_workflow_runs_pkey',
      'golem_workflow_runs_status',
      'golem_workflow_runs_updated',
      'golem_workflow_runs_wake',
      'golem_workflow_runs_workflow',
    ].map((indexname) => ({ indexname })),
  );
});

test('a version-5 schema migrates to 6 keeping its runs, and then holds workflow runs', async () => {
  // Version 5 as golem made it: migrations 1 to 5 applied by hand, one completed run stored.
  const schema = freshSchema();
  const q = (name: string) => `"${schema}"."${name}"`;
  const tables = {
    runs: q('golem_runs'),
    conversations: q('golem_conversations'),
    migrations: q('golem_migrations'),
    workingMemory: q('golem_working_memory'),
    workflowRuns: q('golem_workflow_runs'),
    lockSuffix: ' FOR UPDATE',
  };
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.query(
    `CREATE TABLE ${tables.migrations} (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= 5)) {
    for (const statement of migration.statements(tables)) await admin.query(statement);
    await admin.query(`INSERT INTO ${tables.migrations} VALUES ($1, $2, 0)`, [
      migration.version,
      migration.description,
    ]);
  }
  await admin.query(
    `INSERT INTO ${tables.runs} (id, agent, conversation_id, conversation_base, status, messages, usage, requests, tool_calls, turns, created_at, updated_at, version, output, owner)
     VALUES ('old', 'agent', NULL, 0, 'completed', '[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]', '{"inputTokens":1,"outputTokens":1}', 1, 0, 1, 0, 0, 3, '"hello"', 'alice')`,
  );
  const before = (await admin.query(`SELECT * FROM ${tables.runs}`)).rows;

  const checked = open(schema, { migrate: false });
  expect((await errorOf(checked.listWorkflowRuns())).reason).toBe('schema-outdated');
  const others = [open(schema), open(schema)];
  const reports = await Promise.all(others.map((s) => s.migrate()));
  expect(reports.map((r) => r.applied).flat()).toEqual([6]);
  expect(await checked.migrate()).toEqual({ from: 6, to: 6, applied: [] });

  expect((await admin.query(`SELECT * FROM ${tables.runs}`)).rows).toEqual(before);
  expect(await loadRun(checked, 'old', { owner: 'alice' })).toMatchObject({
    status: 'completed',
    output: 'hello',
  });
  expect(await checked.insertWorkflowRun(workflowRow('wf-1'))).toBe(true);
  expect(await others[0]?.getWorkflowRun('wf-1')).toEqual(workflowRow('wf-1'));
});
