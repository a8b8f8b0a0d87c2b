'use strict';
/**
 * Context and memory (issue 29): what compaction costs per run, how fast semantic recall answers
 * at 10k and 100k stored messages on each recall store, and how many texts per second go through
 * an embedding adapter.
 *
 *   node bench/context.js [--parts=compaction,recall,embedding] [--sizes=10000,100000]
 *       [--dims=384] [--queries=200] [--stores=memory,sqlite,postgres] [--runs=200] [--owners=50]
 *
 * - compaction: a 40-turn tool loop (each tool result ~2,000 characters) with an instant model
 *   reporting realistic usage, run without compaction, with `clear-tool-results`, and with
 *   `summarise` (an instant summariser); the median per-run time and the extra per run.
 * - recall: N entries of `dims` dimensions (random unit vectors over `owners` owners, text ~200
 *   characters) upserted in batches of 1,000, then `queries` top-5 queries for one owner: median
 *   and p90 query latency, insert throughput, and the process's RSS growth (memory store) or the
 *   database size (SQLite file, PostgreSQL table). PostgreSQL: GOLEM_BENCH_POSTGRES_URL, else
 *   postgres://postgres@127.0.0.1:5432/test, a scratch schema dropped afterwards.
 * - embedding: `openaiEmbedding` against a loopback server answering 384-dimension vectors,
 *   10,000 texts in batches of 100, 500 and 2,048: texts per second through the adapter
 *   (validation, batching, HTTP and JSON included).
 *
 * Loads the built dist (run `npm run build` first). Prints one table per part.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { DIST, GOLEM } = require('./golem.js');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const PARTS = (args.parts ?? 'compaction,recall,embedding').split(',');
const SIZES = (args.sizes ?? '10000,100000').split(',').map(Number);
const DIMS = Number(args.dims ?? 384);
const QUERIES = Number(args.queries ?? 200);
const STORES = (args.stores ?? 'memory,sqlite,postgres').split(',');
const RUNS = Number(args.runs ?? 200);
const OWNERS = Number(args.owners ?? 50);
const PG_URL = process.env.GOLEM_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const golem = require(GOLEM);
const load = (...p) => require(path.join(DIST, 'src', ...p, 'index.js'));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const p90 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length * 0.9)];
};
const ms = (ns) => Number(ns) / 1e6;
const fmt = (x, digits = 3) => (x >= 100 ? x.toFixed(0) : x.toPrecision(digits));

/** Deterministic pseudo-random numbers (mulberry32), so every store sees the same data. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function unitVector(random, dims) {
  const v = new Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    v[i] = random() * 2 - 1;
    norm += v[i] * v[i];
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dims; i++) v[i] /= norm;
  return v;
}

function printTable(title, header, rows) {
  console.log(`\n### ${title}\n`);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map((h, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

// ---------------------------------------------------------------------------------------------
// Compaction: the per-run cost of keeping a long tool loop under budget.

const RESULT = 'x'.repeat(2000);
const TURNS = 40;

/**
 * Answers with a tool call until turn 40, then a final answer; usage grows with the request. Runs
 * are sequential: a request ending with the user's prompt starts a run's count.
 */
let calls = 0;
const loopModel = {
  name: 'bench',
  async generate(request) {
    if (request.messages[request.messages.length - 1]?.role === 'user') calls = 0;
    const chars = request.messages.reduce((n, m) => n + (m.content?.length ?? 0), 0);
    const usage = { inputTokens: Math.ceil(chars / 4) + 20, outputTokens: 12 };
    if (calls >= TURNS) return { message: { role: 'assistant', content: 'done' }, usage };
    calls++;
    return {
      message: {
        role: 'assistant',
        toolCalls: [{ id: `call_${calls}`, name: 'lookup', args: '{"q":"item"}' }],
      },
      usage,
    };
  },
};
const summariser = {
  name: 'summariser',
  async generate() {
    return {
      message: { role: 'assistant', content: 'The user looked up many items; all were found.' },
      usage: { inputTokens: 500, outputTokens: 12 },
    };
  },
};
const lookup = golem.defineTool({
  name: 'lookup',
  description: 'Looks an item up',
  schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  execute: () => RESULT,
});

async function compactionPart() {
  const variants = [
    ['no compaction', undefined],
    [
      'clear-tool-results',
      { maxTokens: 4000, keep: { turns: 4 }, policies: ['clear-tool-results'] },
    ],
    [
      'summarise',
      {
        maxTokens: 4000,
        keep: { turns: 4 },
        policies: ['summarise'],
        summary: { model: summariser },
      },
    ],
  ];
  const rows = [];
  let base;
  for (const [name, compaction] of variants) {
    const agent = new golem.Agent({
      model: loopModel,
      tools: [lookup],
      maxIterations: TURNS + 5,
      ...(compaction !== undefined && { compaction }),
    });
    let last;
    for (let i = 0; i < 20; i++) last = await agent.run('look up 40 items');
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const start = process.hrtime.bigint();
      last = await agent.run('look up 40 items');
      times.push(ms(process.hrtime.bigint() - start));
    }
    const med = median(times);
    base ??= med;
    const maxContext = last.contextTokens ?? '—';
    rows.push([
      name,
      fmt(med),
      fmt(p90(times)),
      (last.compactions ?? []).length,
      String(maxContext),
      name === 'no compaction' ? '—' : fmt(med - base),
      fmt(((med - base) / TURNS) * 1000),
    ]);
  }
  printTable(
    `compaction: a ${TURNS}-turn tool loop, ${RUNS} runs each (ms per run)`,
    [
      'variant',
      'median',
      'p90',
      'compactions',
      'last contextTokens',
      'extra ms/run',
      'extra µs/turn',
    ],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------
// Recall: query latency at N stored messages.

function dirSize(file) {
  let total = 0;
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      total += fs.statSync(file + suffix).size;
    } catch {
      // absent
    }
  }
  return total;
}

async function openStore(kind, dims, scratch) {
  if (kind === 'memory')
    return { store: load('stores', 'memory').memoryRecallStore({ dimensions: dims }) };
  if (kind === 'sqlite') {
    const file = path.join(scratch, `recall-${dims}.db`);
    const store = load('stores', 'sqlite').sqliteRecallStore({ path: file, dimensions: dims });
    await store.migrate();
    return { store, size: () => dirSize(file) };
  }
  const pg = require('pg');
  const schema = `golem_bench_${process.pid}`;
  const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
  await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const store = load('stores', 'postgres').postgresRecallStore({
    connectionString: PG_URL,
    dimensions: dims,
    schema,
  });
  await store.migrate();
  return {
    store,
    size: async () => {
      const r = await admin.query(
        `SELECT COALESCE(SUM(pg_total_relation_size(format('%I.%I', schemaname, tablename))), 0)::bigint AS size FROM pg_tables WHERE schemaname = $1`,
        [schema],
      );
      return Number(r.rows[0].size);
    },
    drop: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

async function recallPart() {
  const rows = [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-bench-recall-'));
  try {
    for (const kind of STORES) {
      for (const size of SIZES) {
        global.gc?.();
        const rssBefore = process.memoryUsage().rss;
        let opened;
        try {
          opened = await openStore(kind, DIMS, fs.mkdtempSync(path.join(scratch, 'n')));
        } catch (error) {
          rows.push([
            kind,
            size,
            'unavailable: ' + String(error.message).slice(0, 60),
            '',
            '',
            '',
            '',
          ]);
          continue;
        }
        const { store } = opened;
        const random = rng(42);
        const insertStart = process.hrtime.bigint();
        for (let at = 0; at < size; at += 1000) {
          const batch = [];
          for (let i = at; i < Math.min(size, at + 1000); i++)
            batch.push({
              id: `m${i}`,
              owner: `user-${i % OWNERS}`,
              kind: 'message',
              conversationId: `thread-${i % 500}`,
              position: Math.floor(i / 500),
              text: `message ${i}: ${'lorem ipsum '.repeat(16)}`,
              embedding: unitVector(random, DIMS),
              createdAt: i,
            });
          await store.upsert(batch);
        }
        const insertMs = ms(process.hrtime.bigint() - insertStart);
        const times = [];
        for (let q = 0; q < QUERIES; q++) {
          const embedding = unitVector(random, DIMS);
          const start = process.hrtime.bigint();
          const hits = await store.query({ owner: `user-${7 % OWNERS}`, embedding, topK: 5 });
          times.push(ms(process.hrtime.bigint() - start));
          if (hits.length !== 5) throw new Error(`${kind}: ${hits.length} hits, expected 5`);
        }
        global.gc?.();
        const footprint =
          opened.size === undefined
            ? `${fmt((process.memoryUsage().rss - rssBefore) / 2 ** 20)} MiB RSS`
            : `${fmt((await opened.size()) / 2 ** 20)} MiB on disk`;
        rows.push([
          kind,
          size,
          fmt(median(times)),
          fmt(p90(times)),
          fmt(size / (insertMs / 1000), 3),
          footprint,
          `${size / OWNERS} per owner`,
        ]);
        await store.close();
        await opened.drop?.();
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  printTable(
    `recall: top-5 query for one owner, ${DIMS} dimensions, ${QUERIES} queries (ms)`,
    ['store', 'entries', 'median', 'p90', 'inserts/s', 'footprint', 'searched'],
    rows,
  );
}

// ---------------------------------------------------------------------------------------------
// Embedding: texts per second through the adapter against a loopback server.

async function embeddingPart() {
  const vector = JSON.stringify(unitVector(rng(7), DIMS));
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const data = body.input
        .map((_, index) => `{"object":"embedding","index":${index},"embedding":${vector}}`)
        .join(',');
      res.setHeader('content-type', 'application/json');
      res.end(
        `{"object":"list","data":[${data}],"model":"${body.model}","usage":{"prompt_tokens":${body.input.length * 8},"total_tokens":${body.input.length * 8}}}`,
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const { openaiEmbedding } = load('providers', 'openai');
  const texts = Array.from({ length: 10_000 }, (_, i) => `text ${i} ${'word '.repeat(20)}`);
  const rows = [];
  try {
    for (const maxBatch of [100, 500, 2048]) {
      const model = openaiEmbedding({
        model: 'text-embedding-3-small',
        apiKey: 'sk-bench',
        baseURL: `http://127.0.0.1:${port}/v1`,
        dimensions: DIMS,
        maxBatch,
      });
      await model.embedMany(texts.slice(0, 1000));
      const times = [];
      let requests = 0;
      for (let round = 0; round < 5; round++) {
        const start = process.hrtime.bigint();
        const out = await model.embedMany(texts);
        times.push(ms(process.hrtime.bigint() - start));
        requests = out.requests;
      }
      const med = median(times);
      rows.push([maxBatch, requests, fmt(med), fmt(texts.length / (med / 1000), 3)]);
    }
  } finally {
    server.close();
  }
  printTable(
    `embedding: openaiEmbedding, 10,000 texts, ${DIMS}-dimension answers from a loopback server (median of 5)`,
    ['maxBatch', 'requests', 'ms', 'texts/s'],
    rows,
  );
}

async function main() {
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  if (PARTS.includes('compaction')) await compactionPart();
  if (PARTS.includes('recall')) await recallPart();
  if (PARTS.includes('embedding')) await embeddingPart();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
