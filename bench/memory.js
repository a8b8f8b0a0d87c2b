'use strict';
/**
 * Scenario (d) for one framework, in a fresh process: warm up, force GC, then run scenario (a)
 * `runs` times one after another, forcing GC (twice) at evenly spaced checkpoints and recording
 * heapUsed and RSS. Prints one JSON line: before, after, checkpoints and the least-squares slope
 * of the post-GC heap in bytes per 1,000 runs.
 *
 *   node --expose-gc memory.js <framework-id> <runs>
 */
const S = require('./scenario');
const frameworks = require('./frameworks');

const [id, runsText] = process.argv.slice(2);
const runs = Number(runsText);
const CHECKPOINTS = 20;
const WARMUP = 5000;

if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');

function collect() {
  global.gc();
  global.gc();
  const { heapUsed, rss } = process.memoryUsage();
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
  const instance = framework.create();
  const first = await instance.runA();
  S.checkA(id, first.output, first.toolResults);
  for (let i = 0; i < WARMUP; i++) await instance.runA();
  const before = collect();
  const points = [{ runs: 0, ...before }];
  const every = Math.max(1, Math.floor(runs / CHECKPOINTS));
  const start = process.hrtime.bigint();
  let last;
  for (let i = 1; i <= runs; i++) {
    last = await instance.runA();
    if (i % every === 0 || i === runs) points.push({ runs: i, ...collect() });
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  S.checkA(id, last.output, last.toolResults);
  const after = points[points.length - 1];
  const half = points.filter((p) => p.runs >= runs / 2);
  process.stdout.write(
    `${JSON.stringify({
      id,
      runs,
      warmup: WARMUP,
      seconds,
      before,
      after,
      slopePer1k: slope(points),
      secondHalfSlopePer1k: slope(half),
      points,
    })}\n`,
  );
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
