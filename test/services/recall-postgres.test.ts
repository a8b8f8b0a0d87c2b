/**
 * The recall-store contract against a real PostgreSQL server (one fresh schema per test, dropped
 * after), and what only PostgreSQL has: exact similarity in SQL over `real[]`, a shared pool.
 */
import { StoreError } from 'golem';
import { postgresRecallStore, postgresStore } from 'golem/stores/postgres';
import { entry, recallContract } from '../stores/support/recall-contract';
import { dropSchema, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

const admin = testPool();
afterAll(() => admin.end());

recallContract(
  'postgres',
  (dimensions) => {
    const schema = schemaName();
    const open = (size: number) =>
      postgresRecallStore({
        connectionString: POSTGRES_URL,
        schema,
        dimensions: size,
        poolSize: 2,
      });
    const store = open(dimensions);
    return Promise.resolve({
      store,
      reopen: (size = dimensions) => open(size),
      cleanup: async () => {
        await store.close();
        await dropSchema(admin, schema);
      },
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

describe('postgresRecallStore', () => {
  let schema: string;
  beforeEach(() => {
    schema = schemaName();
  });
  afterEach(() => dropSchema(admin, schema));

  test('shares a pool and a schema with the run store; migrations run once when raced', async () => {
    const runs = postgresStore({ pool: admin, schema });
    const stores = [1, 2, 3].map(() => postgresRecallStore({ pool: admin, schema, dimensions: 3 }));
    const reports = await Promise.all([runs.migrate(), ...stores.map((s) => s.migrate())]);
    const recall = reports.slice(1);
    expect(recall.filter((r) => r.applied.length > 0)).toHaveLength(1);
    await stores[0]?.upsert([entry({ id: 'a', embedding: [1, 0, 0] })]);
    expect(await stores[1]?.count()).toBe(1);
    for (const store of stores) await store.close();
    await runs.close();
    // The caller's pool stays open.
    const { rows } = await admin.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [schema],
    );
    expect(rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'golem_recall_entries',
        'golem_recall_meta',
        'golem_runs',
        'golem_migrations',
      ]),
    );
  });

  test('concurrent upserts of the same entries in different orders do not deadlock', async () => {
    const one = postgresRecallStore({ pool: admin, schema, dimensions: 2 });
    const two = postgresRecallStore({ pool: admin, schema, dimensions: 2 });
    await one.migrate();
    const many = Array.from({ length: 1_200 }, (_, i) => entry({ id: `e${i}`, embedding: [1, i] }));
    await Promise.all([
      one.upsert(many),
      two.upsert([...many].reverse()),
      one.upsert(many.slice(600)),
    ]);
    expect(await two.count('alice')).toBe(1_200);
    await one.close();
    await two.close();
  });

  test('keeps embeddings as real[] of the fixed size, unit length (no pgvector needed)', async () => {
    const store = postgresRecallStore({ pool: admin, schema, dimensions: 2 });
    await store.upsert([entry({ id: 'a', embedding: [3, 4], text: 'nul \u0000 inside' })]);
    const { rows } = await admin.query(
      `SELECT embedding, pg_typeof(embedding)::text AS type, text FROM "${schema}".golem_recall_entries`,
    );
    expect(rows[0]?.type).toBe('real[]');
    const stored = rows[0]?.embedding as number[];
    expect(stored[0]).toBeCloseTo(0.6, 6);
    expect(stored[1]).toBeCloseTo(0.8, 6);
    expect(rows[0]?.text).toBe('nul \ufffd inside');
    // The CHECK constraint guards the size even for rows written around the store.
    const error = await admin
      .query(
        `INSERT INTO "${schema}".golem_recall_entries (owner, id, kind, text, created_at, embedding) VALUES ('o', 'x', 'message', 't', 0, '{1,0,0}')`,
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as { code?: string }).code).toBe('23514');
    await store.close();
  });

  test('with migrate: false, checks the schema and says to migrate', async () => {
    const store = postgresRecallStore({ pool: admin, schema, dimensions: 3, migrate: false });
    expect(await reason(store.count())).toBe('schema-outdated');
    expect(await store.migrate()).toEqual({ from: 0, to: 1, applied: [1] });
    expect(await store.count()).toBe(0);
    await admin.query(`INSERT INTO "${schema}".golem_recall_meta VALUES (99, 'future', 3, 0)`);
    const newer = postgresRecallStore({ pool: admin, schema, dimensions: 3 });
    expect(await reason(newer.count())).toBe('schema-too-new');
    await store.close();
    await newer.close();
  });

  test('an unreachable server is an unavailable StoreError on every call (the schema is not marked ready)', async () => {
    const store = postgresRecallStore({
      connectionString: 'postgres://postgres@127.0.0.1:1/test',
      schema,
      dimensions: 3,
    });
    expect(await reason(store.count())).toBe('unavailable');
    expect(await reason(store.query({ owner: 'a', embedding: [1, 0, 0], topK: 1 }))).toBe(
      'unavailable',
    );
    await store.close();
  });
});
