'use strict';
/**
 * A steady loop of one scenario for CPU profiling (after `npm run build` at the root):
 *
 *   node --cpu-prof --cpu-prof-dir=profiles profile/loop.js golem runA 50000
 *   node profile/cpuprofile-top.js profiles/<file>.cpuprofile
 *
 * The second argument is the column's method (`runA` s1, `runB` s2, `runHistory`,
 * `runStreamText`, `runStreamTool`, …; `a`/`b` still mean runA/runB).
 */
const S = require('../scenario');
const frameworks = require('../frameworks');

const [id = 'golem', scenario = 'runA', runsText = '50000'] = process.argv.slice(2);
const method = { a: 'runA', b: 'runB' }[scenario] ?? scenario;

(async () => {
  const instance = frameworks.find((f) => f.id === id).create();
  const run = instance[method];
  S.check(method, id, await run());
  for (let i = 0; i < 5000; i++) await run();
  const runs = Number(runsText);
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) await run();
  const us = Number(process.hrtime.bigint() - start) / 1e3 / runs;
  console.log(`${id} (${method}): ${us.toFixed(2)} µs/run`);
})();
