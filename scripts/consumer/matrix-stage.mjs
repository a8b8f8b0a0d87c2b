// @ts-check
/**
 * Stage `matrix` of the consumer suite, for one peer set: install it with golem's tarball,
 * compile the quick starts in every module kind with every TypeScript, compare with the known
 * limits (a limit that no longer reproduces fails too, so the README table stays true), check
 * that each limit's fix works, and run the compiled quick starts on every Node.
 */
import { KNOWN_LIMITS, NEWEST_TS, limitFor } from './matrix.mjs';
import { compile, createProjects, runFixture, writeProject } from './projects.mjs';
import { pool } from './tools.mjs';

/**
 * @typedef {object} MatrixContext
 * @property {string} tmp
 * @property {string} tarball
 * @property {Record<string, string>} tsc      TypeScript version → tsc path
 * @property {Record<string, string>} sources  fixture → code
 * @property {string[]} kinds
 * @property {string[]} typescript
 * @property {string[]} nodes                  Node binaries; the first is this process's
 * @property {number} parallel
 * @property {(line: string) => void} log
 * @property {string[]} failures               problems are appended here
 * @property {Map<string, Promise<string>>} [prepared] installs already started, by set name
 */

const lines = (/** @type {{ text: string }[]} */ errors) =>
  errors
    .slice(0, 8)
    .map((e) => e.text)
    .join('\n    ');

/**
 * Runs the matrix of one peer set; returns the table rows and the run results.
 * @param {import('./matrix.mjs').PeerSet} set
 * @param {MatrixContext} ctx
 */
export async function runMatrix(set, ctx) {
  const versions = ctx.typescript.filter((v) => set.typescript?.includes(v) ?? true);
  const sources = setSources(set, ctx.sources);
  const fixtures = Object.keys(sources);
  const dir = await (ctx.prepared?.get(set.name) ?? prepareSet(set, ctx));
  const installed = Object.entries(set.peers).map(([p, v]) => `${p}@${v}`);
  ctx.log(`matrix ${set.name}: installed golem + ${installed.join(' ')}`);

  const jobs = ctx.kinds.flatMap((kind) =>
    versions.map(
      (ts) => () => compile(dir, kind, ts, /** @type {string} */ (ctx.tsc[ts]), fixtures),
    ),
  );
  const outcomes = await pool(ctx.parallel, jobs);
  const rows = [
    `| ${set.name}: kind \\ TypeScript | ${versions.join(' | ')} |`,
    `|---|${versions.map(() => '---').join('|')}|`,
  ];
  const reproduced = new Set();
  for (const kind of ctx.kinds) {
    const cells = versions.map((ts) => {
      const outcome = outcomes.find((o) => o.kind === kind && o.ts === ts);
      const global = outcome?.errors['*'] ?? [];
      return fixtures
        .map((fixture) => {
          const errors = [...global, ...(outcome?.errors[fixture] ?? [])];
          const limit = limitFor(set.name, kind, ts, fixture);
          const where = `${set.name} / ${kind} / TypeScript ${ts}: ${fixture}`;
          if (errors.length === 0 && limit === undefined) return `${fixture} ✓`;
          if (errors.length > 0 && limit !== undefined && global.length === 0) {
            reproduced.add(limit.id);
            return `${fixture} ✗ (${limit.id})`;
          }
          if (limit !== undefined)
            ctx.failures.push(
              `${where} compiles, but the known limit "${limit.id}" says it does not — remove ` +
                'it from scripts/consumer/matrix.mjs and from the README support table',
            );
          else ctx.failures.push(`${where} does not compile:\n    ${lines(errors)}`);
          return `${fixture} FAIL`;
        })
        .join(', ');
    });
    rows.push(`| ${kind} | ${cells.join(' | ')} |`);
  }
  ctx.log(`matrix ${set.name}: compiled ${outcomes.length} projects\n\n${rows.join('\n')}\n`);
  for (const limit of KNOWN_LIMITS)
    if (reproduced.has(limit.id)) ctx.log(`  ${limit.id}: ${limit.why}. Fix: ${limit.fix}.`);
  await verifyFixes(set, dir, sources, versions, ctx);

  // This Node runs the output of the oldest and the newest TypeScript (what lies between emits
  // the same); the other Nodes run the newest's.
  const edges = [...new Set([versions[0] ?? NEWEST_TS, versions.at(-1) ?? NEWEST_TS])];
  const runJobs = [];
  for (const node of ctx.nodes)
    for (const kind of ctx.kinds)
      for (const ts of node === ctx.nodes[0] ? edges : versions.slice(-1))
        for (const fixture of fixtures)
          runJobs.push(() => runFixture(node, dir, kind, ts, fixture));
  const runs = await pool(ctx.parallel, runJobs);
  for (const r of runs)
    if (!r.ok)
      ctx.failures.push(
        `${set.name}: running ${r.fixture} (${r.kind}, TypeScript ${r.ts}, ${r.node}) failed:\n` +
          r.output.slice(-3000),
      );
  const byNode = ctx.nodes.map((node, i) => {
    const mine = runs.filter((r) => r.node === node);
    const label = i === 0 ? `node ${process.version}` : node;
    return `${label}: ${mine.filter((r) => r.ok).length}/${mine.length}`;
  });
  ctx.log(`matrix ${set.name}: quick starts ran — ${byNode.join('; ')}`);
  return { table: rows, runs: runs.map(({ output: _output, ...r }) => r), newest: NEWEST_TS };
}

/**
 * The quick starts a peer set compiles: all of `sources`, or the set's own list.
 * @param {import('./matrix.mjs').PeerSet} set
 * @param {Record<string, string>} sources fixture → code
 * @returns {Record<string, string>}
 */
export function setSources(set, sources) {
  return Object.fromEntries(
    Object.entries(sources).filter(([f]) => set.fixtures?.includes(f) ?? true),
  );
}

/**
 * Installs a peer set with golem's tarball and writes its projects; resolves to its folder. The
 * suite starts these installs early, side by side, so the network waits overlap.
 * @param {import('./matrix.mjs').PeerSet} set
 * @param {Pick<MatrixContext, 'tmp' | 'tarball' | 'sources' | 'kinds'>} ctx
 */
export function prepareSet(set, ctx) {
  const sources = setSources(set, ctx.sources);
  return createProjects(ctx.tmp, set.name, ctx.tarball, set.peers, sources, ctx.kinds);
}

/**
 * Applies each known limit's fix (compiler options) to the combinations it names and checks
 * that they then compile: the fix the README and the failure name is a fix.
 * @param {import('./matrix.mjs').PeerSet} set
 * @param {string} dir
 * @param {Record<string, string>} sources
 * @param {string[]} versions
 * @param {MatrixContext} ctx
 */
async function verifyFixes(set, dir, sources, versions, ctx) {
  const jobs = KNOWN_LIMITS.filter((limit) => (limit.set ?? 'newest') === set.name).flatMap(
    (limit) =>
      (limit.verify ?? [])
        .filter((v) => ctx.kinds.includes(v.kind) && versions.includes(v.ts))
        .filter(() => limit.fixture in sources)
        .map((v) => async () => {
          const project = `fix-${limit.id}-${v.kind}-${v.ts}`;
          const code = /** @type {string} */ (sources[limit.fixture]);
          writeProject(dir, project, v.kind, v.options, { [limit.fixture]: code });
          const tsc = /** @type {string} */ (ctx.tsc[v.ts]);
          const outcome = await compile(dir, project, v.ts, tsc, [limit.fixture]);
          const errors = Object.values(outcome.errors).flat();
          const what =
            `${limit.id}: ${limit.fixture} in ${v.kind}, TypeScript ${v.ts}, ` +
            `with ${JSON.stringify(v.options)}`;
          if (errors.length > 0)
            ctx.failures.push(`the fix does not work — ${what}:\n    ${lines(errors)}`);
          else ctx.log(`  fix verified — ${what}: compiles`);
        }),
  );
  await pool(ctx.parallel, jobs);
}
