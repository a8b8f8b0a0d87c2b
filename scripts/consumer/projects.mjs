// @ts-check
/**
 * Fixture projects: one install of golem's tarball plus a peer set, and beneath it one project
 * folder per module kind (package.json "type", tsconfig.json, the quick starts in src/). Each
 * kind is compiled by every TypeScript version into out/<version>/ and the output is run.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_OPTIONS, FIXTURES, KINDS, TYPESCRIPT } from './matrix.mjs';
import { codeBlockUnder, npmInstall, parseDiagnostics, run } from './tools.mjs';

const HERE = new URL('.', import.meta.url).pathname;

/** The alias a TypeScript version is installed under in the tools folder (`ts-5.9.3`). */
const alias = (/** @type {string} */ version) => `ts-${version}`;

/**
 * Installs every TypeScript version once, side by side, into `<tmp>/tools`; returns the path
 * of each version's `tsc`.
 * @param {string} tmp
 * @returns {Promise<Record<string, string>>}
 */
export async function installTypeScripts(tmp) {
  const dir = join(tmp, 'tools');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "tools", "private": true }\n');
  await npmInstall(
    dir,
    TYPESCRIPT.map((v) => `${alias(v)}@npm:typescript@${v}`),
  );
  return Object.fromEntries(
    TYPESCRIPT.map((v) => [v, join(dir, 'node_modules', alias(v), 'bin', 'tsc')]),
  );
}

/**
 * The quick-start sources: README blocks for those that name a heading, files otherwise.
 * @param {string} root the repository
 * @param {string[]} fixtures
 * @returns {Record<string, string>}
 */
export function fixtureSources(root, fixtures) {
  return Object.fromEntries(
    fixtures.map((name) => {
      const spec = FIXTURES[name];
      if (spec === undefined) throw new Error(`unknown fixture ${name}`);
      const code =
        spec.readme === undefined
          ? readFileSync(join(HERE, 'fixtures', `${name}.ts`), 'utf8')
          : codeBlockUnder(join(root, 'README.md'), spec.readme);
      return [name, code];
    }),
  );
}

/**
 * Installs `tarball` and `peers` into `<tmp>/<name>` and writes one project per kind in it.
 * @param {string} tmp
 * @param {string} name
 * @param {string} tarball
 * @param {Record<string, string>} peers package → exact version
 * @param {Record<string, string>} sources fixture → code
 * @param {string[]} kinds
 */
export async function createProjects(tmp, name, tarball, peers, sources, kinds) {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `{ "name": "${name}", "private": true }\n`);
  await npmInstall(dir, [tarball, ...Object.entries(peers).map(([p, v]) => `${p}@${v}`)]);
  for (const kind of kinds) writeProject(dir, kind, kind, {}, sources);
  return dir;
}

/**
 * Writes the project `project` (a folder of `setDir`) for the module kind `kind`, with `extra`
 * compiler options over the kind's, and the given sources.
 * @param {string} setDir
 * @param {string} project
 * @param {string} kind
 * @param {Record<string, unknown>} extra
 * @param {Record<string, string>} sources fixture → code
 */
export function writeProject(setDir, project, kind, extra, sources) {
  const spec = KINDS[kind];
  if (spec === undefined) throw new Error(`unknown module kind ${kind}`);
  const dir = join(setDir, project);
  mkdirSync(join(dir, 'src'), { recursive: true });
  const pkg = { name: project, private: true, type: spec.type };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const options = { ...BASE_OPTIONS, ...spec.options, ...extra };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions: options, include: ['src'] }, null, 2)}\n`,
  );
  for (const [fixture, code] of Object.entries(sources))
    writeFileSync(join(dir, 'src', `${fixture}.ts`), code);
}

/**
 * Which fixture a diagnostic belongs to: its own file, or the golem entry point (and that entry
 * point's peer) whose declarations it is in; `*` for anything else (it fails every fixture).
 * @param {string} file
 * @param {string[]} fixtures
 */
export function fixtureOf(file, fixtures) {
  const own = /(?:^|\/)src\/([\w-]+)\.ts$/.exec(file)?.[1];
  if (own !== undefined && fixtures.includes(own)) return own;
  if (/golem\/dist\/container\/|node_modules\/(inversify|@inversifyjs)\//.test(file))
    return 'container';
  if (/golem\/dist\/nestjs\/|node_modules\/(@nestjs|rxjs)\//.test(file)) return 'nestjs';
  return '*';
}

/**
 * @typedef {object} CompileOutcome
 * @property {string} kind
 * @property {string} ts
 * @property {Record<string, import('./tools.mjs').Diagnostic[]>} errors fixture → diagnostics
 * @property {number} ms
 */

/**
 * Compiles the project of `kind` with one TypeScript into out/<ts>/ (emitting even on errors, so
 * the output can still be run) and groups the errors by fixture.
 * @param {string} setDir
 * @param {string} kind
 * @param {string} ts version
 * @param {string} tsc path
 * @param {string[]} fixtures
 * @returns {Promise<CompileOutcome>}
 */
export async function compile(setDir, kind, ts, tsc, fixtures) {
  const project = join(setDir, kind); // a kind's project, or any project folder written above
  const result = await run(
    process.execPath,
    [tsc, '-p', 'tsconfig.json', '--outDir', join('out', ts), '--pretty', 'false'],
    { cwd: project, timeoutMs: 300_000 },
  );
  if (result.timedOut) throw new Error(`tsc ${ts} on ${kind} timed out`);
  /** @type {Record<string, import('./tools.mjs').Diagnostic[]>} */
  const errors = {};
  for (const diagnostic of parseDiagnostics(result.stdout)) {
    const fixture = fixtureOf(diagnostic.file, fixtures);
    (errors[fixture] ??= []).push(diagnostic);
  }
  if (result.code !== 0 && Object.keys(errors).length === 0)
    errors['*'] = [{ file: '', code: `exit ${result.code}`, text: result.stdout + result.stderr }];
  return { kind, ts, errors, ms: result.ms };
}

/** An environment without provider keys, so quick starts run offline on the test model. */
export function offlineEnv() {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SystemRoot'])
    if (process.env[key] !== undefined) env[key] = process.env[key];
  return env;
}

/**
 * Runs one compiled quick start with `node` (a binary path); fails on a non-zero exit, on
 * nothing printed, or when the fixture's expected line is missing.
 * @param {string} node
 * @param {string} setDir
 * @param {string} kind
 * @param {string} ts
 * @param {string} fixture
 */
export async function runFixture(node, setDir, kind, ts, fixture) {
  const cwd = join(setDir, kind);
  const result = await run(node, [join('out', ts, `${fixture}.js`)], {
    cwd,
    env: offlineEnv(),
    timeoutMs: 60_000,
  });
  const expect = FIXTURES[fixture]?.expect;
  const ok =
    result.code === 0 &&
    result.stdout.trim() !== '' &&
    (expect === undefined || expect.test(result.stdout));
  return {
    ok,
    kind,
    ts,
    fixture,
    node,
    ms: result.ms,
    output: `${result.stdout}${result.stderr}`.trim(),
  };
}
