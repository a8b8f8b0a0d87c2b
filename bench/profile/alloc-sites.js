'use strict';
/**
 * Where a framework's per-run allocations come from: V8's sampling heap profiler over many runs
 * of a scenario, counting objects that were already collected too (so the figures are
 * cumulative allocation, not what stays alive). Prints the top allocation sites by bytes.
 *
 *   node profile/alloc-sites.js <framework-id> [a|b] [runs] [top]
 */
const inspector = require('node:inspector');
const frameworks = require('../frameworks');

const [id, scenario = 'a', runsText = '20000', topText = '25'] = process.argv.slice(2);
const framework = frameworks.find((f) => f.id === id);
const session = new inspector.Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );

function sites(profile) {
  const bytes = new Map();
  const byId = new Map();
  const visit = (node, parentKey) => {
    const frame = node.callFrame;
    const where = frame.url.split('/').slice(-3).join('/');
    const key =
      frame.url === '' && frame.functionName === ''
        ? parentKey
        : `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    byId.set(node.id, key);
    for (const child of node.children) visit(child, key);
  };
  visit(profile.head, '(root)');
  for (const sample of profile.samples) {
    const key = byId.get(sample.nodeId);
    bytes.set(key, (bytes.get(key) ?? 0) + sample.size);
  }
  return [...bytes.entries()].sort((a, b) => b[1] - a[1]);
}

(async () => {
  const instance = framework.create();
  const run = scenario === 'b' ? instance.runB : instance.runA;
  const runs = Number(runsText);
  for (let i = 0; i < 500; i++) await run();
  await post('HeapProfiler.startSampling', {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < runs; i++) await run();
  const { profile } = await post('HeapProfiler.stopSampling');
  const ranked = sites(profile);
  const total = ranked.reduce((s, [, b]) => s + b, 0);
  console.log(`${id} (${scenario}): ~${(total / runs / 1024).toFixed(1)} KB sampled per run`);
  for (const [key, b] of ranked.slice(0, Number(topText)))
    console.log(
      `${((b / total) * 100).toFixed(1).padStart(5)}%  ${(b / runs).toFixed(0).padStart(6)} B/run  ${key}`,
    );
})();
