'use strict';
/**
 * Bytes allocated per run of a scenario (issue 35), per framework, each in its own fresh child
 * process started with a fixed 64 MB semi-space (`--min-semi-space-size=64
 * --max-semi-space-size=64`, `--semi=MB`), so a sample of a few MB fits in new space.
 *
 * In the child: one run is checked against the scenario's result, `--warmup` runs warm the JIT
 * (escape analysis in optimized code removes allocations, so an unwarmed figure is too high),
 * then each sample is: `v8.GCProfiler` started, the heap's used size read, k runs awaited one
 * after another, the used size read again, the profiler stopped. A sample during which any GC
 * ran (the profiler lists each one: a scavenge when new space filled up, or a mark-compact) is
 * discarded and counted (about one in eight: the scavenge that empties new space lands in one).
 * With no GC between the two reads nothing was freed, so the growth is exactly what was
 * allocated: all heap spaces (new, old, large-object, code: what V8 pretenures or JIT-compiles
 * is counted too), and separately the new space alone (the run's short-lived objects). The cost
 * of the reads themselves is measured by empty samples (k = 0) and subtracted. k is sized so a
 * sample allocates about an eighth of the semi-space (1 to 2,000 runs). Reported: the median over
 * `--samples` clean samples (default 15, at least 15), their range, and each row over the
 * hand-written loop's.
 *
 * No GC is forced before a sample: a forced full GC (`global.gc()`) drops optimized code and
 * feedback that Golem's run depends on, and the runs right after one allocate ~20 % more than in
 * the steady state (measured: golem s1 28 KB vs 23.6 KB). `--forced-gc` forces one before every
 * sample anyway (the previous behaviour of this script), to show that figure.
 *
 *   node profile/alloc.js [a|b] [framework-id…] [--samples=15] [--warmup=5000] [--semi=64]
 *        [--forced-gc] [--json]
 *
 * `a` is s1 (`runA`, the default), `b` is s2 (`runB`); no ids means every column of the bench.
 * `--json` prints one JSON line (`{ method, rows: { id: { bytesPerRun, newSpacePerRun, … } } }`)
 * instead of the table. `node --expose-gc profile/alloc.js a` still works as before (the flag
 * is not needed: the children get their own). Loads the built dist (`npm run build` first).
 */
const { spawn } = require('node:child_process');
const path = require('node:path');
const v8 = require('node:v8');

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.replace(/^--/, '').split('='))
    .map(([k, v]) => [k, v ?? 'true']),
);
const which = positional[0] === 'b' ? 'runB' : 'runA';
const ids = positional.slice(positional[0] === 'a' || positional[0] === 'b' ? 1 : 0);
const SAMPLES = Math.max(15, Number(args.samples ?? 15));
const WARMUP = Number(args.warmup ?? 5000);
const SEMI_MB = Number(args.semi ?? 64);
const FORCED_GC = args['forced-gc'] !== undefined;
const MAX_RUNS_PER_SAMPLE = 2000;

const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Used bytes of the whole heap and of the new space (young objects). */
function used() {
  const total = v8.getHeapStatistics().used_heap_size;
  const spaces = v8.getHeapSpaceStatistics();
  let young = 0;
  for (const s of spaces) if (s.space_name === 'new_space') young = s.space_used_size;
  return { total, young };
}

/** One sample: the allocation of k runs; null if any GC ran between the two reads. */
async function sample(run, k) {
  if (FORCED_GC) global.gc();
  const profiler = new v8.GCProfiler();
  profiler.start();
  const before = used();
  for (let i = 0; i < k; i++) await run();
  const after = used();
  const gcs = profiler.stop().statistics.length;
  if (gcs > 0) return null;
  return { total: after.total - before.total, young: after.young - before.young };
}

/** The child: one framework in this process. Prints one JSON line. */
async function measureOne(id) {
  if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
  const S = require('../scenario');
  const framework = require('../frameworks').find((f) => f.id === id);
  if (framework === undefined) throw new Error(`unknown framework ${id}`);
  const instance = framework.create();
  const run = instance[which];
  if (typeof run !== 'function') throw new Error(`${id} has no ${which}`);
  const first = await run();
  if (which === 'runA') S.checkA(id, first.output, first.toolResults);
  else S.checkB(id, first.output);
  for (let i = 0; i < WARMUP; i++) await run();

  // What the reads themselves allocate (the result objects of the heap statistics).
  const empty = [];
  while (empty.length < 15) {
    const s = await sample(run, 0);
    if (s !== null) empty.push(s);
  }
  const overhead = {
    total: median(empty.map((s) => s.total)),
    young: median(empty.map((s) => s.young)),
  };

  // Size k from short samples: about an eighth of the semi-space per sample.
  let trial = null;
  for (let attempt = 0, k = 16; trial === null && attempt < 20; attempt++) {
    const s = await sample(run, k);
    if (s !== null) trial = (s.total - overhead.total) / k;
    else if (attempt % 2 === 1) k = Math.max(1, k >> 1);
  }
  if (trial === null) throw new Error('every trial sample saw a GC (raise --semi)');
  const target = (SEMI_MB * 2 ** 20) / 8;
  let k = Math.max(1, Math.min(MAX_RUNS_PER_SAMPLE, Math.floor(target / Math.max(trial, 1))));

  const clean = [];
  let discarded = 0;
  let streak = 0;
  for (let attempts = 0; clean.length < SAMPLES; attempts++) {
    if (attempts > SAMPLES * 10) throw new Error(`too many samples saw a GC (${discarded})`);
    const s = await sample(run, k);
    if (s === null) {
      discarded++;
      if (++streak >= 4 && k > 1) {
        k = Math.max(1, k >> 1);
        clean.length = 0; // every kept sample has the same k
        streak = 0;
      }
      continue;
    }
    streak = 0;
    clean.push({ total: (s.total - overhead.total) / k, young: (s.young - overhead.young) / k });
  }
  const totals = clean.map((s) => s.total);
  const result = {
    id,
    label: framework.label,
    method: which,
    bytesPerRun: median(totals),
    newSpacePerRun: median(clean.map((s) => s.young)),
    min: Math.min(...totals),
    max: Math.max(...totals),
    samples: clean.length,
    runsPerSample: k,
    discarded,
    warmup: WARMUP,
    overheadBytes: overhead.total,
    forcedGc: FORCED_GC,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function child(id) {
  const flags = [
    '--expose-gc',
    `--min-semi-space-size=${SEMI_MB}`,
    `--max-semi-space-size=${SEMI_MB}`,
  ];
  const argv = [__filename, '--child', positional[0] === 'b' ? 'b' : 'a', id];
  argv.push(`--samples=${SAMPLES}`, `--warmup=${WARMUP}`, `--semi=${SEMI_MB}`);
  if (FORCED_GC) argv.push('--forced-gc');
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...flags, ...argv], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.stderr.on('data', (chunk) => (err += chunk));
    proc.on('exit', (code) => {
      if (code === 0) return resolve(JSON.parse(out.trim().split('\n').pop()));
      const first = err.split('\n').find((line) => /error/i.test(line)) ?? `exit ${code}`;
      return resolve({ id, error: first.trim().slice(0, 200) });
    });
  });
}

const fmt = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

async function main() {
  const all = require('../frameworks').map((f) => f.id);
  const chosen = ids.length > 0 ? ids : all;
  if (chosen.includes('golem-decorated')) {
    const golem = require('../golem');
    // As run.js does: the transpiled classes point at the dist this process sees.
    if (golem.builtStatus().decorators) golem.buildDecorated();
  }
  const rows = {};
  for (const id of chosen) rows[id] = await child(id);
  if (args.json !== undefined) {
    const settings = { samples: SAMPLES, warmup: WARMUP, semiMB: SEMI_MB, forcedGc: FORCED_GC };
    process.stdout.write(`${JSON.stringify({ method: which, ...settings, rows })}\n`);
    return;
  }
  const loop = rows.loop?.bytesPerRun;
  const lines = [
    `Bytes allocated per ${which === 'runA' ? 's1' : 's2'} run (${path.basename(__filename)}:` +
      ` median of ≥ ${SAMPLES} samples with no GC inside, ${WARMUP} warm-up runs, ${SEMI_MB} MB` +
      ` semi-space${FORCED_GC ? ', a full GC forced before each sample' : ''})`,
    '',
    '| framework | bytes/run | KB/run | new space, bytes/run | range | runs × samples | discarded | × loop |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const [id, r] of Object.entries(rows)) {
    if (r.error !== undefined) {
      lines.push(`| ${id} | failed: ${r.error} | | | | | | |`);
      continue;
    }
    const ratio = loop === undefined ? '' : `${(r.bytesPerRun / loop).toFixed(2)}×`;
    lines.push(
      `| ${r.label} | ${r.bytesPerRun.toFixed(0)} | ${(r.bytesPerRun / 1024).toFixed(1)} |` +
        ` ${r.newSpacePerRun.toFixed(0)} | ${fmt(r.min)}–${fmt(r.max)} |` +
        ` ${r.runsPerSample} × ${r.samples} | ${r.discarded} | ${ratio} |`,
    );
  }
  console.log(lines.join('\n'));
}

const entry = process.argv.includes('--child') ? measureOne(ids[0]) : main();
entry.catch((error) => {
  console.error(error);
  process.exit(1);
});
