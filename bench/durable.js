'use strict';
/**
 * Durable runs (issues 15 and 35): what checkpointing costs. Scenario s1 — the 3-turn, 2-tool
 * loop of scenario (a) — run with no store, the memory store, SQLite (a temp file, WAL,
 * synchronous NORMAL) and PostgreSQL (loopback; a scratch schema per store, dropped afterwards).
 *
 * (1) One run at a time: the median per-run time minus the no-store median, divided by 3 turns,
 *     is the checkpoint overhead per turn (targets: <= 1 ms SQLite, <= 3 ms PostgreSQL).
 * (2) 1,000 stored runs started at once (issue 35): wall time and runs per second (median over
 *     the rounds), node's CPU ms per run, and the latency of every checkpoint write those runs
 *     make — each store write (`insertRun`, `replaceRun`, `transaction`, …) timed from the call
 *     to its settling by a thin proxy around the store (reads are counted apart). The latency is
 *     what a run waits for its checkpoint under that load: it includes waiting for a pooled
 *     connection and for the event loop, not only the database. p50 / p99 / max over every write
 *     of every round, and the writes per run.
 *
 * Stores are opened together and interleaved: round r runs both phases of every store, in an
 * order rotated by r, so the machine's drift spreads over all of them (GC forced before each
 * concurrent batch when --expose-gc is given).
 *
 *   node --expose-gc bench/durable.js [--runs=300] [--rounds=7] [--concurrent=1000]
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
const { performance } = require('node:perf_hooks');
const { DIST, GOLEM } = require('./golem.js');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const RUNS = Number(args.runs ?? 300);
const ROUNDS = Number(args.rounds ?? 7);
const CONCURRENT = Number(args.concurrent ?? 1000);
const STORES = (args.stores ?? 'none,memory,sqlite,postgres,postgres-async').split(',');
const PG_URL = process.env.GOLEM_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PROMPT = 'Add 1+2, then add 3+4.';

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

/** The RunStore methods that write (a checkpoint, a start, a finish, a lease); reads are the rest. */
const WRITES = new Set([
  'insertRun',
  'replaceRun',
  'transaction',
  'deleteConversation',
  'putWorkingMemory',
  'deleteWorkingMemory',
]);
/** Synchronous or lifecycle methods, forwarded untimed. */
const UNTIMED = new Set(['now', 'migrate', 'close', 'constructor']);

/**
 * A proxy over `store` that forwards every property as is (a missing optional method stays
 * missing, so the engine's probes see the real store) and, while `probe.on`, times each call of a
 * method that returns a promise, from the call to its settling. Methods run with `this` = the
 * real store (its private fields stay reachable).
 */
function timedStore(store) {
  const probe = { on: false, writes: [], byMethod: new Map(), reads: 0 };
  const wrapped = new Map();
  const record = (name, ms) => {
    if (WRITES.has(name)) {
      probe.writes.push(ms);
      let list = probe.byMethod.get(name);
      if (list === undefined) probe.byMethod.set(name, (list = []));
      list.push(ms);
    } else probe.reads++;
  };
  const proxy = new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || typeof prop !== 'string' || UNTIMED.has(prop))
        return typeof value === 'function' ? value.bind(target) : value;
      let fn = wrapped.get(prop);
      if (fn === undefined || fn.original !== value) {
        fn = function (...callArgs) {
          if (!probe.on) return value.apply(target, callArgs);
          const start = performance.now();
          const result = value.apply(target, callArgs);
          if (result === null || typeof result !== 'object' || typeof result.then !== 'function') {
            record(prop, performance.now() - start);
            return result;
          }
          const done = () => record(prop, performance.now() - start);
          result.then(done, done);
          return result;
        };
        fn.original = value;
        wrapped.set(prop, fn);
      }
      return fn;
    },
  });
  return { proxy, probe };
}

async function openStore(kind) {
  if (kind === 'none') return { store: undefined, close: async () => undefined };
  if (kind === 'memory') return { store: memoryStore(), close: async () => undefined };
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-bench-'));
    try {
      const store = sqliteStore({ path: path.join(dir, 'runs.db') });
      await store.migrate();
      return {
        store,
        close: async () => {
          await store.close();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }
  // One scratch schema per PostgreSQL store: they are open at the same time.
  const schema = `golem_bench_${process.pid}_${kind.replace(/\W/g, '_')}`;
  const synchronousCommit = kind !== 'postgres-async';
  const store = postgresStore({
    connectionString: PG_URL,
    schema,
    poolSize: 10,
    synchronousCommit,
  });
  const close = async () => {
    const { Pool } = require('pg');
    const pool = new Pool({ connectionString: PG_URL, max: 1 });
    try {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await pool.end();
      await store.close().catch(() => undefined);
    }
  };
  try {
    await store.migrate();
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  return { store, close };
}

const sorted = (xs) => Float64Array.from(xs).sort();
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
/** Nearest-rank percentile of an ascending array. */
const pct = (asc, p) => asc[Math.max(0, Math.ceil(p * asc.length) - 1)];

async function sequentialRound(agent) {
  const start = performance.now();
  for (let i = 0; i < RUNS; i++) await agent.run(PROMPT);
  return (performance.now() - start) / RUNS;
}

async function concurrentRound(agent, probe) {
  globalThis.gc?.();
  if (probe) probe.on = true;
  const cpu = process.cpuUsage();
  const start = performance.now();
  let results;
  try {
    results = await Promise.all(Array.from({ length: CONCURRENT }, () => agent.run(PROMPT)));
  } finally {
    if (probe) probe.on = false;
  }
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (results.some((r) => r.output !== 'done')) throw new Error('a run did not finish');
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

const f = (x, digits = 2) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(digits));

function markdown(header, rows) {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

async function main() {
  const benches = [];
  const skipped = [];
  for (const kind of STORES) {
    let opened;
    try {
      opened = await openStore(kind);
    } catch (error) {
      skipped.push(`${kind}: skipped (${String(error.message).split('\n')[0]})`);
      continue;
    }
    const timed = opened.store && timedStore(opened.store);
    const agentWith = (store) => new golem.Agent({ model, tools: [add], ...(store && { store }) });
    benches.push({
      kind,
      opened,
      // The one-at-a-time phase uses the store itself; the concurrent one the timing proxy.
      plain: agentWith(opened.store),
      timed: agentWith(timed?.proxy),
      probe: timed?.probe,
      perRun: [],
      wall: [],
      cpu: [],
    });
  }
  try {
    for (const b of benches) {
      for (let i = 0; i < Math.max(1, RUNS / 5); i++) await b.plain.run(PROMPT); // warm-up
      await b.timed.run(PROMPT);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < benches.length; i++) {
        const b = benches[(i + round) % benches.length];
        b.perRun.push(await sequentialRound(b.plain));
        const c = await concurrentRound(b.timed, b.probe);
        b.wall.push(c.ms);
        b.cpu.push(c.cpuMs / CONCURRENT);
      }
    }
  } finally {
    for (const b of benches) await b.opened.close();
  }

  const baseline = benches.find((b) => b.kind === 'none');
  const baseMs = baseline && median(baseline.perRun);
  const results = new Map();
  for (const b of benches) {
    const ms = median(b.perRun);
    const wall = median(b.wall);
    const writes = b.probe ? sorted(b.probe.writes) : new Float64Array();
    const runs = CONCURRENT * ROUNDS;
    results.set(b.kind, {
      ms,
      perTurn: baseMs === undefined || b.kind === 'none' ? undefined : (ms - baseMs) / 3,
      wall,
      runsPerS: (CONCURRENT / wall) * 1000,
      cpu: median(b.cpu),
      p50: writes.length ? pct(writes, 0.5) : undefined,
      p99: writes.length ? pct(writes, 0.99) : undefined,
      max: writes.length ? writes[writes.length - 1] : undefined,
      writesPerRun: b.probe ? writes.length / runs : undefined,
      readsPerRun: b.probe ? b.probe.reads / runs : undefined,
      byMethod: b.probe
        ? [...b.probe.byMethod].map(([name, xs]) => {
            const s = sorted(xs);
            return { name, perRun: s.length / runs, p50: pct(s, 0.5), p99: pct(s, 0.99) };
          })
        : [],
    });
  }

  console.log(
    `durable runs, s1 (3 turns, 2 tools); one at a time: ${RUNS} runs x ${ROUNDS} rounds; ` +
      `concurrent: ${CONCURRENT} runs x ${ROUNDS} rounds; medians; node ${process.version}, ` +
      `${os.cpus()[0]?.model ?? '?'} x ${os.cpus().length}` +
      (globalThis.gc ? '' : ' (no --expose-gc: GC not forced between batches)'),
  );
  console.log();
  console.log(
    markdown(
      [
        'store',
        'ms/run (one at a time)',
        'checkpoint ms/turn',
        `${CONCURRENT} concurrent: ms`,
        'runs/s',
        'CPU ms/run (node)',
        'checkpoint p50 ms',
        'p99 ms',
        'max ms',
        'writes/run',
        'reads/run',
      ],
      [...results].map(([kind, r]) => [
        kind,
        f(r.ms, 3),
        f(r.perTurn, 3),
        f(r.wall, 0),
        f(r.runsPerS, 0),
        f(r.cpu, 3),
        f(r.p50),
        f(r.p99),
        f(r.max),
        f(r.writesPerRun, 2),
        f(r.readsPerRun, 2),
      ]),
    ),
  );
  for (const line of skipped) console.log(`\n${line}`);

  const methodRows = [];
  for (const [kind, r] of results)
    for (const m of r.byMethod) methodRows.push([kind, m.name, f(m.perRun, 2), f(m.p50), f(m.p99)]);
  if (methodRows.length > 0) {
    console.log(`\ncheckpoint writes of the concurrent phase, by store method`);
    console.log();
    console.log(markdown(['store', 'method', 'calls/run', 'p50 ms', 'p99 ms'], methodRows));
  }

  const perTurnRow = (label, kind, limit) => {
    const r = results.get(kind);
    if (r?.perTurn === undefined) return [label, `≤ ${limit} ms`, 'n/a', 'n/a'];
    return [
      label,
      `≤ ${limit} ms`,
      `${f(r.perTurn, 3)} ms`,
      r.perTurn <= limit ? 'met' : '**not met**',
    ];
  };
  const concurrentRow = (label, kind) => {
    const r = results.get(kind);
    if (r === undefined || r.p99 === undefined) return [label, 'reported', 'n/a', 'n/a'];
    const at = CONCURRENT === 1000 ? '' : ` (at ${CONCURRENT} concurrent)`;
    return [label, 'reported', `${f(r.runsPerS, 0)} runs/s, p99 ${f(r.p99)} ms${at}`, 'reported'];
  };
  console.log('\ntargets');
  console.log();
  console.log(
    markdown(
      ['target', 'wanted', 'measured', 'verdict'],
      [
        perTurnRow('checkpoint overhead per turn, SQLite', 'sqlite', 1),
        perTurnRow('checkpoint overhead per turn, PostgreSQL', 'postgres', 3),
        concurrentRow('1,000 concurrent durable runs on SQLite: runs/s, p99 checkpoint', 'sqlite'),
        concurrentRow(
          '1,000 concurrent durable runs on PostgreSQL: runs/s, p99 checkpoint',
          'postgres',
        ),
      ],
    ),
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
