'use strict';
/**
 * Workflow step overhead (issue 31): what one checkpointed step costs over a plain async function
 * call, and beside one agent run, on each store.
 *
 *   node --expose-gc bench/workflows.js [--stores=memory,sqlite,postgres] [--steps=20] [--runs=200]
 *       [--rounds=5]
 *
 * - `plain`: the same `steps` trivial async functions awaited one after another (no workflow);
 * - `workflow <store>`: a `defineWorkflow` run of `steps` sequential `wf.step`s on a
 *   `WorkflowRunner` over that store (insert, lease, one conditional write per step start and per
 *   step end, completion) — per step = the run's time / `steps`;
 * - `agent run <store>`: one agent run (a tool call and an answer on the instant fake model),
 *   without a store and checkpointed in the store, for scale.
 *
 * Each round times `runs` runs one after another (after a warm-up); the table gives the median
 * over rounds of µs per step (per run for agents) and the process's CPU µs per unit, and the
 * ratio to a plain call. PostgreSQL: GOLEM_BENCH_POSTGRES_URL, else
 * postgres://postgres@127.0.0.1:5432/test (a scratch schema, dropped afterwards); SQLite: a temp
 * file. Loads the built dist (run `npm run build` first).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { DIST, GOLEM } = require('./golem.js');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const STORES = (args.stores ?? 'memory,sqlite,postgres').split(',');
const STEPS = Number(args.steps ?? 20);
const RUNS = Number(args.runs ?? 200);
const ROUNDS = Number(args.rounds ?? 5);
const PG_URL = process.env.GOLEM_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const golem = require(GOLEM);
const load = (...p) => require(path.join(DIST, 'src', ...p, 'index.js'));
const { defineWorkflow, WorkflowRunner } = load('workflows');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toPrecision(3));

/** A trivial step body: a small JSON-serialisable value from the last one. */
const body = (n) => ({ n: n + 1, note: 'ok' });

async function plain() {
  let value = { n: 0 };
  for (let i = 0; i < STEPS; i++) value = await (async () => body(value.n))();
  return value;
}

const sequence = defineWorkflow({
  name: 'bench-sequence',
  async run(_input, wf) {
    let value = { n: 0 };
    for (let i = 0; i < STEPS; i++) {
      const last = value;
      value = await wf.step('step', () => body(last.n));
    }
    return value;
  },
});

/** The instant model of the agent scenario: one tool call, then an answer. */
function instantModel() {
  return {
    name: 'openai:gpt-4o-mini',
    generate: (request) =>
      Promise.resolve(
        request.messages.some((m) => m.role === 'tool')
          ? {
              message: { role: 'assistant', content: 'The sum is 10.' },
              usage: { inputTokens: 9, outputTokens: 3 },
            }
          : {
              message: {
                role: 'assistant',
                toolCalls: [{ id: 'c1', name: 'add', args: '{"a":4,"b":6}' }],
              },
              usage: { inputTokens: 8, outputTokens: 4 },
            },
      ),
  };
}

const add = golem.defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  schema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: (args) => String(args.a + args.b),
});

async function openStore(kind) {
  if (kind === 'memory') {
    const { memoryStore } = load('stores', 'memory');
    return { store: memoryStore(), close: async () => {} };
  }
  if (kind === 'sqlite') {
    const { sqliteStore } = load('stores', 'sqlite');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-bench-wf-'));
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
  if (kind === 'postgres') {
    const { postgresStore } = load('stores', 'postgres');
    const schema = `bench_wf_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const store = postgresStore({ connectionString: PG_URL, schema });
    await store.migrate();
    return {
      store,
      close: async () => {
        const { Client } = require(require.resolve('pg', { paths: [path.join(__dirname, '..')] }));
        await store.close();
        const admin = new Client({ connectionString: PG_URL });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      },
    };
  }
  throw new Error(`unknown store ${kind}`);
}

/** Times `runs` calls of `once` per round: medians of µs per unit (wall and CPU). */
async function measure(once, units) {
  for (let i = 0; i < Math.max(20, RUNS / 5); i++) await once();
  const walls = [];
  const cpus = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (global.gc) global.gc();
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < RUNS; i++) await once();
    const wall = Number(process.hrtime.bigint() - t0) / 1e3;
    const cpu = process.cpuUsage(cpu0);
    walls.push(wall / (RUNS * units));
    cpus.push((cpu.user + cpu.system) / (RUNS * units));
  }
  return { wall: median(walls), cpu: median(cpus) };
}

async function main() {
  const rows = [];
  const base = await measure(plain, STEPS);
  rows.push(['plain async call', 'step', base]);
  for (const kind of STORES) {
    let opened;
    try {
      opened = await openStore(kind);
    } catch (error) {
      console.error(`skipping ${kind}: ${error.message}`);
      continue;
    }
    try {
      const runner = new WorkflowRunner({ store: opened.store, workflows: [sequence] });
      rows.push([
        `workflow step (${kind})`,
        'step',
        await measure(() => runner.start(sequence, {}), STEPS),
      ]);
      const durable = new golem.Agent({ model: instantModel(), tools: [add], store: opened.store });
      rows.push([
        `agent run (${kind})`,
        'run',
        await measure(() => durable.run('Add 4 and 6.'), 1),
      ]);
    } finally {
      await opened.close();
    }
  }
  const agent = new golem.Agent({ model: instantModel(), tools: [add] });
  rows.push(['agent run (no store)', 'run', await measure(() => agent.run('Add 4 and 6.'), 1)]);

  console.log(
    `workflows bench — node ${process.version}, ${os.cpus().length} cpus, ${STEPS} steps/run, ${RUNS} runs x ${ROUNDS} rounds\n`,
  );
  console.log('| scenario | unit | µs per unit (median) | CPU µs per unit | × plain call |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const [name, unit, m] of rows)
    console.log(
      `| ${name} | ${unit} | ${fmt(m.wall)} | ${fmt(m.cpu)} | ${fmt(m.wall / base.wall)} |`,
    );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
