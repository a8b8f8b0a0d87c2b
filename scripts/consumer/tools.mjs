// @ts-check
/**
 * Helpers of the consumer suite: running commands with a deadline, npm installs, a small worker
 * pool, disk usage, README code blocks and TypeScript diagnostics.
 */
import { spawn } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * @typedef {object} RunResult
 * @property {number | null} code
 * @property {string} stdout
 * @property {string} stderr
 * @property {number} ms
 * @property {boolean} timedOut
 */

/**
 * Runs `command args` in `cwd`, capturing output; kills it after `timeoutMs`.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }} options
 * @returns {Promise<RunResult>}
 */
export function run(command, args, { cwd, env = process.env, timeoutMs = 300_000 }) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}

/**
 * Runs and throws with the output when the command fails.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }} options
 */
export async function mustRun(command, args, options) {
  const result = await run(command, args, options);
  if (result.code !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed in ${options.cwd}` +
        `${result.timedOut ? ' (timed out)' : ` (exit ${result.code})`}:\n` +
        `${result.stdout}\n${result.stderr}`.trim(),
    );
  return result;
}

/**
 * `npm install` of exact specs into `dir` (which has a package.json), quietly.
 * @param {string} dir
 * @param {string[]} specs
 */
export function npmInstall(dir, specs) {
  return mustRun(
    NPM,
    ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', ...specs],
    { cwd: dir, timeoutMs: 600_000 },
  );
}

/**
 * Runs `jobs` with at most `limit` at a time, in order of start; resolves to their results.
 * @template T
 * @param {number} limit
 * @param {(() => Promise<T>)[]} jobs
 * @returns {Promise<T[]>}
 */
export async function pool(limit, jobs) {
  /** @type {T[]} */
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await /** @type {() => Promise<T>} */ (jobs[index])();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

/**
 * Disk usage of a folder as `du` counts it (allocated blocks) and as file sizes add up.
 * @param {string} dir
 * @returns {{ disk: number; apparent: number; packages: number }}
 */
export function diskUsage(dir) {
  let disk = 0;
  let apparent = 0;
  let packages = 0;
  const walk = (/** @type {string} */ path) => {
    const stat = lstatSync(path);
    disk += stat.blocks * 512;
    if (!stat.isDirectory()) {
      apparent += stat.size;
      return;
    }
    for (const name of readdirSync(path)) {
      if (name === 'package.json' && path.includes('node_modules')) packages++;
      walk(join(path, name));
    }
  };
  walk(dir);
  return { disk, apparent, packages };
}

/**
 * The first ```ts block after the heading line `heading` in a Markdown file.
 * @param {string} file
 * @param {string} heading e.g. `## Quick start`
 */
export function codeBlockUnder(file, heading) {
  const text = readFileSync(file, 'utf8');
  const at = text.split('\n').findIndex((line) => line.trim() === heading);
  if (at < 0)
    throw new Error(`${file}: no heading "${heading}" (the consumer suite runs its code)`);
  const rest = text
    .split('\n')
    .slice(at + 1)
    .join('\n');
  const match = /^```ts\n([\s\S]*?)^```/m.exec(rest);
  if (match === null) throw new Error(`${file}: no \`\`\`ts block under "${heading}"`);
  return /** @type {string} */ (match[1]);
}

/**
 * @typedef {object} Diagnostic
 * @property {string} file  path as tsc printed it (relative to the project)
 * @property {string} code  e.g. `TS2307`
 * @property {string} text  the whole first line
 */

/**
 * Parses `tsc --pretty false` output into diagnostics (first lines only).
 * @param {string} output
 * @returns {Diagnostic[]}
 */
export function parseDiagnostics(output) {
  /** @type {Diagnostic[]} */
  const out = [];
  for (const line of output.split('\n')) {
    const match = /^(.*?)\(\d+,\d+\): error (TS\d+): /.exec(line);
    if (match !== null)
      out.push({
        file: /** @type {string} */ (match[1]),
        code: /** @type {string} */ (match[2]),
        text: line,
      });
    else if (/^error (TS\d+): /.test(line))
      out.push({ file: '', code: line.slice(6, 12), text: line });
  }
  return out;
}

/** Megabytes with one decimal. */
export const mb = (/** @type {number} */ bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
