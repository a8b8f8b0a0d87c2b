'use strict';
/**
 * A steady loop of one scenario for CPU profiling:
 *
 *   node --cpu-prof --cpu-prof-dir=profiles profile/loop.js golem a 50000
 *   node profile/cpuprofile-top.js profiles/*.cpuprofile
 */
const frameworks = require('../frameworks');

const [id = 'golem', scenario = 'a', runsText = '50000'] = process.argv.slice(2);

(async () => {
  const instance = frameworks.find((f) => f.id === id).create();
  const run = scenario === 'b' ? instance.runB : instance.runA;
  for (let i = 0; i < 2000; i++) await run();
  const runs = Number(runsText);
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) await run();
  const us = Number(process.hrtime.bigint() - start) / 1e3 / runs;
  console.log(`${id} (${scenario}): ${us.toFixed(2)} µs/run`);
})();
