/**
 * PostgreSQL commits a run's start and a final answer with `synchronous_commit = off` for that
 * statement's own transaction only: the connection (here the pool's only one) keeps the server's
 * setting for every later write-ahead record and result, and the relaxed rows are committed —
 * visible to another connection at once.
 */
import { Agent, loadRun } from 'golem';
import { postgresStore } from 'golem/stores/postgres';
import { scenarioModel, stepTool } from '../stores/support/scenario';
import { dropSchema, pg, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

const admin = testPool();
afterAll(() => admin.end());

test('relaxed writes do not change the connection: later writes still wait for the flush', async () => {
  const schema = schemaName();
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
  pool.on('error', () => undefined);
  const store = postgresStore({ pool, schema });
  try {
    const setting = async () =>
      (await pool.query('SHOW synchronous_commit')).rows[0]?.synchronous_commit as string;
    const before = await setting();
    expect(before).not.toBe('off');
    // The relaxed start, seen from another connection before anything else is written.
    let startSeen: unknown;
    const agent = new Agent({
      model: scenarioModel(async (request) => {
        if (request.messages.length === 1)
          startSeen = (await admin.query(`SELECT status FROM "${schema}".golem_runs`)).rows;
      }),
      tools: [stepTool(() => undefined)],
      store,
    });
    const result = await agent.run('go', { runId: 'relaxed' });
    expect(startSeen).toEqual([{ status: 'running' }]);
    expect((await loadRun(store, 'relaxed')).status).toBe('completed');
    expect(result.output).toBe('done');
    expect(await setting()).toBe(before);
  } finally {
    await store.close();
    await pool.end();
    await dropSchema(admin, schema);
  }
});

test.each([
  [true, 'named statements, prepared once per connection'],
  [false, 'no prepared statements (for poolers that do not keep them)'],
])('prepare: %s — %s; the run is the same', async (prepare) => {
  const schema = schemaName();
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
  pool.on('error', () => undefined);
  const store = postgresStore({ pool, schema, prepare });
  try {
    const agent = new Agent({ model: scenarioModel(), tools: [stepTool(() => undefined)], store });
    await agent.run('go', { runId: 'first' });
    await agent.run('go', { runId: 'second', conversation: 'chat' });
    expect((await loadRun(store, 'second')).status).toBe('completed');
    const names = (await pool.query('SELECT name FROM pg_prepared_statements')).rows.map(
      (r) => r.name as string,
    );
    if (!prepare) expect(names).toEqual([]);
    else {
      expect(names.length).toBeGreaterThanOrEqual(5);
      expect(names.every((n) => /^golem_[0-9a-f]{32}$/.test(n))).toBe(true);
    }
  } finally {
    await store.close();
    await pool.end();
    await dropSchema(admin, schema);
  }
});

test('prepare must be a boolean', () => {
  expect(() => postgresStore({ connectionString: POSTGRES_URL, prepare: 'yes' as never })).toThrow(
    'postgresStore: `prepare` must be true or false',
  );
});
