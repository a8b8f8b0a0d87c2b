'use strict';
/**
 * Builds of Golem compared in SEPARATE processes, alternated: each of `reps` rounds starts one
 * fresh process per build (the order rotated by the round), which runs one column's method for
 * `--seconds` after a warm-up and reports its CPU µs per run. Prints, per build, the median over
 * the rounds; and for each build after the first, the median of its round-by-round difference
 * to the first and in how many rounds it was the cheaper — a change whose effect is below the
 * machine's drift shows as a difference near zero won in about half the rounds.
 *
 * For the streaming methods, where the in-process A/B (`ab.js`) misleads: in one process the
 * fake model and the column's reader are shared by both builds, see both builds' objects and
 * turn polymorphic, and its verdicts contradicted these (bench/RESULTS.md, issue 35).
 *
 *   node profile/alternate.js runStreamText 15 /tmp/dist-before /tmp/dist-after [--seconds=2]
 *        [--column=golem]
 *
 * Arguments: the column's method (`runA`, `runB`, `runStreamText` for `for await`,
 * `runStreamTextCallback` for `onDelta`, `runStreamTextEvents`, …), rounds, then the dist
 * directories (each built with `npx tsc -p tsconfig.build.json --outDir <dir>` and able to
 * resolve the repository's node_modules, e.g. by a `node_modules` symlink beside it).
 */
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One process: the method for `seconds` after its warm-up; prints `{ cpuPerRun, runs }`. */
async function child(column, method, seconds) {
  const S = require('../scenario');
  const frameworks = require('../frameworks');
  const run = frameworks.find((f) => f.id === column).create()[method];
  S.check(method, column, await run());
  const warmUntil = Date.now() + 1000;
  while (Date.now() < warmUntil) for (let i = 0; i < 20; i++) await run();
  const end = Date.now() + seconds * 1000;
  let runs = 0;
  const cpu0 = process.cpuUsage();
  while (Date.now() < end) {
    for (let i = 0; i < 20; i++) await run();
    runs += 20;
  }
  const used = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ cpuPerRun: (used.user + used.system) / runs, runs }));
}

function parent(method, rounds, dists, seconds, column) {
  const cpu = dists.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < dists.length; j++) {
      const k = (j + round) % dists.length;
      const out = execFileSync(
        process.execPath,
        [__filename, '--child', method, String(seconds), column],
        { env: { ...process.env, GOLEM_BENCH_DIST: path.resolve(dists[k]) }, encoding: 'utf8' },
      );
      cpu[k].push(JSON.parse(out).cpuPerRun);
    }
    process.stderr.write(`  round ${round + 1}/${rounds}\n`);
  }
  console.log(`${column} ${method}, ${rounds} rounds of ${seconds} s per build (CPU µs per run):`);
  dists.forEach((dist, k) => {
    const fields = [`median ${median(cpu[k]).toFixed(1)}`];
    if (k > 0) {
      const diffs = cpu[k].map((value, round) => value - cpu[0][round]);
      const cheaper = diffs.filter((d) => d < 0).length;
      fields.push(`vs the first: median difference ${median(diffs).toFixed(1)}`);
      fields.push(`cheaper in ${cheaper}/${rounds} rounds`);
    }
    console.log(`  ${dist}: ${fields.join(', ')}`);
  });
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  child(args[3], args[1], Number(args[2])).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  const options = Object.fromEntries(
    args.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')),
  );
  const [method, roundsText, ...dists] = args.filter((a) => !a.startsWith('--'));
  if (method === undefined || dists.length < 2)
    throw new Error('usage: alternate.js <method> <rounds> <dist> <dist> [...] [--seconds=2]');
  parent(
    method,
    Number(roundsText),
    dists,
    Number(options.seconds ?? 2),
    options.column ?? 'golem',
  );
}
