'use strict';
/**
 * The install and import targets of issue 13, measured as a user meets them:
 *
 * - (e) import cost: `node -e "require(x)"` minus `node -e 0`, whole fresh processes, rounds
 *   alternating the targets; wall time (what a CLI or a cold serverless start feels) and CPU time
 *   (user + system, steadier on a busy machine). Targets: `golem` ≤ 30 ms, `golem/decorators`
 *   ≤ 100 ms. The peers `golem/decorators` loads (class-validator, class-transformer,
 *   class-validator-jsonschema, reflect-metadata) are measured alone beside it, so golem's own
 *   share is visible.
 * - (f) install size: `npm pack` installed alone into a fresh project (the consumer suite's
 *   `alone` stage: scripts/consumer/run.mjs), `du` of its node_modules. Target ≤ 12 MB.
 *
 *   node targets.js [--rounds=15]     prints both (needs a build: npm run build at the root)
 */
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const { spawnSync } = require('node:child_process');
const { ROOT, GOLEM, GOLEM_DECORATORS } = require('./golem');

const TARGET_MS = { core: 30, decorators: 100 };
const TARGET_INSTALL_BYTES = 12 * 2 ** 20;
const DECORATOR_PEERS = [
  'reflect-metadata',
  'class-transformer',
  'class-validator',
  'class-validator-jsonschema',
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One fresh process requiring `files`; returns its wall and CPU milliseconds. */
function once(files) {
  const code =
    files.map((file) => `require(${JSON.stringify(file)});`).join('') +
    'const u=process.cpuUsage();process.stdout.write(String((u.user+u.system)/1000))';
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['-e', code], { cwd: ROOT, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`cold import of ${files.join(', ')}: ${result.stderr}`);
  return { wall, cpu: Number(result.stdout) };
}

/** (e) targets: medians over `rounds` after 2 warm-up rounds, each minus the bare-node floor. */
function importCost({ rounds = 15 } = {}) {
  const peers = DECORATOR_PEERS.map((name) => require.resolve(name, { paths: [ROOT] }));
  const targets = {
    floor: [],
    core: [GOLEM],
    decorators: [GOLEM_DECORATORS],
    peers,
  };
  const ids = Object.keys(targets);
  const samples = Object.fromEntries(ids.map((id) => [id, { wall: [], cpu: [] }]));
  for (let round = 0; round < rounds + 2; round++) {
    for (const id of ids.map((_, i) => ids[(i + round) % ids.length])) {
      const { wall, cpu } = once(targets[id]);
      if (round < 2) continue;
      samples[id].wall.push(wall);
      samples[id].cpu.push(cpu);
    }
  }
  const floor = { wall: median(samples.floor.wall), cpu: median(samples.floor.cpu) };
  const over = (id) => ({
    wall: median(samples[id].wall) - floor.wall,
    cpu: median(samples[id].cpu) - floor.cpu,
  });
  return {
    rounds,
    load: os.loadavg()[0],
    floor,
    core: over('core'),
    decorators: over('decorators'),
    peers: over('peers'),
  };
}

/** (f) target: the consumer suite's `alone` stage (npm pack, fresh install, du). */
function consumerSize() {
  const json = path.join(os.tmpdir(), `golem-bench-alone-${process.pid}.json`);
  const script = path.join(ROOT, 'scripts', 'consumer', 'run.mjs');
  const result = spawnSync(process.execPath, [script, '--stages=pack,alone', `--json=${json}`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`golem alone install failed:\n${result.stdout}${result.stderr}`);
  const report = JSON.parse(fs.readFileSync(json, 'utf8'));
  fs.rmSync(json, { force: true });
  return report.alone;
}

const ms = (value) => `${value.toFixed(1)} ms`;
const verdict = (value, target) => (value <= target ? 'meets' : 'MISSES');

/** The targets block printed under the bench table. */
function table({ e, f }) {
  const lines = ['Targets (issue 13), whole processes:'];
  if (e !== undefined) {
    lines.push(
      `  (e) require('golem')            ${ms(e.core.wall)} over \`node -e 0\` ` +
        `(CPU ${ms(e.core.cpu)}); target ≤ ${TARGET_MS.core} ms: ${verdict(e.core.wall, TARGET_MS.core)}`,
      `  (e) require('golem/decorators') ${ms(e.decorators.wall)} ` +
        `(CPU ${ms(e.decorators.cpu)}); target ≤ ${TARGET_MS.decorators} ms: ` +
        `${verdict(e.decorators.wall, TARGET_MS.decorators)}`,
      `      its peers loaded alone (${DECORATOR_PEERS.join(', ')}): ${ms(e.peers.wall)} ` +
        `(CPU ${ms(e.peers.cpu)}); golem/decorators loads all but reflect-metadata on first use`,
      `      medians of ${e.rounds} rounds; bare node ${ms(e.floor.wall)}; load average ${e.load.toFixed(1)}`,
    );
  }
  if (f !== undefined) {
    const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
    lines.push(
      `  (f) npm install golem, alone     ${mb(f.disk)} on disk (du; ${mb(f.apparent)} of files), ` +
        `${f.packages} packages; target ≤ ${mb(TARGET_INSTALL_BYTES)}: ${verdict(f.disk, TARGET_INSTALL_BYTES)}`,
    );
  }
  return lines.join('\n');
}

module.exports = { importCost, consumerSize, table, TARGET_MS, TARGET_INSTALL_BYTES };

if (require.main === module) {
  const rounds = Number(/--rounds=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 15);
  const e = importCost({ rounds });
  const f = consumerSize();
  process.stdout.write(`${table({ e, f })}\n`);
}
