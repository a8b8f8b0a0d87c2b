'use strict';
/**
 * Two (or more) builds of Golem side by side in ONE process, their batches interleaved, so the
 * machine's drift (other jobs on a shared box) hits every build alike. For before/after checks
 * of an engine change on a busy machine, where separate processes minutes apart disagree by more
 * than the change; the bench itself (`run.js`) stays the reference for published figures.
 *
 *   node --expose-gc profile/ab.js runA 60 /tmp/dist-before /tmp/dist-after
 *
 * Arguments: the golem (zod) column's method (`runA` s1, `runB` s2, `runHistory`, …), rounds,
 * then the dist directories (each built with `npx tsc -p tsconfig.build.json --outDir <dir>` and
 * able to resolve the repository's node_modules, e.g. by a `node_modules` symlink beside it).
 * Prints, per build, the median and best batch (wall µs per run) and the median CPU µs per run.
 */
const path = require('node:path');

const [method = 'runA', roundsText = '40', ...dists] = process.argv.slice(2);
const BENCH = path.resolve(__dirname, '..');
if (dists.length === 0) throw new Error('usage: ab.js <method> <rounds> <dist> [<dist>…]');

/** One column instance per build: a fresh module cache for the bench's files and the build. */
const runs = dists.map((dist) => {
  for (const key of Object.keys(require.cache))
    if (key.startsWith(BENCH) || dists.some((d) => key.startsWith(path.resolve(d))))
      delete require.cache[key];
  process.env.GOLEM_BENCH_DIST = dist;
  const column = require(path.join(BENCH, 'frameworks', 'golem-zod.js'));
  return column.create()[method];
});

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

(async () => {
  for (const run of runs) for (let i = 0; i < 5000; i++) await run();
  const batch = method === 'runHistory' ? 500 : 1000;
  const wall = dists.map(() => []);
  const cpu = dists.map(() => []);
  for (let round = 0; round < Number(roundsText); round++) {
    for (let j = 0; j < dists.length; j++) {
      const k = round % 2 === 0 ? j : dists.length - 1 - j;
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < batch; i++) await runs[k]();
      wall[k].push(Number(process.hrtime.bigint() - t0) / 1e3 / batch);
      const used = process.cpuUsage(cpu0);
      cpu[k].push((used.user + used.system) / batch);
    }
  }
  dists.forEach((dist, k) => {
    const fields = [
      `wall median ${median(wall[k]).toFixed(2)}`,
      `best ${Math.min(...wall[k]).toFixed(2)}`,
      `CPU median ${median(cpu[k]).toFixed(2)} µs/run`,
    ];
    console.log(`${method} ${dist}: ${fields.join(', ')}`);
  });
})();
