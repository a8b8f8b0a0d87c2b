'use strict';
/**
 * Response cache hit latency (issue 30): one model call answered by `responseCache()` on each
 * store, measured through `wrapModel` (the middleware chain, the key's SHA-256 over the canonical
 * request, the store's read, the entry's decoding), beside the same call on the instant fake
 * model without a cache.
 *
 *   node --expose-gc bench/caching.js [--stores=none,memory,sqlite,postgres,redis] [--calls=2000]
 *       [--rounds=5] [--history=0,40]
 *
 * - `--history`: messages of history in the request (0: the s1 prompt alone; 40: a 40-message
 *   conversation, ~8 KB of JSON to key and ~0.5 KB to decode).
 * - PostgreSQL: GOLEM_BENCH_POSTGRES_URL, else postgres://postgres@127.0.0.1:5432/test (a scratch
 *   schema, dropped afterwards); Redis: GOLEM_BENCH_REDIS_URL, else redis://127.0.0.1:6379 (a
 *   random key prefix, deleted afterwards); SQLite: a temp file.
 *
 * Each round times `calls` hits one after another (after a warm-up of the same size); the table
 * gives the median over rounds of the µs per call, and the process's CPU µs per call. Loads the
 * built dist (run `npm run build` first).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { DIST, GOLEM } = require('./golem.js');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const STORES = (args.stores ?? 'none,memory,sqlite,postgres,redis').split(',');
const CALLS = Number(args.calls ?? 2000);
const ROUNDS = Number(args.rounds ?? 5);
const HISTORIES = (args.history ?? '0,40').split(',').map(Number);
const PG_URL = process.env.GOLEM_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.GOLEM_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const golem = require(GOLEM);
const load = (...p) => require(path.join(DIST, 'src', ...p, 'index.js'));
const { responseCache, memoryCacheStore } = load('middleware');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toPrecision(3));

/** The instant model: answers on the next microtask with a fresh provider-shaped response. */
const fakeModel = {
  name: 'openai:gpt-4o-mini',
  generate: () =>
    Promise.resolve({
      message: { role: 'assistant', content: 'The sum is 10.' },
      usage: { inputTokens: 120, outputTokens: 8 },
      finishReason: 'stop',
    }),
};

function request(history) {
  const messages = [{ role: 'system', content: 'You add numbers with the add tool.' }];
  for (let i = 0; i < history; i++)
    messages.push(
      i % 2 === 0
        ? { role: 'user', content: `Question ${i}: what is ${i} plus ${i + 1}? `.repeat(4) }
        : { role: 'assistant', content: `It is ${2 * i + 1}. `.repeat(8) },
    );
  messages.push({ role: 'user', content: 'Add 1 and 2, then 3 and 4.' });
  return {
    messages,
    tools: [
      {
        name: 'add',
        description: 'Adds two integers',
        schema: {
          type: 'object',
          properties: { a: { type: 'integer' }, b: { type: 'integer' } },
          required: ['a', 'b'],
        },
      },
    ],
    settings: { temperature: 0, maxTokens: 256 },
  };
}

async function openStores() {
  const stores = {};
  const closers = [];
  for (const name of STORES) {
    if (name === 'none') stores.none = undefined;
    else if (name === 'memory') stores.memory = memoryCacheStore();
    else if (name === 'sqlite') {
      const { sqliteCacheStore } = load('stores', 'sqlite');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-cache-bench-'));
      const store = sqliteCacheStore({ path: path.join(dir, 'cache.db') });
      stores.sqlite = store;
      closers.push(async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });
    } else if (name === 'postgres') {
      const { postgresCacheStore } = load('stores', 'postgres');
      const schema = `golem_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const { Pool } = require(require.resolve('pg', { paths: [path.resolve(__dirname, '..')] }));
      const pool = new Pool({ connectionString: PG_URL, max: 2 });
      await pool.query(`CREATE SCHEMA "${schema}"`);
      stores.postgres = postgresCacheStore({ pool, schema });
      closers.push(async () => {
        await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
        await pool.end();
      });
    } else if (name === 'redis') {
      const { redisCacheStore } = load('stores', 'redis');
      const { Redis } = require(
        require.resolve('ioredis', { paths: [path.resolve(__dirname, '..')] }),
      );
      const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const prefix = `golem-bench-${randomUUID().slice(0, 8)}`;
      stores.redis = redisCacheStore({ client, prefix });
      closers.push(async () => {
        const keys = await client.keys(`${prefix}:*`);
        if (keys.length > 0) await client.del(...keys);
        client.disconnect();
      });
    } else throw new Error(`unknown store ${name}`);
  }
  return { stores, close: () => Promise.all(closers.map((c) => c())) };
}

async function measure(model, req) {
  const perCall = [];
  const cpu = [];
  for (let i = 0; i < CALLS; i++) await model.generate(req); // warm-up (and the first miss)
  for (let r = 0; r < ROUNDS; r++) {
    globalThis.gc?.();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) await model.generate(req);
    const t1 = process.hrtime.bigint();
    const c = process.cpuUsage(c0);
    perCall.push(Number(t1 - t0) / 1000 / CALLS);
    cpu.push((c.user + c.system) / CALLS);
  }
  return { median: median(perCall), cpu: median(cpu) };
}

async function main() {
  const { stores, close } = await openStores();
  const rows = [];
  try {
    for (const history of HISTORIES) {
      const req = request(history);
      for (const name of STORES) {
        const store = stores[name];
        const model =
          name === 'none'
            ? golem.wrapModel(fakeModel, [])
            : golem.wrapModel(fakeModel, [responseCache({ store })]);
        const result = await measure(model, req);
        rows.push({ history, store: name, ...result });
      }
    }
  } finally {
    await close();
  }
  console.log(
    `Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}; ` +
      `${CALLS} calls × ${ROUNDS} rounds (median of rounds)`,
  );
  console.log('\n| history | store | µs per call (median) | CPU µs per call | vs no cache |');
  console.log('|---:|---|---:|---:|---:|');
  for (const row of rows) {
    const base = rows.find((r) => r.history === row.history && r.store === 'none');
    const over = base === undefined ? '—' : `+${fmt(row.median - base.median)} µs`;
    console.log(
      `| ${row.history} | ${row.store === 'none' ? 'no cache (instant model)' : row.store} | ${fmt(row.median)} | ${fmt(row.cpu)} | ${row.store === 'none' ? '—' : over} |`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
