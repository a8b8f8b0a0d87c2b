'use strict';
/**
 * Builds of Golem compared by the machine instructions one run executes, counted by Valgrind's
 * callgrind: a judge that does not move with the machine's speed. For each build, two processes
 * run one column's method `--warmup` times, then one of them `--runs` times more; the difference
 * over `--runs` is the instructions per run, the warm-up and the process's start and end
 * cancelled out. Node runs with `--single-threaded` (no background compiler or collector
 * threads: the counts repeat to ~0.3% between processes) — so the collector's and the compiler's
 * work lands on the one thread and is counted, in a schedule that differs from a normal process.
 * Instructions are not time (a cache miss or a write barrier's slow path costs more than its
 * count), so a change this finds cheaper is still confirmed with `alternate.js`.
 *
 *   node profile/instructions.js runStreamText /tmp/dist-before /tmp/dist-after
 *        [--column=golem] [--warmup=300] [--runs=200] [--per=2000]
 *
 * `--per` divides the figure once more (e.g. by the deltas of a streamed run). Needs `valgrind`
 * on the PATH; each process takes ~1 minute for a 2,000-delta streamed run (the two of a build
 * run side by side). The dist directories are built as for `alternate.js`.
 */
const { execFile } = require('node:child_process');
const path = require('node:path');

/** One process: `runs` runs of the method, after `warmup` of them. */
async function child(column, method, warmup, runs) {
  const S = require('../scenario');
  const frameworks = require('../frameworks');
  const run = frameworks.find((f) => f.id === column).create()[method];
  S.check(method, column, await run());
  for (let i = 0; i < warmup + runs; i++) await run();
}

/** The instructions callgrind counted in a child running `runs` timed runs. */
function counted(dist, column, method, warmup, runs) {
  const argv = [
    '--tool=callgrind',
    '--callgrind-out-file=/dev/null',
    // V8 writes the code it compiles: Valgrind must see the new instructions.
    '--smc-check=all-non-file',
    process.execPath,
    '--single-threaded',
    __filename,
    '--child',
    column,
    method,
    String(warmup),
    String(runs),
  ];
  const env = { ...process.env, GOLEM_BENCH_DIST: path.resolve(dist) };
  return new Promise((resolve, reject) => {
    execFile('valgrind', argv, { env, maxBuffer: 1 << 24 }, (error, _stdout, stderr) => {
      if (error !== null) return reject(new Error(`valgrind: ${error.message}\n${stderr}`));
      const found = /Collected : (\d+)/.exec(stderr);
      if (found === null) return reject(new Error(`no instruction count in:\n${stderr}`));
      return resolve(Number(found[1]));
    });
  });
}

async function parent(method, dists, options) {
  const column = options.column ?? 'golem';
  const warmup = Number(options.warmup ?? 300);
  const runs = Number(options.runs ?? 200);
  const per = Number(options.per ?? 1);
  const unit = per === 1 ? 'per run' : `per run / ${per}`;
  console.log(
    `${column} ${method}: instructions ${unit} (callgrind, node --single-threaded; ${runs} runs after ${warmup})`,
  );
  const figures = [];
  for (const dist of dists) {
    const [base, more] = await Promise.all([
      counted(dist, column, method, warmup, 0),
      counted(dist, column, method, warmup, runs),
    ]);
    const figure = (more - base) / runs / per;
    figures.push(figure);
    const first = figures[0];
    const versus =
      figures.length === 1
        ? ''
        : `, ${(figure - first).toFixed(1)} (${(((figure - first) / first) * 100).toFixed(2)}%) vs the first`;
    console.log(`  ${dist}: ${figure.toFixed(1)}${versus}`);
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const [, column, method, warmup, runs] = args;
  child(column, method, Number(warmup), Number(runs)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  const options = Object.fromEntries(
    args.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')),
  );
  const [method, ...dists] = args.filter((a) => !a.startsWith('--'));
  if (method === undefined || dists.length < 1)
    throw new Error(
      'usage: instructions.js <method> <dist> [<dist> …] [--column=golem] [--warmup=300] [--runs=200] [--per=1]',
    );
  parent(method, dists, options).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
