'use strict';
/** Self and inclusive time by function of a `.cpuprofile` (from `node --cpu-prof`). */
const fs = require('node:fs');

const [file, topText = '30'] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const top = Number(topText);
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => {
  const f = n.callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-3).join('/')}:${f.lineNumber + 1}`;
};
const selfTime = new Map();
profile.samples.forEach((id, i) =>
  selfTime.set(id, (selfTime.get(id) ?? 0) + profile.timeDeltas[i]),
);
const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
const own = new Map();
const incl = new Map();
for (const [id, t] of selfTime) {
  const key = name(nodes.get(id));
  own.set(key, (own.get(key) ?? 0) + t);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = name(nodes.get(cur));
    if (!seen.has(k)) incl.set(k, (incl.get(k) ?? 0) + t);
    seen.add(k);
  }
}
const show = (title, map) => {
  console.log(title);
  for (const [k, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((t / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
};
show(`self time (${(total / 1000).toFixed(0)} ms sampled)`, own);
show('inclusive time', incl);
