'use strict';
/**
 * Durable runs (issue 15): what checkpointing costs. Scenario s1 — the 3-turn, 2-tool loop of
 * scenario (a) — run with no store, the memory store, SQLite (a temp file, WAL, synchronous
 * NORMAL) and PostgreSQL (loopback; a scratch schema dropped afterwards), one run at a time:
 * the median per-run time minus the no-store median, divided by 3 turns, is the checkpoint
 * overhead per turn (targets: <= 1 ms SQLite, <= 3 ms PostgreSQL). Then 1,000 stored runs
 * started at once: wall time and runs per second.
 *
 *   node bench/durable.js [--runs=300] [--rounds=7] [--concurrent=1000]
 *       [--stores=none,memory,sqlite,postgres,postgres-async]
 *
 * `postgres-async` is the PostgreSQL store with `synchronousCommit: false` (no disk flush per
 * checkpoint on the server; see the durable-runs guide for what that trades).
 *
 * Loads the built dist (run `npm run build` first). PostgreSQL: GOLEM_BENCH_POSTGRES_URL, else
 * postgres://postgres@127.0.0.1:5432/test; an unreachable server is reported and skipped.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DIST, GOLEM } = require('./golem.js');

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => a.replace(/^--/, '').split('='))
    .map(([k, v]) => [k, v ?? 'true']),
);
const RUNS = Number(args.runs ?? 300);
const ROUNDS = Number(args.rounds ?? 7);
const CONCURRENT = Number(args.concurrent ?? 1000);
const STORES = (args.stores ?? 'none,memory,sqlite,postgres,postgres-async').split(',');
const PG_URL = process.env.GOLEM_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const golem = require(GOLEM);
const { memoryStore } = require(path.join(DIST, 'src', 'stores', 'memory', 'index.js'));
const { sqliteStore } = require(path.join(DIST, 'src', 'stores', 'sqlite', 'index.js'));
const { postgresStore } = require(path.join(DIST, 'src', 'stores', 'postgres', 'index.js'));

const CALLS = [
  { id: 'call_1', name: 'add', args: '{"a":1,"b":2}' },
  { id: 'call_2', name: 'add', args: '{"a":3,"b":4}' },
];

/** Stateless and instant: the turn is the number of tool results in the request. */
const model = {
  name: 'bench',
  async generate(request) {
    const turn = request.messages.filter((m) => m.role === 'tool').length;
    const call = CALLS[turn];
    return {
      message:
        call === undefined
          ? { role: 'assistant', content: 'done' }
          : { role: 'assistant', toolCalls: [call] },
      usage: { inputTokens: 10, outputTokens: 5 },
    };
  },
};

const add = golem.defineTool({
  name: 'add',
  description: 'Add two numbers',
  schema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  execute: (input) => String(input.a + input.b),
});

async function openStore(kind) {
  if (kind === 'none') return { store: undefined, close: async () => undefined };
  if (kind === 'memory') return { store: memoryStore(), close: async () => undefined };
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-bench-'));
    const store = sqliteStore({ path: path.join(dir, 'runs.db') });
    await store.migrate();
    return {
      store,
      close: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `golem_bench_${process.pid}`;
  const synchronousCommit = kind !== 'postgres-async';
  const store = postgresStore({
    connectionString: PG_URL,
    schema,
    poolSize: 10,
    synchronousCommit,
  });
  await store.migrate();
  return {
    store,
    close: async () => {
      const { Pool } = require('pg');
      const pool = new Pool({ connectionString: PG_URL, max: 1 });
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
      await store.close();
    },
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function sequential(agent) {
  for (let i = 0; i < RUNS / 5; i++) await agent.run('Add 1+2, then add 3+4.'); // warm-up
  const perRun = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < RUNS; i++) await agent.run('Add 1+2, then add 3+4.');
    perRun.push(Number(process.hrtime.bigint() - start) / 1e6 / RUNS);
  }
  return median(perRun);
}

async function concurrent(agent) {
  const start = process.hrtime.bigint();
  const results = await Promise.all(
    Array.from({ length: CONCURRENT }, () => agent.run('Add 1+2, then add 3+4.')),
  );
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (results.some((r) => r.output !== 'done')) throw new Error('a run did not finish');
  return ms;
}

async function main() {
  const rows = [];
  let baseline;
  for (const kind of STORES) {
    let opened;
    try {
      opened = await openStore(kind);
    } catch (error) {
      rows.push({ store: kind, note: `skipped: ${error.message.split('\n')[0]}` });
      continue;
    }
    try {
      const agent = new golem.Agent({
        model,
        tools: [add],
        ...(opened.store && { store: opened.store }),
      });
      const ms = await sequential(agent);
      if (kind === 'none') baseline = ms;
      const wall = await concurrent(agent);
      rows.push({
        store: kind,
        'ms/run': ms.toFixed(3),
        'checkpoint ms/turn':
          baseline === undefined || kind === 'none' ? '-' : ((ms - baseline) / 3).toFixed(3),
        [`${CONCURRENT} concurrent: ms`]: wall.toFixed(0),
        'runs/s': ((CONCURRENT / wall) * 1000).toFixed(0),
      });
    } finally {
      await opened.close();
    }
  }
  console.log(
    `durable runs, s1 (3 turns, 2 tools), ${RUNS} runs x ${ROUNDS} rounds, median; node ${process.version}`,
  );
  console.table(rows);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
