#!/usr/bin/env node
// @ts-check
/**
 * `golem init` end to end: builds golem (unless --no-build), packs it, and for each template
 * scaffolds a project with `node bin/golem.js init <tmp>/<t> --template <t> --golem <tarball>
 * --yes`, then runs what its README says — `npm install`, `npm run build`, `npm test`, `npm start`
 * — offline (provider keys removed from the environment). `npm start` of the plain and decorated
 * templates must print the TestModel answer; the nest template's server must answer POST
 * /weather (201 with the Forecast, 400 for a body that does not fit the DTO) and stop on SIGTERM.
 * The installed package's own bin must list `init` too (the compiled command ships).
 *
 *   node scripts/consumer/init-templates.mjs [--templates=plain,decorated,nest] [--no-build] [--keep]
 *
 * Every step is bounded by a timeout; the scratch folder is removed at the end (or on SIGINT /
 * SIGTERM) unless --keep.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mustRun, NPM } from './tools.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ALL = ['plain', 'decorated', 'nest'];
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key = '', value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
for (const key of Object.keys(args))
  if (!['templates', 'no-build', 'keep'].includes(key)) {
    process.stderr.write(`init-templates: unknown option --${key}\n`);
    process.exit(2);
  }
const TEMPLATES = args.templates === undefined ? ALL : args.templates.split(',').filter(Boolean);
for (const template of TEMPLATES)
  if (!ALL.includes(template)) {
    process.stderr.write(`init-templates: unknown template ${template} (${ALL.join(', ')})\n`);
    process.exit(2);
  }

/** The environment of every step: no provider is configured, so the apps run on TestModel. */
const ENV = { ...process.env };
for (const name of [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'AZURE_OPENAI_ENDPOINT',
  'GOLEM_LOCAL_BASE_URL',
])
  delete ENV[name];

const MINUTE = 60_000;
/** What `npm start` prints offline, per template (nest is a server, checked over HTTP). */
const START_OUTPUT = {
  plain: 'output: {"forecast":"Lagos: 31°C"}',
  decorated: 'output: {"city":"Lagos","celsius":31}',
};

const started = Date.now();
const secs = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;
const log = (/** @type {string} */ line) =>
  process.stdout.write(`[${secs(Date.now() - started).padStart(7)}] ${line}\n`);

const tmp = mkdtempSync(join(tmpdir(), 'golem-init-'));
const cleanup = () => {
  if (args.keep === undefined) rmSync(tmp, { recursive: true, force: true });
};
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
  process.once(signal, () => {
    cleanup();
    process.exit(130);
  });

/**
 * Runs a step, logs its time, and returns its stdout.
 * @param {string} label
 * @param {string} command
 * @param {string[]} argv
 * @param {string} cwd
 * @param {number} timeoutMs
 */
async function step(label, command, argv, cwd, timeoutMs) {
  const result = await mustRun(command, argv, { cwd, env: ENV, timeoutMs });
  log(`  ${label}: ${secs(result.ms)}`);
  return result.stdout;
}

/**
 * `npm start` of the nest template: waits for the URL it prints, checks two requests, stops it
 * with SIGTERM (its whole process group: npm, sh and node).
 * @param {string} dir
 */
async function checkNestServer(dir) {
  const t0 = Date.now();
  const child = spawn(NPM, ['start'], {
    cwd: dir,
    env: { ...ENV, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const exited = new Promise((done) => child.once('close', done));
  const stop = async () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const url = await new Promise((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`npm start printed no URL within 3 minutes:\n${output}`)),
        3 * MINUTE,
      );
      const scan = (/** @type {Buffer} */ chunk) => {
        output += chunk;
        const match = /listening on (\S+)/.exec(output);
        if (match !== null) {
          clearTimeout(timer);
          done(match[1]);
        }
      };
      child.stdout.on('data', scan);
      child.stderr.on('data', (chunk) => (output += chunk));
      void exited.then((code) => {
        clearTimeout(timer);
        fail(new Error(`npm start exited (${code}) before listening:\n${output}`));
      });
    });
    const post = async (/** @type {unknown} */ body) => {
      const response = await fetch(`${url}/weather`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(MINUTE),
      });
      return { status: response.status, text: await response.text() };
    };
    const ok = await post({ city: 'Lagos' });
    if (ok.status !== 201 || ok.text !== '{"city":"Lagos","celsius":31}')
      throw new Error(`POST /weather {"city":"Lagos"}: ${ok.status} ${ok.text}`);
    const bad = await post({ town: 'Lagos' });
    if (bad.status !== 400)
      throw new Error(`POST /weather {"town":"Lagos"}: ${bad.status} ${bad.text}`);
    log(`  start (listen, POST 201 and 400): ${secs(Date.now() - t0)}`);
  } finally {
    await stop();
  }
}

/** @param {string} template @param {string} tarball */
async function checkTemplate(template, tarball) {
  const t0 = Date.now();
  const dir = join(tmp, template);
  log(`${template}: ${dir}`);
  await step(
    'golem init',
    process.execPath,
    [
      join(ROOT, 'bin', 'golem.js'),
      'init',
      dir,
      '--template',
      template,
      '--golem',
      tarball,
      '--yes',
    ],
    ROOT,
    MINUTE,
  );
  await step(
    'npm install',
    NPM,
    ['install', '--no-audit', '--no-fund', '--loglevel=error'],
    dir,
    10 * MINUTE,
  );
  const help = await step(
    'installed bin lists init',
    process.execPath,
    [join(dir, 'node_modules', 'golem', 'bin', 'golem.js'), 'init', '--help'],
    dir,
    MINUTE,
  );
  if (!help.includes('usage: golem init')) throw new Error(`golem init --help printed:\n${help}`);
  await step('npm run build', NPM, ['run', 'build'], dir, 3 * MINUTE);
  await step('npm test', NPM, ['test'], dir, 3 * MINUTE);
  if (template === 'nest') await checkNestServer(dir);
  else {
    const out = await step('npm start', NPM, ['start'], dir, 3 * MINUTE);
    const expected = START_OUTPUT[/** @type {'plain' | 'decorated'} */ (template)];
    if (!out.includes(expected))
      throw new Error(`npm start did not print ${JSON.stringify(expected)}:\n${out}`);
  }
  log(`${template}: ok in ${secs(Date.now() - t0)}`);
}

async function main() {
  log(`golem init templates (${TEMPLATES.join(', ')}) in ${tmp}`);
  if (args['no-build'] === undefined)
    await step('npm run build', NPM, ['run', 'build'], ROOT, 10 * MINUTE);
  const packed = await mustRun(NPM, ['pack', '--json', '--pack-destination', tmp], {
    cwd: ROOT,
    env: ENV,
    timeoutMs: 5 * MINUTE,
  });
  const tarball = join(tmp, JSON.parse(packed.stdout)[0].filename);
  log(`packed ${tarball}`);
  /** @type {string[]} */
  const failures = [];
  for (const template of TEMPLATES) {
    try {
      await checkTemplate(template, tarball);
    } catch (error) {
      failures.push(template);
      log(`${template}: FAILED\n${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failures.length > 0) throw new Error(`templates failed: ${failures.join(', ')}`);
  log('init templates: ok');
}

main().then(
  () => cleanup(),
  (error) => {
    process.stderr.write(`init-templates: ${error instanceof Error ? error.message : error}\n`);
    cleanup();
    process.exitCode = 1;
  },
);
