'use strict';
/**
 * Bytes allocated per run of a scenario, per framework: the growth of V8's new space across a
 * few runs with no scavenge in between (GC forced first; a sample in which the space shrank
 * saw a scavenge and is retried). Large objects allocated straight into old space are missed,
 * which no scenario here makes.
 *
 *   node --expose-gc profile/alloc.js [a|b] [framework-id…]
 */
const v8 = require('node:v8');
const S = require('../scenario');
const frameworks = require('../frameworks');

const which = process.argv[2] === 'b' ? 'runB' : 'runA';
const ids = process.argv.slice(3);

function newSpaceUsed() {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_used_size;
}

async function perRun(run) {
  const samples = [];
  for (let k = 8; samples.length < 15;) {
    global.gc();
    const before = newSpaceUsed();
    for (let i = 0; i < k; i++) await run();
    const after = newSpaceUsed();
    if (after > before) samples.push((after - before) / k);
    else k = Math.max(1, k >> 1);
  }
  samples.sort((x, y) => x - y);
  return samples[samples.length >> 1];
}

(async () => {
  for (const framework of frameworks) {
    if (ids.length > 0 && !ids.includes(framework.id)) continue;
    const instance = framework.create();
    const first = await instance[which]();
    if (which === 'runA') S.checkA(framework.id, first.output, first.toolResults);
    else S.checkB(framework.id, first.output);
    for (let i = 0; i < 300; i++) await instance[which]();
    const bytes = await perRun(instance[which]);
    console.log(
      `${which} ${framework.label.padEnd(18)} ${(bytes / 1024).toFixed(1)} KB allocated per run`,
    );
  }
})();
