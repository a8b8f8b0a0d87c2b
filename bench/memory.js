'use strict';
/**
 * Scenario (d), the heap over many s1 runs (issues 21 and 35), for one framework, in a fresh
 * process: warm up, collect, then run s1 (`runA`) `runs` times one after another, collecting at
 * `--checkpoints` evenly spaced checkpoints (default 20) and recording heapUsed and RSS. GC is
 * forced only there: a collection is two `global.gc()`, then turns of the event loop (so
 * finalizers and anything queued behind a macrotask run) and `global.gc()` again until heapUsed
 * stops shrinking (at most 5 rounds). Between checkpoints the runs see only V8's own GCs, which
 * `v8.GCProfiler` counts per segment (scavenges and mark-compacts; the forced ones excluded).
 *
 * Prints one JSON line (the last line of stdout; `run.js` and `heap.js` parse it): before, after,
 * growthBytes, the checkpoints, the least-squares slope of the post-GC heap over all checkpoints
 * in bytes per 1,000 runs (`slopePer1k`) and per run (`slopePerRun`), the same over the second
 * half (`secondHalfSlopePer1k`), the time spent in the runs alone (`runSeconds`, checkpoints
 * excluded), the process's CPU time, and the GC counts. Flat (bench/README.md) = growth ≤ 1 MB
 * and slope ≤ 5 bytes per run.
 *
 *   node --expose-gc memory.js <framework-id> <runs> [--checkpoints=20] [--warmup=5000]
 *
 * 1,000,000 runs of golem take ~10–40 s (the runs, plus ~1 s of collections). `heap.js` runs it
 * for golem and golem-decorated at 1,000,000 runs and prints the targets.
 */
const v8 = require('node:v8');
const fs = require('node:fs');
const S = require('./scenario');
const frameworks = require('./frameworks');

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.replace(/^--/, '').split('='))
    .map(([k, v]) => [k, v ?? 'true']),
);
const [id, runsText] = positional;
const runs = Number(runsText);
const CHECKPOINTS = Number(args.checkpoints ?? 20);
const WARMUP = Number(args.warmup ?? 5000);

if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
if (!Number.isInteger(runs) || runs < 1) throw new Error('usage: memory.js <framework-id> <runs>');

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Forced GC until the heap stops shrinking; the post-GC heapUsed and RSS. */
async function collect() {
  global.gc();
  global.gc();
  let heapUsed = process.memoryUsage().heapUsed;
  for (let round = 0; round < 5; round++) {
    await turn();
    global.gc();
    const now = process.memoryUsage().heapUsed;
    if (now >= heapUsed) break;
    heapUsed = now;
  }
  const { rss } = process.memoryUsage();
  return { heapUsed, rss };
}

function slope(points) {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.runs, 0) / n;
  const my = points.reduce((s, p) => s + p.heapUsed, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.runs - mx) * (p.heapUsed - my);
    den += (p.runs - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 1000;
}

(async () => {
  const framework = frameworks.find((f) => f.id === id);
  if (framework === undefined) throw new Error(`unknown framework ${id}`);
  if (id === 'golem-decorated') {
    const golem = require('./golem');
    if (!fs.existsSync(golem.DECORATED_OUTPUT)) golem.buildDecorated();
  }
  const instance = framework.create();
  const first = await instance.runA();
  S.checkA(id, first.output, first.toolResults);
  for (let i = 0; i < WARMUP; i++) await instance.runA();
  const before = await collect();
  const points = [{ runs: 0, ...before }];
  const every = Math.max(1, Math.floor(runs / CHECKPOINTS));
  const gcs = { scavenges: 0, markCompacts: 0, other: 0 };
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  let runNs = 0n;
  let last;
  let done = 0;
  while (done < runs) {
    const segment = Math.min(every, runs - done);
    const profiler = new v8.GCProfiler();
    profiler.start();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < segment; i++) last = await instance.runA();
    runNs += process.hrtime.bigint() - t0;
    for (const { gcType } of profiler.stop().statistics) {
      if (gcType === 'Scavenge' || gcType === 'MinorMarkCompact') gcs.scavenges++;
      else if (gcType === 'MarkSweepCompact') gcs.markCompacts++;
      else gcs.other++;
    }
    done += segment;
    points.push({ runs: done, ...(await collect()) });
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  S.checkA(id, last.output, last.toolResults);
  const after = points[points.length - 1];
  const half = points.filter((p) => p.runs >= runs / 2);
  const slopePer1k = slope(points);
  process.stdout.write(
    `${JSON.stringify({
      id,
      runs,
      warmup: WARMUP,
      checkpoints: points.length - 1,
      seconds,
      runSeconds: Number(runNs) / 1e9,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      gcs,
      before,
      after,
      growthBytes: after.heapUsed - before.heapUsed,
      slopePer1k,
      slopePerRun: slopePer1k / 1000,
      secondHalfSlopePer1k: slope(half),
      points,
    })}\n`,
  );
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
