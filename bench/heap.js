'use strict';
/**
 * Issue 35: allocation per s1 run reported (bytes), and a flat heap over 1,000,000 runs.
 *
 * 1. The heap: `memory.js` for each of `--variants` (golem and golem-decorated), one at a time,
 *    each in a fresh process: 5,000 warm-up runs, then `--runs` s1 runs (default 1,000,000) one
 *    after another, GC forced only at the 20 checkpoints; heap before → after (post-GC), the
 *    growth, and the least-squares slope in bytes per run. Flat (bench/README.md, the same rule
 *    as `report.js`) = growth ≤ 1 MB and slope ≤ 5 bytes per run.
 * 2. The allocation: `profile/alloc.js` for the hand-written loop and the same variants, each in
 *    a fresh process with a 64 MB semi-space: bytes allocated per s1 run, the median of ≥ 15
 *    samples during which no GC ran (see its header), and the ratio to the loop.
 *
 * Then one targets table. Takes ~1 minute per variant on 2 idle cores (longer on a busy one).
 *
 *   node bench/heap.js [--runs=1000000] [--variants=golem,golem-decorated] [--samples=15]
 *        [--json=FILE]
 *
 * Loads the built dist through `golem.js` (`npm run build` first; GOLEM_BENCH_DIST for another
 * build). `--json=FILE` writes every child's raw output (checkpoints included).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const golem = require('./golem.js');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const RUNS = Number(args.runs ?? 1000000);
const VARIANTS = (args.variants ?? 'golem,golem-decorated').split(',');
const SAMPLES = Number(args.samples ?? 15);
/** The flat rule of bench/README.md (the same numbers as report.js's FLAT). */
const FLAT = { growthKB: 1024, slopeBytesPerRun: 5 };

const log = (line) => process.stderr.write(`${line}\n`);
const n0 = (n) => Math.round(n).toLocaleString('en-US');
const fmt = (n) =>
  Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);

/** Runs a bench script in a child process; the parsed last JSON line of stdout, or { error }. */
function child(script, argv, nodeFlags = ['--expose-gc']) {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...nodeFlags, path.join(__dirname, script), ...argv], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.stderr.on('data', (chunk) => (err += chunk));
    proc.on('exit', (code) => {
      if (code === 0) return resolve(JSON.parse(out.trim().split('\n').pop()));
      const first =
        err.split('\n').find((line) => /error/i.test(line)) ??
        err.split('\n').find((line) => line.trim() !== '') ??
        `exit ${code}`;
      log(`  ! ${script} ${argv.join(' ')}: ${first.trim()}`);
      return resolve({ error: first.trim().slice(0, 200) });
    });
  });
}

function isFlat(m) {
  return m.growthBytes / 1024 <= FLAT.growthKB && m.slopePerRun <= FLAT.slopeBytesPerRun;
}

async function main() {
  const built = golem.builtStatus();
  if (!built.core) throw new Error(`no built Golem at ${golem.GOLEM} (run npm run build)`);
  if (VARIANTS.includes('golem-decorated') && built.decorators) golem.buildDecorated();

  const memory = {};
  for (const id of VARIANTS) {
    const started = Date.now();
    log(`heap: ${id}, ${n0(RUNS)} s1 runs…`);
    memory[id] = await child('memory.js', [id, String(RUNS)]);
    log(`  ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  log('allocation per s1 run: loop, ' + VARIANTS.join(', ') + '…');
  const ids = ['loop', ...VARIANTS.filter((id) => id !== 'loop')];
  const alloc = await child(
    path.join('profile', 'alloc.js'),
    ['a', ...ids, `--samples=${SAMPLES}`, '--json'],
    [],
  );
  const allocRows = alloc.rows ?? {};

  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const out = [
    `node ${process.version} · ${cpu} · ${os.cpus().length} cores · load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} · dist ${golem.DIST}`,
    '',
    `Heap over ${n0(RUNS)} s1 runs (memory.js: fresh process, 5,000 warm-up runs, GC forced only at 20 checkpoints)`,
    '',
    '| variant | runs | heap before → after (post-GC), KB | growth, KB | slope, B/run | 2nd half, B/run | runs took, s (CPU s) | scavenges | flat |',
    '|---|--:|--:|--:|--:|--:|--:|--:|:-:|',
  ];
  for (const [id, m] of Object.entries(memory)) {
    if (m.error !== undefined) {
      out.push(`| ${id} | — | failed: ${m.error} | | | | | | |`);
      continue;
    }
    out.push(
      `| ${id} | ${n0(m.runs)} | ${n0(m.before.heapUsed / 1024)} → ${n0(m.after.heapUsed / 1024)} |` +
        ` ${fmt(m.growthBytes / 1024)} | ${fmt(m.slopePerRun)} | ${fmt(m.secondHalfSlopePer1k / 1000)} |` +
        ` ${m.runSeconds.toFixed(1)} (${m.cpuSeconds.toFixed(1)}) | ${n0(m.gcs.scavenges)} |` +
        ` ${isFlat(m) ? 'yes' : 'no'} |`,
    );
  }
  out.push(
    '',
    `Allocation per s1 run (profile/alloc.js: fresh process, ${alloc.semiMB ?? 64} MB semi-space, median of ≥ ${SAMPLES} samples with no GC inside)`,
    '',
    '| variant | bytes/run | new space, bytes/run | range | runs × samples | discarded | × loop |',
    '|---|--:|--:|--:|--:|--:|--:|',
  );
  if (alloc.error !== undefined) out.push(`| — | failed: ${alloc.error} | | | | | |`);
  const loop = allocRows.loop?.bytesPerRun;
  for (const [id, r] of Object.entries(allocRows)) {
    if (r.error !== undefined) {
      out.push(`| ${id} | failed: ${r.error} | | | | | |`);
      continue;
    }
    out.push(
      `| ${id} | ${n0(r.bytesPerRun)} | ${n0(r.newSpacePerRun)} | ${n0(r.min)}–${n0(r.max)} |` +
        ` ${r.runsPerSample} × ${r.samples} | ${r.discarded} |` +
        ` ${loop === undefined ? '' : `${(r.bytesPerRun / loop).toFixed(2)}×`} |`,
    );
  }

  const targets = [];
  for (const id of VARIANTS) {
    const r = allocRows[id];
    const ok = r !== undefined && r.error === undefined;
    targets.push([
      `allocation per s1 run (${id})`,
      'reported',
      ok
        ? `${n0(r.bytesPerRun)} bytes (loop ${loop === undefined ? '—' : `${n0(loop)}, ${(r.bytesPerRun / loop).toFixed(2)}×`})`
        : '',
      ok ? 'reported' : '**not met**',
    ]);
  }
  for (const id of VARIANTS) {
    const m = memory[id];
    const ok = m !== undefined && m.error === undefined;
    targets.push([
      `heap over ${n0(RUNS)} s1 runs (${id})`,
      `flat (≤ ${n0(FLAT.growthKB)} KB, ≤ ${FLAT.slopeBytesPerRun} B/run)`,
      ok ? `growth ${fmt(m.growthBytes / 1024)} KB, slope ${fmt(m.slopePerRun)} B/run` : '',
      ok && isFlat(m) ? 'met' : '**not met**',
    ]);
  }
  out.push(
    '',
    '| target | wanted | measured | verdict |',
    '|---|---|---|---|',
    ...targets.map((t) => `| ${t.join(' | ')} |`),
  );
  console.log(out.join('\n'));

  if (args.json !== undefined) {
    const file = path.resolve(args.json);
    fs.writeFileSync(file, `${JSON.stringify({ runs: RUNS, memory, alloc }, null, 2)}\n`);
    log(`raw results: ${file}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
