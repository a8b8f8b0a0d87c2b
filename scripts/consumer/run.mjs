#!/usr/bin/env node
// @ts-check
/**
 * The consumer suite (`npm run test:consumer`, after `npm run build`): golem as its users get
 * it. Packs the repository, checks the tarball, installs it alone (size, peer errors), then into
 * fixture projects with its peers, and compiles and runs the README quick starts (plain engine,
 * container) and the decorated and Nest quick starts under every module kind × TypeScript
 * version of matrix.mjs, with `skipLibCheck: false`. Known limits must still reproduce; anything
 * else failing fails the suite. Stage `readme` follows the README's quick start verbatim as a new
 * user does (readme-stage.mjs) under commonjs, nodenext ESM and bundler. Finally the oldest peer
 * of each range runs the same quick starts and the repository's suites of the entry points that
 * need peers.
 *
 *   node scripts/consumer/run.mjs [--stages=pack,alone,readme,matrix,oldest,oldest-jest]
 *        [--ts=5.0.4,5.9.3] [--kinds=commonjs,bundler] [--fixtures=engine,container]
 *        [--nodes=/path/to/node22,/path/to/node24] [--json=FILE] [--keep]
 *
 * `--nodes` (or GOLEM_CONSUMER_NODES, `:`-separated) adds Node binaries that run the compiled
 * quick starts too. The registry (or npm's cache) provides TypeScript and the pinned peers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FIXTURES,
  INSTALL_TARGET_BYTES,
  KINDS,
  NEWEST_TS,
  PEER_SETS,
  PEERS_OLDEST,
  TYPESCRIPT,
} from './matrix.mjs';
import { prepareSet, runMatrix } from './matrix-stage.mjs';
import { oldestPeersJest } from './oldest-peers.mjs';
import { aloneInstall, packAndCheck } from './package-checks.mjs';
import { readmeStage } from './readme-stage.mjs';
import {
  compile,
  createProjects,
  fixtureSources,
  installTypeScripts,
  runFixture,
} from './projects.mjs';
import { mb, pool } from './tools.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key = '', value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const list = (/** @type {string | undefined} */ value, /** @type {string[]} */ all) =>
  value === undefined ? all : value.split(',').filter((v) => v !== '');
const STAGES = new Set(
  list(args.stages, ['pack', 'alone', 'readme', 'matrix', 'oldest', 'oldest-jest']),
);
const TS = list(args.ts, TYPESCRIPT);
const KIND_NAMES = list(args.kinds, Object.keys(KINDS));
const FIXTURE_NAMES = list(args.fixtures, Object.keys(FIXTURES));
const NODES = [
  process.execPath,
  ...list(args.nodes ?? process.env.GOLEM_CONSUMER_NODES?.split(':').join(','), []),
];
const PARALLEL = Math.max(1, Math.min(4, availableParallelism()));

const started = Date.now();
const secs = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const log = (/** @type {string} */ line) =>
  process.stdout.write(`[${secs().padStart(5)}] ${line}\n`);
/** Marks a promise awaited later as handled now, so an early failure waits for its turn. */
const early = (/** @type {Promise<any>} */ promise) => {
  promise.catch(() => undefined);
  return promise;
};
/** @type {string[]} */
const failures = [];
/** @type {Record<string, unknown>} */
const report = { node: process.version, typescript: TS, kinds: KIND_NAMES };

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'golem-consumer-'));
  log(`consumer suite in ${tmp} (${PARALLEL} at a time)`);
  // Stopped from outside (CI's `timeout`, Ctrl-C): leave no scratch folder behind.
  for (const [signal, code] of /** @type {const} */ ([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ]))
    process.once(signal, () => {
      log(`stopped by ${signal} (${secs()})`);
      if (args.keep === undefined) rmSync(tmp, { recursive: true, force: true });
      process.exit(code);
    });
  /** @type {Promise<unknown>[]} */
  const installs = [];
  try {
    const packed = await packAndCheck(ROOT, tmp);
    log(
      `pack: ${packed.files} files, tarball ${mb(packed.size)}, unpacked ${mb(packed.unpackedSize)} — ok (${secs()})`,
    );
    report.pack = { files: packed.files, size: packed.size, unpackedSize: packed.unpackedSize };

    // Every install starts now, side by side (npm's cache is shared and safe to share), so the
    // network waits overlap each other and the CPU-bound stages; each is awaited where needed.
    const needTools = STAGES.has('matrix') || STAGES.has('oldest');
    const sources = fixtureSources(ROOT, FIXTURE_NAMES);
    const tscReady = early(needTools ? installTypeScripts(tmp) : Promise.resolve({}));
    /** @type {Map<string, Promise<string>>} */
    const prepared = new Map();
    if (STAGES.has('matrix'))
      for (const set of PEER_SETS) {
        const ready = { tmp, tarball: packed.tarball, sources, kinds: KIND_NAMES };
        prepared.set(set.name, early(prepareSet(set, ready)));
      }
    const oldestReady =
      STAGES.has('oldest') || STAGES.has('oldest-jest')
        ? early(
            createProjects(tmp, 'oldest', packed.tarball, PEERS_OLDEST, sources, ['nodenext-cjs']),
          )
        : undefined;
    const readmeDone = STAGES.has('readme')
      ? early(readmeStage({ root: ROOT, tmp, tarball: packed.tarball, parallel: PARALLEL }))
      : undefined;
    installs.push(tscReady, ...prepared.values(), ...(oldestReady ? [oldestReady] : []));
    if (readmeDone !== undefined) installs.push(readmeDone);

    if (STAGES.has('alone')) {
      const alone = await aloneInstall(tmp, packed);
      report.alone = alone;
      log(
        `alone: npm install golem → ${mb(alone.disk)} on disk (${mb(alone.apparent)} of files), ` +
          `${alone.packages} packages; target ≤ ${mb(INSTALL_TARGET_BYTES)} — ok`,
      );
      log(`alone: ${alone.core} entry points load without peers; without their peers:`);
      for (const line of alone.messages) log(`  ${line}`);
      log(`alone: done (${secs()})`);
    }

    if (readmeDone !== undefined) {
      /** @type {import('./readme-stage.mjs').SetupResult[]} */
      let results = [];
      try {
        results = await readmeDone;
      } catch (error) {
        failures.push(`README quick start: ${/** @type {Error} */ (error).message}`);
      }
      report.readme = results.map(({ failure: _failure, ...r }) => r);
      for (const r of results) if (r.failure !== undefined) failures.push(r.failure);
      const each = results.map(
        (r) => `${r.setup} ${r.ok ? 'ok' : 'FAILED'} (${(r.ms / 1000).toFixed(0)} s)`,
      );
      log(
        `readme: quick start from README.md, TypeScript ${results[0]?.typescript ?? '?'} — ${each.join(', ')} (${secs()})`,
      );
    }

    const tsc = await tscReady;

    if (STAGES.has('matrix')) {
      /** @type {Record<string, unknown>} */
      const matrices = {};
      const ctx = {
        tmp,
        tarball: packed.tarball,
        tsc,
        sources,
        kinds: KIND_NAMES,
        typescript: TS,
        nodes: NODES,
        parallel: PARALLEL,
        log,
        failures,
        prepared,
      };
      for (const set of PEER_SETS) matrices[set.name] = await runMatrix(set, ctx);
      report.matrix = matrices;
      log(`matrix: done (${secs()})`);
    }
    if (oldestReady !== undefined) {
      const dir = await oldestReady;
      if (STAGES.has('oldest')) {
        const compiled = await compile(
          dir,
          'nodenext-cjs',
          NEWEST_TS,
          /** @type {string} */ (tsc[NEWEST_TS]),
          FIXTURE_NAMES,
        );
        // The oldest peers' own declarations may not pass today's checks (Nest 10.0.0's do not
        // under TypeScript 5.9); only errors in the quick starts and in golem's count here.
        const theirs = (/** @type {string} */ file) => /node_modules\/(?!golem\/)/.test(file);
        for (const [fixture, all] of Object.entries(compiled.errors)) {
          const errors = all.filter((e) => !theirs(e.file));
          if (errors.length > 0)
            failures.push(
              `oldest peers: ${fixture} does not compile:\n    ${errors.map((e) => e.text).join('\n    ')}`,
            );
        }
        const runs = await pool(
          PARALLEL,
          FIXTURE_NAMES.map(
            (f) => () => runFixture(process.execPath, dir, 'nodenext-cjs', NEWEST_TS, f),
          ),
        );
        for (const r of runs)
          if (!r.ok) failures.push(`oldest peers: ${r.fixture} failed to run:\n${r.output}`);
        log(
          `oldest peers (${Object.entries(PEERS_OLDEST)
            .map(([p, v]) => `${p}@${v}`)
            .join(' ')}): ` +
            `${runs.filter((r) => r.ok).length}/${runs.length} quick starts ran (${secs()})`,
        );
      }
      if (STAGES.has('oldest-jest')) {
        try {
          log(
            `oldest peers, repository suites: ${await oldestPeersJest(ROOT, tmp, dir)} (${secs()})`,
          );
        } catch (error) {
          failures.push(String(/** @type {Error} */ (error).message));
        }
      }
    }
  } finally {
    await Promise.allSettled(installs); // none still writing into the folder removed below
    if (args.keep === undefined) rmSync(tmp, { recursive: true, force: true });
    else log(`kept ${tmp}`);
  }
  report.seconds = (Date.now() - started) / 1000;
  report.failures = failures;
  if (args.json !== undefined) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  if (failures.length > 0) {
    log(`\n${failures.length} failure(s):\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  } else log(`\nconsumer suite: ok (${secs()})`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
