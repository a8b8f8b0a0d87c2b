/**
 * PostgreSQL faults against the real server: a connection that drops mid-run (through a proxy
 * that is cut), an unreachable server, bad rows, a schema newer than the code, concurrent
 * migrations.
 */
import { Agent, loadRun, StoreError } from 'golem';
import type { RunStore } from 'golem';
import { postgresStore } from 'golem/stores/postgres';
import {
  FakeClock,
  gate,
  resultsPerCall,
  scenarioModel,
  stepTool,
} from '../stores/support/scenario';
import { dropSchema, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';
import { TcpProxy } from './tcp-proxy';

const admin = testPool();
const schemas: string[] = [];
const stores: RunStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined);
  for (const schema of schemas.splice(0)) await dropSchema(admin, schema);
});
afterAll(() => admin.end());

function freshStore(options: { url?: string; clock?: FakeClock; migrate?: boolean } = {}) {
  const schema = schemaName();
  schemas.push(schema);
  const store = postgresStore({
    connectionString: options.url ?? POSTGRES_URL,
    schema,
    ...(options.clock !== undefined && { clock: options.clock.now }),
    ...(options.migrate !== undefined && { migrate: options.migrate }),
  });
  stores.push(store);
  return { store, schema };
}

async function errorOf(promise: Promise<unknown>): Promise<StoreError> {
  const error: unknown = await promise.catch((e: unknown) => e);
  if (!StoreError.is(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return error;
}

test('the connection dropping mid-run is a retryable store error, and the run resumes afterwards', async () => {
  const target = new URL(POSTGRES_URL);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  const url = new URL(POSTGRES_URL);
  url.port = String(proxy.port);
  const clock = new FakeClock();
  const { store } = freshStore({ url: url.toString(), clock });
  const effects: string[] = [];
  try {
    const cutting = gate();
    const step = stepTool(async (id) => {
      effects.push(id);
      if (id === 'a2') {
        await proxy.cut(); // the server goes away while a2 runs (a1's result is already durable)
        cutting.open();
      }
    });
    const error = await errorOf(
      new Agent({ model: scenarioModel(), tools: [step], store }).run('go', { runId: 'dropped' }),
    );
    await cutting.promise;
    expect(error).toMatchObject({ reason: 'unavailable', retryable: true, runId: 'dropped' });
    expect(error.message).toMatch(
      /^run "dropped": postgres store \(schema "golem_t_\w+"\): the connection to PostgreSQL failed or dropped/,
    );
    expect(error.message).not.toContain('postgres://');
    await proxy.restore();
    clock.advance(store.leaseMs + 1); // the lease could not be released while the server was away
    const agent = new Agent({
      model: scenarioModel(),
      tools: [stepTool((id) => void effects.push(id))],
      store,
    });
    // a2 ran but its result never reached the database: its outcome is unknown to the store.
    const paused = await agent.resumeRun('dropped');
    expect(paused.pending?.approvals.map((p) => p.callId)).toEqual(['a2']);
    const done = await agent.resume('dropped', { external: { a2: 'did B' } }); // an operator checked
    expect(done.output).toBe('done');
    expect(effects).toEqual(['a1', 'a2', 'c1']); // nothing ran twice
    expect(resultsPerCall(done.messages)).toEqual({ a1: 1, a2: 1, c1: 1 });
  } finally {
    await proxy.cut();
  }
});

test('an unreachable server is an unavailable error; nothing hangs', async () => {
  const proxy = new TcpProxy('127.0.0.1', 1);
  await proxy.start();
  const port = proxy.port;
  await proxy.cut(); // a port nobody listens on
  const { store } = freshStore({
    url: `postgres://postgres:secret-password@127.0.0.1:${port}/test`,
  });
  const error = await errorOf(loadRun(store, 'x'));
  expect(error).toMatchObject({ reason: 'unavailable', retryable: true });
  expect(error.message).not.toContain('secret-password');
});

test('a bad row is a corrupt error naming the run, and stays as it was', async () => {
  const { store, schema } = freshStore();
  const { runId } = await new Agent({
    model: scenarioModel(),
    tools: [stepTool(() => undefined)],
    store,
  }).run('go');
  await admin.query(
    `UPDATE "${schema}".golem_runs SET usage = '{"inputTokens":-1}' WHERE id = $1`,
    [runId],
  );
  const error = await errorOf(loadRun(store, runId ?? ''));
  expect(error).toMatchObject({ reason: 'corrupt', runId });
  expect(error.message).toContain('usage is not { inputTokens, outputTokens }');
  const { rows } = await admin.query(`SELECT usage FROM "${schema}".golem_runs WHERE id = $1`, [
    runId,
  ]);
  expect(rows).toEqual([{ usage: '{"inputTokens":-1}' }]);
});

test('a schema newer than the code is refused and left alone', async () => {
  const { store, schema } = freshStore();
  await store.migrate();
  await admin.query(
    `INSERT INTO "${schema}".golem_migrations (version, description, applied_at) VALUES (7, 'future', 0)`,
  );
  const second = postgresStore({ connectionString: POSTGRES_URL, schema });
  stores.push(second);
  const error = await errorOf(loadRun(second, 'x'));
  expect(error.reason).toBe('schema-too-new');
  expect(error.message).toContain(
    'the database schema is at version 7, newer than the 6 this golem knows',
  );
});

test('concurrent migrations apply each version once; migrate: false only checks', async () => {
  const { schema } = freshStore({ migrate: false });
  const unmigrated = stores[0] as RunStore;
  expect((await errorOf(loadRun(unmigrated, 'x'))).reason).toBe('schema-outdated');
  const others = [1, 2, 3].map(() => postgresStore({ connectionString: POSTGRES_URL, schema }));
  stores.push(...others);
  const reports = await Promise.all(others.map((s) => s.migrate()));
  expect(reports.map((r) => r.applied).flat()).toEqual([1, 2, 3, 4, 5, 6]);
  const { rows } = await admin.query(
    `SELECT version FROM "${schema}".golem_migrations ORDER BY version`,
  );
  expect(rows).toEqual([
    { version: 1 },
    { version: 2 },
    { version: 3 },
    { version: 4 },
    { version: 5 },
    { version: 6 },
  ]);
  expect((await errorOf(loadRun(unmigrated, 'x'))).reason).toBe('not-found');
});
