/**
 * The PostgreSQL response cache store against a real server (one fresh schema per test, dropped
 * after): hits across workers through an agent, upserts, expiry on an injected clock with lazy
 * deletion and prune, a shared pool, concurrent first use, an unreachable server as a miss.
 */
import { Agent, StoreError } from 'golem';
import { responseCache } from 'golem/middleware';
import { postgresCacheStore } from 'golem/stores/postgres';
import { FunctionModel, textResponse } from 'golem/testing';
import { dropSchema, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

const admin = testPool();
afterAll(() => admin.end());

let schema: string;
beforeEach(() => {
  schema = schemaName();
});
afterEach(() => dropSchema(admin, schema));

async function rows(): Promise<{ key: string; value: string; expires_at: string | null }[]> {
  const result = await admin.query(
    `SELECT key, value, expires_at FROM "${schema}".golem_response_cache ORDER BY key`,
  );
  return result.rows as { key: string; value: string; expires_at: string | null }[];
}

test('two workers share answers: the second run makes no model call', async () => {
  const model = new FunctionModel(() => textResponse('hello', { inputTokens: 4, outputTokens: 2 }));
  const a = postgresCacheStore({ connectionString: POSTGRES_URL, schema, poolSize: 2 });
  const b = postgresCacheStore({ connectionString: POSTGRES_URL, schema, poolSize: 2 });
  try {
    await new Agent({ model, middleware: [responseCache({ store: a, ttl: 60_000 })] }).run('hi');
    const result = await new Agent({ model, middleware: [responseCache({ store: b })] }).run('hi');
    expect(model.calls).toBe(1);
    expect(result.output).toBe('hello');
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 1 });
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.key).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]?.expires_at).not.toBeNull();
  } finally {
    await a.close();
    await b.close();
  }
});

test('expiry on the store clock: an expired row is a miss and deleted when read; prune clears the rest', async () => {
  let clock = 1_000_000;
  const store = postgresCacheStore({ pool: admin, schema, now: () => clock });
  await store.set('a', 'A', 100);
  await store.set('b', 'B', 50);
  await store.set('c', 'C', undefined);
  expect((await rows()).map((r) => r.expires_at)).toEqual(['1000100', '1000050', null]);
  clock += 99;
  expect(await store.get('a')).toBe('A');
  clock += 1;
  expect(await store.get('a')).toBeUndefined();
  expect((await rows()).map((r) => r.key)).toEqual(['b', 'c']);
  expect(await store.prune()).toBe(1);
  expect((await rows()).map((r) => r.key)).toEqual(['c']);
  await store.close();
  // Our pool stays open.
  expect((await admin.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
});

test('set is an upsert; delete removes; values keep every character', async () => {
  const store = postgresCacheStore({ pool: admin, schema, now: () => 0 });
  const text = JSON.stringify({ s: 'é\u2028😀\u0000' });
  await store.set('k', 'one', 10);
  await store.set('k', text, undefined);
  expect(await store.get('k')).toBe(text);
  expect(await rows()).toEqual([{ key: 'k', value: text, expires_at: null }]);
  await store.delete('k');
  await store.delete('missing');
  expect(await store.get('k')).toBeUndefined();
});

test('several stores migrating the same schema at once all succeed', async () => {
  const stores = Array.from({ length: 4 }, () => postgresCacheStore({ pool: admin, schema }));
  await Promise.all(stores.map((s, i) => s.set(`k${i}`, `v${i}`, undefined)));
  expect((await rows()).map((r) => r.key)).toEqual(['k0', 'k1', 'k2', 'k3']);
});

test('an unreachable server is a miss: the run goes to the provider, onError hears of it', async () => {
  const store = postgresCacheStore({
    connectionString: 'postgres://postgres@127.0.0.1:1/test',
    schema,
    poolSize: 1,
  });
  const errors: unknown[] = [];
  const model = new FunctionModel(() => textResponse('hello'));
  const agent = new Agent({
    model,
    middleware: [responseCache({ store, onError: (error) => errors.push(error) })],
  });
  expect((await agent.run('hi')).output).toBe('hello');
  expect(errors.length).toBe(2);
  expect(StoreError.is(errors[0])).toBe(true);
  expect(errors[0]).toMatchObject({ reason: 'unavailable' });
  await store.close();
});

test('options are checked', () => {
  expect(() => postgresCacheStore({ schema: 'bad-name' })).toThrow(/schema/);
  expect(() => postgresCacheStore({ table: '1x' })).toThrow(/table/);
  expect(() => postgresCacheStore({ pool: admin, connectionString: POSTGRES_URL })).toThrow(
    /either/,
  );
});
