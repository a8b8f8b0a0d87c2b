'use strict';
/**
 * The full bench's scenarios that are not per-run timings, kept from issues 8, 12 and 13:
 * (e) cold import, (f) installed size (each with issue 13's targets, `targets.js`), and
 * (h) adapter memory (`adapters.js`). Each prints its own table.
 */
const { spawnSync } = require('node:child_process');
const golem = require('./golem');
const sizes = require('./sizes');
const targets = require('./targets');
const adapters = require('./adapters');
const { median, quantile } = require('./report');

const COLD = { warmup: 2, rounds: 15 };
const COLD_TARGETS = {
  golem: golem.GOLEM,
  'golem/decorators': golem.GOLEM_DECORATORS,
  'ai-sdk': 'ai',
  'openai-agents': '@openai/agents',
  langchain: 'langchain',
};
const PEER_PACKAGES = {
  'ai-sdk': ['ai'],
  'openai-agents': ['@openai/agents'],
  langchain: ['langchain', '@langchain/core'],
};
const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);

/** (e): `node -e "require(x)"` minus `node -e 0`, rounds alternating packages. */
function cold() {
  const list = [['floor', null], ...Object.entries(COLD_TARGETS)];
  const samples = new Map(list.map(([id]) => [id, []]));
  for (let round = 0; round < COLD.warmup + COLD.rounds; round++) {
    for (const [id, target] of rotate(list, round)) {
      const code = target === null ? '0' : `require(${JSON.stringify(target)})`;
      const start = process.hrtime.bigint();
      const r = spawnSync(process.execPath, ['-e', code], { cwd: __dirname, stdio: 'ignore' });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (r.status !== 0) throw new Error(`cold import of ${id} failed`);
      if (round >= COLD.warmup) samples.get(id).push(ms);
    }
  }
  const floor = median(samples.get('floor'));
  const out = { floor };
  for (const [id] of list.slice(1)) {
    const values = samples.get(id).map((ms) => ms - floor);
    out[id] = { median: median(values), p25: quantile(values, 0.25), p75: quantile(values, 0.75) };
  }
  return { cold: out, targets: targets.importCost() };
}

/** (f): installed sizes; the decorated row adds the decorators' peers. */
function size() {
  const out = {};
  const packed = sizes.golemSize();
  out.golem = packed;
  out['golem/decorators'] = sizes.golemDecoratedSize(packed);
  Object.assign(out, sizes.peerSizes(PEER_PACKAGES));
  return { sizes: out, targets: targets.consumerSize() };
}

function table(e, f) {
  const ids = Object.keys(COLD_TARGETS);
  const lines = [
    '| package | cold import, ms over `node -e 0` | installed, MB | packages |',
    '|---|--:|--:|--:|',
  ];
  for (const id of ids) {
    const c = e?.cold[id]?.median;
    const s = f?.sizes[id];
    lines.push(
      `| ${id} | ${c === undefined ? '—' : c.toFixed(1)} | ${s === undefined ? '—' : (s.bytes / 2 ** 20).toFixed(1)} | ${s?.packages ?? '—'} |`,
    );
  }
  let text = lines.join('\n');
  if (e !== undefined || f !== undefined)
    text += `\n\n${targets.table({ e: e?.targets, f: f?.targets })}`;
  return text;
}

module.exports = { cold, size, table, adapters };
