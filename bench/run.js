'use strict';
/**
 * The bench driver (`npm run bench`, `npm run bench:quick`): issue 21's neutral rules.
 *
 * Every variant of every timed scenario runs in `processes` fresh processes (`measure.js`), one
 * at a time, interleaved: round r runs every scenario's variants in an order rotated by r, so the
 * machine's drift spreads over all of them. Results: one table (median, p90, CPU µs per run,
 * ratios to the loop and to each peer), the streaming per-delta figures, the heap over many runs
 * (`memory.js`), and the targets marked met or not.
 *
 *   node --expose-gc run.js [--quick | --steady] [--scenarios=s1,s2,s3,history,stream-text,stream-tool,
 *        memory,define,e,f,h] [--processes=3] [--warmup=5000] [--runs=50000] [--warmup-ms=5000]
 *        [--timed-ms=15000] [--batch-us=200] [--memory-runs=100000]
 *        [--memory-variants=loop,golem,…] [--adapter-calls=10000] [--json=FILE]
 *   node run.js --report[=FILE]     prints the tables of a saved run (default: the last one)
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const golem = require('./golem');
const report = require('./report');
const extras = require('./extras');
const { SCENARIOS, PRESETS } = require('./plan');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const preset = args.steady === 'true' ? 'steady' : args.quick === 'true' ? 'quick' : 'full';
const P = PRESETS[preset];
const num = (name, fallback) => Number(args[name] ?? fallback);
const settings = {
  preset,
  processes: num('processes', P.processes),
  warmupRuns: num('warmup', P.warmupRuns),
  warmupMs: num('warmup-ms', P.warmupMs),
  timedRuns: num('runs', P.timedRuns),
  timedMs: num('timed-ms', P.timedMs),
  batchUs: num('batch-us', P.batchUs),
  memoryRuns: num('memory-runs', P.memoryRuns),
  memoryVariants: (args['memory-variants'] ?? P.memoryVariants).split(','),
  adapterCalls: num('adapter-calls', 10000),
  scenarios: (args.scenarios ?? P.scenarios).split(','),
};
const JSON_OUT = args.json ?? path.join(golem.CACHE, 'results.json');
const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);
const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);

/** Runs one child and resolves with its last stdout line as JSON (or an error record). */
function child(script, argv) {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--expose-gc', path.join(__dirname, script), ...argv], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.stderr.on('data', (chunk) => (err += chunk));
    proc.on('exit', (code) => {
      if (code === 0) return resolve(JSON.parse(out.trim().split('\n').pop()));
      const first = err.split('\n').find((line) => line.trim() !== '') ?? `exit ${code}`;
      log(`  ! ${script} ${argv.join(' ').slice(0, 120)}: ${first}`);
      return resolve({ error: first.slice(0, 200) });
    });
  });
}

async function timed(scenarios) {
  const raw = new Map(scenarios.map((s) => [s.id, new Map(s.variants.map((v) => [v.key, []]))]));
  for (let round = 0; round < settings.processes; round++) {
    for (const [index, scenario] of scenarios.entries()) {
      const started = Date.now();
      for (const v of rotate(scenario.variants, round + index)) {
        const spec = {
          framework: v.framework,
          method: v.method,
          concurrent: scenario.concurrent ?? 0,
          warmupRuns: settings.warmupRuns,
          warmupMs: settings.warmupMs,
          timedRuns: settings.timedRuns,
          timedMs: settings.timedMs,
          batchUs: settings.batchUs,
        };
        raw
          .get(scenario.id)
          .get(v.key)
          .push(await child('measure.js', [JSON.stringify(spec)]));
      }
      log(
        `  ${scenario.id}, process ${round + 1}/${settings.processes}: ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
    }
  }
  return scenarios.map((s) => ({
    id: s.id,
    label: s.label,
    deltas: s.deltas,
    variants: Object.fromEntries(
      s.variants.map((v) => {
        const processes = raw.get(s.id).get(v.key);
        return [
          v.key,
          {
            label: v.label,
            ...report.summarise(processes),
            raw: processes.map(({ samples, ...rest }) => rest),
          },
        ];
      }),
    ),
  }));
}

async function memory() {
  const out = {};
  for (const id of settings.memoryVariants) {
    const started = Date.now();
    out[id] = await child('memory.js', [id, String(settings.memoryRuns)]);
    log(`  memory ${id}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  return out;
}

function machine() {
  const cpuinfo = fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  return {
    node: process.version,
    cpu: model.trim(),
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString(),
  };
}

function peers() {
  const version = (name) => {
    try {
      return JSON.parse(
        fs.readFileSync(path.join(__dirname, 'node_modules', name, 'package.json'), 'utf8'),
      ).version;
    } catch {
      return 'not installed';
    }
  };
  return Object.fromEntries(
    ['ai', '@openai/agents', 'langchain', '@langchain/core', 'zod'].map((n) => [n, version(n)]),
  );
}

function printAll(results) {
  report.print(results);
  if (results.e !== undefined || results.f !== undefined)
    process.stdout.write(`\n${extras.table(results.e, results.f)}\n`);
  if (results.h !== undefined) process.stdout.write(`\n${extras.adapters.table(results.h)}\n`);
}

async function main() {
  if (args.report !== undefined) {
    printAll(JSON.parse(fs.readFileSync(args.report === 'true' ? JSON_OUT : args.report, 'utf8')));
    return;
  }
  const started = Date.now();
  const built = golem.builtStatus();
  if (!built.core)
    throw new Error(`no built Golem at ${golem.GOLEM}: run npm run build at the root`);
  if (built.decorators) golem.buildDecorated();
  const results = { machine: machine(), peers: peers(), settings, scenarios: [] };
  log(
    `machine: node ${results.machine.node}, ${results.machine.cpu}, ${results.machine.cores} cores; ${preset}`,
  );
  const want = new Set(settings.scenarios);
  // What the preset leaves out: quick, a scenario's slow peers; steady, the preset's.
  const skipped = (s) => (preset === 'quick' ? (s.quickSkip ?? []) : (P.skip ?? []));
  const scenarios = SCENARIOS.filter((s) => want.has(s.id)).map((s) => ({
    ...s,
    variants: s.variants.filter((v) => !skipped(s).includes(v.framework)),
  }));
  if (scenarios.length > 0) {
    log(
      `timing ${scenarios.map((s) => s.id).join(', ')} (${settings.processes} processes per variant)…`,
    );
    results.scenarios = await timed(scenarios);
  }
  if (want.has('memory')) {
    log(`memory: heap over ${settings.memoryRuns} s1 runs…`);
    results.memory = await memory();
    log('memory: bytes allocated per s1 run…');
    results.alloc = await child('profile/alloc.js', [
      'a',
      'loop',
      ...settings.memoryVariants.filter((id) => id !== 'loop'),
      '--json',
    ]);
  }
  if (want.has('e')) {
    log('(e) cold import…');
    results.e = extras.cold();
  }
  if (want.has('f')) {
    log('(f) installed size…');
    results.f = extras.size();
  }
  if (want.has('h')) {
    log(`(h) adapter memory, ${settings.adapterCalls} calls per adapter and mode…`);
    results.h = await extras.adapters.run({ calls: settings.adapterCalls });
  }
  results.seconds = (Date.now() - started) / 1000;
  fs.mkdirSync(path.dirname(JSON_OUT), { recursive: true });
  fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
  printAll(results);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
