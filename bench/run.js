'use strict';
/**
 * The bench driver (`npm run bench`): every scenario of issue 8 for every framework, one table.
 *
 * Timing scenarios run each framework in its own worker process and alternate the frameworks
 * round by round (the order rotates every round), so drift of the machine spreads over all of
 * them; medians of the measured rounds are reported, after warm-up rounds that are thrown away.
 *
 *   node --expose-gc run.js [--memory-runs=100000] [--adapter-calls=10000]
 *                           [--scenarios=a,b,c,d,e,f,g,h] [--json=FILE]
 *   node run.js --report[=FILE]     prints the table of a saved run (default: the last one)
 *
 * `--memory-runs` scales scenario (d) (default 100,000, as the issue asks) and `--adapter-calls`
 * scenario (h) (default 10,000 per adapter and mode, as issue 12 asks); nothing else changes
 * what is measured.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork, spawn, spawnSync } = require('node:child_process');
const frameworks = require('./frameworks');
const golem = require('./golem');
const adapters = require('./adapters');
const sizes = require('./sizes');
const targets = require('./targets');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
let MEMORY_RUNS = Number(args['memory-runs'] ?? 100_000);
const ADAPTER_CALLS = Number(args['adapter-calls'] ?? 10_000);
const SCENARIOS = new Set((args.scenarios ?? 'a,b,c,d,e,f,g,h').split(','));
const JSON_OUT = args.json ?? path.join(golem.CACHE, 'results.json');

const TIMED = { warmup: 5, rounds: 21, targetMs: 100 };
const WARM = { runs: 2000, ms: 3000 };
const CONCURRENT = { runs: 1000, warmup: 1, rounds: 5 };
const DEFINE = { warmup: 1, rounds: 5, perRound: 20 };
const COLD = { warmup: 2, rounds: 15 };
const MEMORY_PARALLEL = 2;

/** Cold-import targets: the package as a whole, from a fresh `node` process. */
const COLD_TARGETS = {
  golem: golem.GOLEM,
  'golem-decorated': golem.GOLEM_DECORATORS,
  'ai-sdk': 'ai',
  'openai-agents': '@openai/agents',
  langchain: 'langchain',
};
/** The packages each peer's users install. */
const PEER_PACKAGES = {
  'ai-sdk': ['ai'],
  'openai-agents': ['@openai/agents'],
  langchain: ['langchain', '@langchain/core'],
};

const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);
const median = (values) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
};
const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);

// ---------------------------------------------------------------------------------- workers

class Worker {
  constructor(framework) {
    this.framework = framework;
    this.seq = 0;
    this.pending = new Map();
    this.child = fork(path.join(__dirname, 'worker.js'), [framework.id], {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.ready = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      this.child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      this.child.on('message', (message) => {
        if (message.ready) return resolve();
        const entry = this.pending.get(message.seq);
        if (entry === undefined) return undefined;
        this.pending.delete(message.seq);
        return message.ok ? entry.resolve(message) : entry.reject(new Error(message.error));
      });
    });
    this.child.on('exit', () => {
      for (const entry of this.pending.values()) entry.reject(new Error('worker exited'));
      this.pending.clear();
    });
  }

  send(cmd, n) {
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      this.child.send({ cmd, n, seq });
    });
  }

  close() {
    if (this.child.connected) this.child.send({ cmd: 'exit' });
  }
}

/** Starts and checks one worker per framework; a failing framework is reported n/a. */
async function startWorkers(results) {
  const workers = [];
  for (const framework of frameworks) {
    const worker = new Worker(framework);
    try {
      await worker.ready;
      await worker.send('check');
      workers.push(worker);
    } catch (error) {
      const reason =
        framework.id === 'golem-decorated' ? 'n/a (decorators not built)' : 'n/a (failed)';
      results.unavailable[framework.id] = `${reason}: ${String(error.message).split('\n')[0]}`;
      log(`! ${framework.label}: ${results.unavailable[framework.id]}`);
      worker.child.kill();
    }
  }
  return workers;
}

// ------------------------------------------------------------------------------ scenarios

/**
 * (a) and (b): each framework first warms up alone (batches doubling up to ~TIMED.targetMs,
 * until it has done WARM.runs runs or spent WARM.ms), then warm-up rounds at ~TIMED.targetMs per
 * batch are thrown away, the batch is sized from their median, and the measured rounds follow.
 */
async function sequentialScenario(workers, cmd) {
  const perRun = new Map();
  for (const worker of workers) {
    let n = 1;
    let runs = 0;
    let spent = 0;
    while (runs < WARM.runs && spent < WARM.ms * 1e6) {
      const { ns } = await worker.send(cmd, n);
      runs += n;
      spent += ns;
      perRun.set(worker, ns / n);
      if (ns < TIMED.targetMs * 1e6) n *= 2;
    }
  }
  const warm = new Map(workers.map((w) => [w, []]));
  const batchOf = (worker) => {
    const estimate = warm.get(worker).length > 0 ? median(warm.get(worker)) : perRun.get(worker);
    return Math.max(1, Math.round((TIMED.targetMs * 1e6) / estimate));
  };
  const batch = new Map();
  const samples = new Map(workers.map((w) => [w, []]));
  for (let round = 0; round < TIMED.warmup + TIMED.rounds; round++) {
    if (round === 0 || round === TIMED.warmup)
      for (const worker of workers) batch.set(worker, batchOf(worker));
    for (const worker of rotate(workers, round)) {
      const n = batch.get(worker);
      const { ns } = await worker.send(cmd, n);
      if (round < TIMED.warmup) warm.get(worker).push(ns / n);
      else samples.get(worker).push(ns / n / 1e3);
    }
  }
  return summarise(workers, samples, (w) => ({ batch: batch.get(w) }));
}

/** (c): 1,000 runs of (a) started together, per round, alternating frameworks. */
async function concurrentScenario(workers) {
  const samples = new Map(workers.map((w) => [w, []]));
  for (let round = 0; round < CONCURRENT.warmup + CONCURRENT.rounds; round++) {
    for (const worker of rotate(workers, round)) {
      const { ns } = await worker.send('c', CONCURRENT.runs);
      if (round >= CONCURRENT.warmup) samples.get(worker).push(ns / 1e6);
    }
  }
  return summarise(workers, samples);
}

/** (g): defining the (a) agent from scratch, per class; rounds alternate frameworks. */
async function defineScenario(workers) {
  const samples = new Map(workers.map((w) => [w, []]));
  const compile = new Map(workers.map((w) => [w, []]));
  const declare = new Map(workers.map((w) => [w, []]));
  for (let round = 0; round < DEFINE.warmup + DEFINE.rounds; round++) {
    for (const worker of rotate(workers, round)) {
      const reply = await worker.send('g', DEFINE.perRound);
      if (reply.unsupported || round < DEFINE.warmup) continue;
      samples.get(worker).push(...reply.total.map((ns) => ns / 1e3));
      compile.get(worker).push(...reply.compile.map((ns) => ns / 1e3));
      declare.get(worker).push(...reply.declare.map((ns) => ns / 1e3));
    }
  }
  const measured = workers.filter((w) => samples.get(w).length > 0);
  return summarise(measured, samples, (w) =>
    compile.get(w).length > 0
      ? { compile: median(compile.get(w)), declare: median(declare.get(w)) }
      : {},
  );
}

function summarise(workers, samples, extra = () => ({})) {
  const out = {};
  for (const worker of workers) {
    const values = samples.get(worker);
    out[worker.framework.id] = {
      median: median(values),
      p25: quantile(values, 0.25),
      p75: quantile(values, 0.75),
      n: values.length,
      ...extra(worker),
    };
  }
  return out;
}

/** (d): one fresh process per framework, MEMORY_PARALLEL at a time, longest first. */
async function memoryScenario(ids) {
  const order = [...ids].reverse();
  const out = {};
  const runOne = (id) =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn(
        process.execPath,
        ['--expose-gc', path.join(__dirname, 'memory.js'), id, String(MEMORY_RUNS)],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.on('exit', (code) => {
        if (code === 0) out[id] = JSON.parse(text.trim().split('\n').pop());
        else out[id] = { error: `exit ${code}` };
        log(`  (d) ${id}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
        resolve();
      });
    });
  const queue = [...order];
  await Promise.all(
    Array.from({ length: MEMORY_PARALLEL }, async () => {
      while (queue.length > 0) await runOne(queue.shift());
    }),
  );
  return out;
}

/** (e): `node -e "require(x)"` minus `node -e 0`, rounds alternating packages. */
function coldScenario(ids) {
  const targets = [
    ['floor', null],
    ...ids.filter((id) => id in COLD_TARGETS).map((id) => [id, COLD_TARGETS[id]]),
  ];
  const samples = new Map(targets.map(([id]) => [id, []]));
  for (let round = 0; round < COLD.warmup + COLD.rounds; round++) {
    for (const [id, target] of rotate(targets, round)) {
      const code = target === null ? '0' : `require(${JSON.stringify(target)})`;
      const start = process.hrtime.bigint();
      const result = spawnSync(process.execPath, ['-e', code], { cwd: __dirname, stdio: 'ignore' });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (result.status !== 0) throw new Error(`cold import of ${id} failed`);
      if (round >= COLD.warmup) samples.get(id).push(ms);
    }
  }
  const floor = median(samples.get('floor'));
  const out = { floor: { median: floor } };
  for (const [id] of targets.slice(1)) {
    const values = samples.get(id).map((ms) => ms - floor);
    out[id] = { median: median(values), p25: quantile(values, 0.25), p75: quantile(values, 0.75) };
  }
  out.baseline = { median: 0 };
  return out;
}

/** (f): sizes; the decorated column adds the decorators' peers (an app installs them beside golem). */
function sizeScenario(ids) {
  const out = { baseline: { bytes: 0, packages: 0 } };
  const packed = golem.builtStatus().core ? sizes.golemSize() : undefined;
  if (packed !== undefined) {
    out.golem = packed;
    if (ids.includes('golem-decorated')) out['golem-decorated'] = sizes.golemDecoratedSize(packed);
  }
  const peers = Object.fromEntries(
    Object.entries(PEER_PACKAGES).filter(([id]) => ids.includes(id)),
  );
  Object.assign(out, sizes.peerSizes(peers));
  return out;
}

// ---------------------------------------------------------------------------------- table

function machine() {
  const cpuinfo = fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  return {
    node: process.version,
    cpu: model.trim(),
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    date: new Date().toISOString(),
  };
}

const fmt = (value) => {
  if (value === undefined || Number.isNaN(value)) return '—';
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
};
const ratio = (value, reference) =>
  value === undefined || reference === undefined || !(reference > 0)
    ? undefined
    : value / reference;
const fmtRatio = (r, tag) =>
  r === undefined ? undefined : `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×${tag}`;

/** Rows of the table: a label, how to read each framework's value, whether ratios make sense. */
function rows(r) {
  const mb = (bytes) => (bytes === undefined ? undefined : bytes / 2 ** 20);
  const d = (id, pick) => (r.d?.[id] && !r.d[id].error ? pick(r.d[id]) : undefined);
  const runs = MEMORY_RUNS.toLocaleString('en-US');
  return [
    ['(a) 3-turn tool loop, µs/run', (id) => r.a?.[id]?.median, true],
    ['(b) structured output, µs/run', (id) => r.b?.[id]?.median, true],
    ['(c) 1,000 concurrent runs of (a), ms', (id) => r.c?.[id]?.median, true],
    [
      `(d) heap after ${runs} runs (GC forced), MB`,
      (id) => d(id, (m) => mb(m.after.heapUsed)),
      true,
    ],
    [
      `(d) heap before → after, KB`,
      (id) => d(id, (m) => (m.after.heapUsed - m.before.heapUsed) / 1024),
      false,
    ],
    ['(d) heap slope, bytes per 1,000 runs', (id) => d(id, (m) => m.slopePer1k), false],
    [`(d) RSS after ${runs} runs, MB`, (id) => d(id, (m) => mb(m.after.rss)), true],
    ['(e) cold import, ms over `node -e 0`', (id) => r.e?.[id]?.median, true],
    ['(f) installed size, MB', (id) => mb(r.f?.[id]?.bytes), true],
    ['(f) packages installed', (id) => r.f?.[id]?.packages, true],
    ['(g) define the (a) agent, µs (decorated: fresh class)', (id) => r.g?.[id]?.median, true],
    ['(g) decorator compile per class, µs', (id) => r.g?.[id]?.compile, true],
  ];
}

function table(results) {
  const ids = frameworks.map((f) => f.id);
  const header = ['scenario', ...frameworks.map((f) => f.label)];
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '--:')).join('|')}|`,
  ];
  for (const [label, pick, ratios] of rows(results)) {
    if (ids.every((id) => pick(id) === undefined)) continue;
    const golemValue = pick('golem');
    const baseValue = pick('baseline');
    const cells = ids.map((id) => {
      if (results.unavailable[id] !== undefined) return results.unavailable[id].split(':')[0];
      const value = pick(id);
      if (value === undefined) return '—';
      if (value === 0) return '0';
      const parts = ratios
        ? [
            id === 'golem' ? undefined : fmtRatio(ratio(value, golemValue), 'G'),
            id === 'baseline' ? undefined : fmtRatio(ratio(value, baseValue), 'B'),
          ].filter((p) => p !== undefined)
        : [];
      return parts.length > 0 ? `${fmt(value)} (${parts.join(', ')})` : fmt(value);
    });
    lines.push(`| ${label} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

// ----------------------------------------------------------------------------------- main

function print(results) {
  const m = results.machine;
  const main = table(results);
  process.stdout.write(
    `\nnode ${m.node} · ${m.cpu} · ${m.cores} cores · ${m.memoryGiB} GiB · ${m.date}\n` +
      `median per scenario; (×G) = ratio to golem, (×B) = ratio to the hand-written baseline; ` +
      `bench took ${results.seconds.toFixed(0)} s\n` +
      (main.split('\n').length > 2 ? `\n${main}\n` : ''),
  );
  if (results.eTargets !== undefined || results.fTargets !== undefined)
    process.stdout.write(`\n${targets.table({ e: results.eTargets, f: results.fTargets })}\n`);
  if (results.h !== undefined) process.stdout.write(`\n${adapters.table(results.h)}\n`);
  for (const [id, reason] of Object.entries(results.unavailable))
    process.stdout.write(`\n${id}: ${reason}\n`);
}

async function main() {
  if (args.report !== undefined) {
    const file = args.report === 'true' ? JSON_OUT : args.report;
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    MEMORY_RUNS = saved.memoryRuns;
    print(saved);
    return;
  }
  const started = Date.now();
  const results = { machine: machine(), memoryRuns: MEMORY_RUNS, unavailable: {} };
  const built = golem.builtStatus();
  if (!built.core)
    throw new Error(`no built Golem at ${golem.GOLEM}: run npm run build at the root`);
  try {
    if (!built.decorators) throw new Error('dist/decorators/index.js missing');
    golem.buildDecorated();
  } catch (error) {
    results.unavailable['golem-decorated'] = `n/a (decorators not built): ${error.message}`;
  }
  log(
    `machine: node ${results.machine.node}, ${results.machine.cpu}, ${results.machine.cores} cores`,
  );

  const timing = ['a', 'b', 'c', 'g'].some((s) => SCENARIOS.has(s));
  let available = frameworks.map((f) => f.id).filter((id) => results.unavailable[id] === undefined);
  if (timing) {
    const workers = await startWorkers(results);
    available = workers.map((w) => w.framework.id);
    try {
      if (SCENARIOS.has('a')) {
        log('(a) 3-turn tool loop…');
        results.a = await sequentialScenario(workers, 'a');
      }
      if (SCENARIOS.has('b')) {
        log('(b) structured output…');
        results.b = await sequentialScenario(workers, 'b');
      }
      if (SCENARIOS.has('c')) {
        log('(c) 1,000 concurrent runs…');
        results.c = await concurrentScenario(workers);
      }
      if (SCENARIOS.has('g')) {
        log('(g) agent definition…');
        results.g = await defineScenario(workers);
      }
    } finally {
      for (const worker of workers) worker.close();
    }
  }
  if (SCENARIOS.has('e')) {
    log('(e) cold import…');
    results.e = coldScenario(available);
    log('(e) import targets: golem, golem/decorators and its peers…');
    results.eTargets = targets.importCost();
  }
  if (SCENARIOS.has('f')) {
    log('(f) installed size…');
    results.f = sizeScenario(available);
    log('(f) install target: npm install golem alone…');
    results.fTargets = targets.consumerSize();
  }
  if (SCENARIOS.has('d')) {
    log(`(d) heap over ${MEMORY_RUNS} runs (${MEMORY_PARALLEL} processes at a time)…`);
    results.d = await memoryScenario(available);
  }
  if (SCENARIOS.has('h')) {
    log(`(h) adapter memory, ${ADAPTER_CALLS} calls per adapter and mode…`);
    results.h = await adapters.run({ calls: ADAPTER_CALLS });
  }
  results.seconds = (Date.now() - started) / 1000;

  fs.mkdirSync(path.dirname(JSON_OUT), { recursive: true });
  fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
  print(results);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
