#!/usr/bin/env node
// @ts-check
/**
 * golem beyond Node (after `npm run build`): packs the repository, installs the tarball into a
 * scratch project and runs the same suite (fixtures/suite.mjs) on Node — the reference — and on
 * Bun, Deno and Cloudflare's workerd:
 *
 *   (a) the README's plain quick start on TestModel: its first ```ts block that imports only core
 *       entry points, its body wrapped in `quickStart()` (what it logs is compared as JSON);
 *   (b) provider round trips against a fake HTTP server this script serves on 127.0.0.1:
 *       golem/providers/openai (chat completions, a run and a streamed run) and
 *       golem/providers/anthropic (a run); then a durable run (paused for an approval in
 *       golem/stores/memory, listed, resumed) and golem/ui's SSE answer to a chat request;
 *   (c) the README's decorated quick start (golem/decorators, golem/container and their peers).
 *       Bun and Deno compile it themselves (tsconfig.json / deno.json with legacy decorators and
 *       metadata); Node and the Worker run tsc's output of it (esbuild drops decorator metadata).
 *
 * Each runtime's result must equal Node's, and the fake must have seen each runtime's requests.
 * Bun and Deno run the fixtures and the README's TypeScript directly (Deno with no permission
 * but the fake's address for (a) and (b)); workerd runs one Worker bundled by esbuild (as wrangler bundles one) with
 * `nodejs_compat`, whose outbound fetches may reach loopback only, and is requested once.
 *
 *   node scripts/runtimes/run.mjs [--runtimes=bun,deno,workerd] [--stages=plain,decorated]
 *        [--tarball=FILE] [--keep]
 *
 * GOLEM_WORKERS_DATE and GOLEM_WORKERS_FLAGS (comma-separated) override the Worker's
 * compatibility date and flags (default 2025-09-15, nodejs_compat) to try other settings.
 *
 * The runtimes are the official binaries from the npm registry (@oven/bun-*, @deno/*,
 * @cloudflare/workerd-*), installed into a cache outside the checkout: GOLEM_CI_RUNTIMES_DIR,
 * default ~/.cache/golem-ci/runtimes (first run ~15 s of download, then nothing). Every process
 * is bounded by GOLEM_RUNTIME_TIMEOUT seconds (default 120); the scratch folder and every
 * process started here are removed or stopped at the end, failing or not.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { NPM } from '../consumer/tools.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = join(ROOT, 'scripts', 'runtimes', 'fixtures');

/** Pinned versions; each is the version of the platform package (the binary itself). */
const VERSIONS = { bun: '1.4.5', deno: '2.9.6', workerd: '1.20261123.1' };
/** The Workers settings the Worker runs with (README/guide: docs/guides/runtimes.md). */
const WORKERS_COMPAT = {
  date: process.env.GOLEM_WORKERS_DATE ?? '2025-09-15',
  flags: (process.env.GOLEM_WORKERS_FLAGS ?? 'nodejs_compat').split(',').filter((f) => f !== ''),
};
/** Entry points the core quick start may import (the block taken from the README). */
const CORE = new Set([
  'golem',
  'golem/testing',
  'golem/ui',
  'golem/providers/openai',
  'golem/providers/anthropic',
]);

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key = '', value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key, value];
  }),
);
const RUNTIMES = (args.runtimes ?? 'bun,deno,workerd').split(',').filter((r) => r !== '');
const STAGES = (args.stages ?? 'plain,decorated').split(',').filter((s) => s !== '');
const TIMEOUT_MS = Number(process.env.GOLEM_RUNTIME_TIMEOUT ?? 120) * 1000;
const CACHE = resolve(
  process.env.GOLEM_CI_RUNTIMES_DIR ?? join(homedir(), '.cache', 'golem-ci', 'runtimes'),
);

const started = Date.now();
const log = (/** @type {string} */ line) =>
  process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);

/** The platform packages of this machine, and where each keeps its binary. */
function binaries() {
  const os = process.platform;
  const arch = process.arch;
  const bun = {
    'linux-x64': 'linux-x64',
    'linux-arm64': 'linux-aarch64',
    'darwin-x64': 'darwin-x64',
    'darwin-arm64': 'darwin-aarch64',
  }[`${os}-${arch}`];
  const deno = {
    'linux-x64': 'linux-x64-glibc',
    'linux-arm64': 'linux-arm64-glibc',
    'darwin-x64': 'darwin-x64',
    'darwin-arm64': 'darwin-arm64',
  }[`${os}-${arch}`];
  const workerd = {
    'linux-x64': 'linux-64',
    'linux-arm64': 'linux-arm64',
    'darwin-x64': 'darwin-64',
    'darwin-arm64': 'darwin-arm64',
  }[`${os}-${arch}`];
  if (bun === undefined || deno === undefined || workerd === undefined)
    throw new Error(`runtimes: no pinned binaries for ${os}-${arch}`);
  const modules = join(CACHE, 'node_modules');
  return {
    bun: {
      spec: `@oven/bun-${bun}@${VERSIONS.bun}`,
      bin: join(modules, '@oven', `bun-${bun}`, 'bin', 'bun'),
      version: VERSIONS.bun,
    },
    deno: {
      spec: `@deno/${deno}@${VERSIONS.deno}`,
      bin: join(modules, '@deno', deno, 'deno'),
      version: VERSIONS.deno,
    },
    workerd: {
      spec: `@cloudflare/workerd-${workerd}@${VERSIONS.workerd}`,
      bin: join(modules, '@cloudflare', `workerd-${workerd}`, 'bin', 'workerd'),
      // `workerd --version` prints the date part of the package version.
      version: `${VERSIONS.workerd.slice(2, 6)}-${VERSIONS.workerd.slice(6, 8)}-${VERSIONS.workerd.slice(8, 10)}`,
    },
  };
}

/** Installs the pinned binaries into the cache unless they are there; returns their paths. */
async function installRuntimes() {
  const all = binaries();
  const versionOf = async (/** @type {string} */ bin) => {
    const result = await exec(bin, ['--version'], {
      cwd: CACHE,
      timeoutMs: 30_000,
      check: false,
    }).catch(() => undefined);
    return result?.code === 0 ? result.stdout.trim() : '';
  };
  writeFileSync(join(CACHE, 'package.json'), '{ "private": true }\n');
  const stale = [];
  for (const [name, binary] of Object.entries(all))
    if (!(await versionOf(binary.bin)).includes(binary.version)) stale.push(name);
  if (stale.length > 0) {
    log(`installing ${stale.join(', ')} into ${CACHE}`);
    // Every binary together: npm prunes what the command omits.
    await exec(
      NPM,
      [
        'install',
        '--prefix',
        CACHE,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...Object.values(all).map((b) => b.spec),
      ],
      { cwd: CACHE, timeoutMs: 600_000 },
    );
  }
  for (const [name, binary] of Object.entries(all)) {
    const version = await versionOf(binary.bin);
    if (!version.includes(binary.version))
      throw new Error(
        `runtimes: ${binary.bin} prints "${version}", not ${binary.version} (${name})`,
      );
  }
  return all;
}

/**
 * A README quick start as a module exporting `quickStart()`: the first ```ts block whose import
 * specifiers satisfy `accept`; its imports hoisted, the rest its body, and a closing
 * `void main();` (or `main();`) awaited.
 */
function readmeModule(
  /** @type {string} */ what,
  /** @type {(specifiers: string[]) => boolean} */ accept,
) {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const importLine = /^import\s[^;]*?['"]([^'"]+)['"];?[ \t]*$/gm;
  for (const [, code = ''] of readme.matchAll(/^```ts\n([\s\S]*?)^```/gm)) {
    const specifiers = [...code.matchAll(importLine)].map((m) => String(m[1]));
    if (specifiers.length === 0 || !accept(specifiers)) continue;
    const imports = [...code.matchAll(importLine)].map((m) => m[0]).join('\n');
    const body = code
      .replace(importLine, '')
      .replace(/^(?:void\s+)?main\(\)(?:\.catch\([^\n]*\))?;?[ \t]*$/m, 'await main();');
    return `// The README's ${what}, run by scripts/runtimes/run.mjs.\n${imports}\n\nexport async function quickStart(): Promise<void> {\n${body}}\n`;
  }
  throw new Error(`runtimes: README.md has no \`\`\`ts block for the ${what}`);
}

/** A free loopback port (for workerd's socket). */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        resolvePort(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });
}

/**
 * The fake provider server: OpenAI chat completions (JSON and SSE) at /v1/chat/completions,
 * Anthropic messages at /v1/messages. Records what each request asked for.
 */
async function fakeServer() {
  /** @type {Array<{ path: string; model: unknown; stream: boolean; auth: string | undefined; prompt: unknown }>} */
  const seen = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      /** @type {any} */
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400).end('not JSON');
        return;
      }
      const last = Array.isArray(body.messages) ? body.messages.at(-1) : undefined;
      const prompt = typeof last?.content === 'string' ? last.content : last?.content?.[0]?.text;
      seen.push({
        path: String(req.url),
        model: body.model,
        stream: body.stream === true,
        auth: String(req.headers.authorization ?? req.headers['x-api-key'] ?? ''),
        prompt,
      });
      if (req.url === '/v1/chat/completions' && body.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 1,
            model: body.model,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: 'Hello from the fake server.' },
                finish_reason: 'stop',
              },
            ],
            usage: { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 },
          }),
        );
      } else if (req.url === '/v1/chat/completions') {
        const chunk = (/** @type {object} */ fields) =>
          `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1, model: body.model, ...fields })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          chunk({
            choices: [
              { index: 0, delta: { role: 'assistant', content: 'Hello' }, finish_reason: null },
            ],
          }),
        );
        res.write(
          chunk({
            choices: [{ index: 0, delta: { content: ' from the stream.' }, finish_reason: null }],
          }),
        );
        res.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
        res.write(
          chunk({
            choices: [],
            usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
          }),
        );
        res.end('data: [DONE]\n\n');
      } else if (req.url === '/v1/messages') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: body.model,
            content: [{ type: 'text', text: 'Hello from the fake Claude.' }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 9, output_tokens: 6 },
          }),
        );
      } else res.writeHead(404).end('unknown path');
    });
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', () => ready(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    seen,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(done)),
  };
}

/** What the fake must have seen from one run of the suite, in order. */
const EXPECTED_REQUESTS = [
  {
    path: '/v1/chat/completions',
    model: 'fake-chat',
    stream: false,
    auth: 'Bearer sk-fake',
    prompt: 'Say hello.',
  },
  {
    path: '/v1/chat/completions',
    model: 'fake-chat',
    stream: true,
    auth: 'Bearer sk-fake',
    prompt: 'Say hello, streaming.',
  },
  {
    path: '/v1/messages',
    model: 'fake-claude',
    stream: false,
    auth: 'ak-fake',
    prompt: 'Say hello to Claude.',
  },
];

/** Checks that hold whatever the README's quick start logs. */
function checkResult(/** @type {any} */ result) {
  const problems = [];
  const expect = (
    /** @type {string} */ what,
    /** @type {unknown} */ actual,
    /** @type {unknown} */ wanted,
  ) => {
    if (!isDeepStrictEqual(actual, wanted))
      problems.push(`${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(wanted)}`);
  };
  if (!Array.isArray(result.quickstart) || result.quickstart.length === 0)
    problems.push('the quick start logged nothing');
  expect('openai output', result.openai?.output, 'Hello from the fake server.');
  expect('openai usage', result.openai?.usage, { inputTokens: 11, outputTokens: 5 });
  expect('openai stream', result.openaiStream, {
    deltas: ['Hello', ' from the stream.'],
    output: 'Hello from the stream.',
    usage: { inputTokens: 12, outputTokens: 4 },
  });
  expect('anthropic output', result.anthropic?.output, 'Hello from the fake Claude.');
  expect('anthropic usage', result.anthropic?.usage, { inputTokens: 9, outputTokens: 6 });
  expect('durable run', result.durable, { paused: ['pay-1'], listed: true, output: 'Paid.' });
  expect('ui status', result.ui?.status, 200);
  expect('ui content type', result.ui?.contentType, 'text/event-stream');
  if (result.ui?.types?.[0] !== 'start' || result.ui?.types?.at(-1) !== 'finish')
    problems.push(`ui chunks: ${JSON.stringify(result.ui?.types)}`);
  return problems;
}

/** The decorated quick start logged something (what exactly is compared with Node's). */
function checkDecorated(/** @type {any} */ result) {
  return Array.isArray(result.decorated) && result.decorated.length > 0
    ? []
    : ['the decorated quick start logged nothing'];
}

/** `RESULT <json>` from a process's output. */
function parseResult(/** @type {string} */ stdout) {
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  return line === undefined ? undefined : JSON.parse(line.slice('RESULT '.length));
}

/** Runs `command` in `cwd` and returns the suite's result (throws with the output otherwise). */
async function suiteProcess(
  /** @type {string} */ command,
  /** @type {string[]} */ argv,
  /** @type {string} */ cwd,
  /** @type {NodeJS.ProcessEnv} */ env = process.env,
) {
  const { stdout, ms } = await exec(command, argv, { cwd, env });
  const parsed = parseResult(stdout);
  if (parsed === undefined)
    throw new Error(`${command} ${argv.join(' ')}: no RESULT line:\n${stdout}`);
  return { result: parsed, ms };
}

/**
 * Runs `command` (tracked, killed after `timeoutMs`); with `check`, throws with its output
 * unless it exits 0.
 * @param {string} command
 * @param {string[]} argv
 * @param {{ cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; check?: boolean }} options
 */
async function exec(
  command,
  argv,
  { cwd, env = process.env, timeoutMs = TIMEOUT_MS, check = true },
) {
  const started = Date.now();
  const child = track(spawn(command, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  /** @type {number | null} */
  const code = await new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (exit) => done(exit));
  }).finally(() => clearTimeout(timer));
  if (check && code !== 0)
    throw new Error(
      `${command} ${argv.join(' ')} ${code === null ? `timed out (${timeoutMs} ms)` : `exited ${code}`}:\n${stdout}\n${stderr}`.trimEnd(),
    );
  return { code, stdout, stderr, ms: Date.now() - started };
}

/** Processes started here and still running: stopped too if this script is stopped. */
const live = new Set();
/** @template {import('node:child_process').ChildProcess} T @param {T} child @returns {T} */
function track(child) {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** esbuild, from the repository's devDependencies. */
async function esbuild() {
  return /** @type {typeof import('esbuild')} */ (
    await import(join(ROOT, 'node_modules', 'esbuild', 'lib', 'main.js'))
  );
}

/**
 * Bundles a Worker as wrangler does for `nodejs_compat`: node: built-ins stay imports of the
 * runtime's modules, including those golem's CommonJS `require`s (an ES module has no `require`).
 */
async function bundleWorker(
  /** @type {string} */ entry,
  /** @type {string} */ outfile,
  /** @type {import('esbuild').Plugin[]} */ plugins = [],
) {
  const { build } = await esbuild();
  /** @type {import('esbuild').Plugin} */
  const nodeBuiltins = {
    name: 'node-builtins',
    setup(b) {
      b.onResolve({ filter: /^node:/ }, (a) =>
        a.kind === 'require-call'
          ? { path: a.path, namespace: 'node-require' }
          : { path: a.path, external: true },
      );
      b.onLoad({ filter: /.*/, namespace: 'node-require' }, (a) => ({
        contents: `export * from ${JSON.stringify(a.path)};`,
        loader: 'js',
      }));
    },
  };
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    outfile,
    plugins: [...plugins, nodeBuiltins],
    logLevel: 'error',
  });
  log(
    `  worker bundle ${(statSync(outfile).size / 1024).toFixed(0)} KiB (compatibility ${WORKERS_COMPAT.date}, ${WORKERS_COMPAT.flags.join(', ')})`,
  );
  return outfile;
}

/** Starts workerd on the bundle `bundle` (in `dir`), requests it once, stops it; returns its JSON. */
async function runWorkerd(
  /** @type {string} */ bin,
  /** @type {string} */ dir,
  /** @type {string} */ bundle,
  /** @type {string} */ baseURL,
) {
  const port = await freePort();
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .golem),
    # Outbound fetches may reach loopback only (the fake server); the default allows only public addresses.
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const golem :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "${bundle}") ],
  compatibilityDate = "${WORKERS_COMPAT.date}",
  compatibilityFlags = ${JSON.stringify(WORKERS_COMPAT.flags)},
  bindings = [ (name = "BASE_URL", text = "${baseURL}") ],
  globalOutbound = "loopback",
);
`;
  writeFileSync(join(dir, 'config.capnp'), config);
  const child = track(
    spawn(bin, ['serve', 'config.capnp', '--verbose'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise((done) => child.once('exit', (code) => done(code)));
  const started = Date.now();
  try {
    // workerd listens once the Worker's top level has run: retry connecting until the deadline.
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`workerd exited (${child.exitCode}):\n${output}`);
      if (Date.now() - started > TIMEOUT_MS)
        throw new Error(`workerd: no answer within ${TIMEOUT_MS} ms:\n${output}`);
      const response = await fetch(`http://127.0.0.1:${port}/`, {
        signal: AbortSignal.timeout(TIMEOUT_MS),
      }).catch(async (error) => {
        if (error?.cause?.code === 'ECONNREFUSED') return undefined;
        // A Worker that fails to start makes workerd exit with the connection open: say why.
        await Promise.race([exited, new Promise((next) => setTimeout(next, 1000))]);
        throw new Error(`requesting workerd: ${error?.cause?.message ?? error}\n${output}`);
      });
      if (response === undefined) {
        await Promise.race([exited, new Promise((next) => setTimeout(next, 100))]);
        continue;
      }
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`workerd answered ${response.status}:\n${text}\n${output}`);
      return { result: JSON.parse(text), ms: Date.now() - started };
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * tsc's output of `dir/decorated.ts` (decorator metadata kept: esbuild drops it), and an esbuild
 * plugin that bundles it in place of the TypeScript file: what Node and the Worker run.
 */
async function transpiledDecorated(/** @type {string} */ dir) {
  const ts = /** @type {typeof import('typescript')} */ (
    (await import(join(ROOT, 'node_modules', 'typescript', 'lib', 'typescript.js'))).default
  );
  const { outputText } = ts.transpileModule(readFileSync(join(dir, 'decorated.ts'), 'utf8'), {
    fileName: 'decorated.ts',
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
    },
  });
  const js = join(dir, 'decorated.tsc.js');
  writeFileSync(js, outputText);
  /** @type {import('esbuild').Plugin} */
  const plugin = {
    name: 'decorated-from-tsc',
    setup(b) {
      b.onResolve({ filter: /^\.\/decorated\.ts$/ }, () => ({ path: js }));
    },
  };
  return plugin;
}

/** The environment of the runs: no provider key or URL, so the quick starts stay on TestModel. */
function offlineEnv() {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/API_KEY|BASE_URL|^GOLEM_|^AWS_|^AZURE_/.test(key),
    ),
  );
}

/** The peers of the decorated quick start, at the versions the repository tests. */
function decoratorPeers() {
  const dev = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies;
  return [
    'class-validator',
    'class-transformer',
    'class-validator-jsonschema',
    'reflect-metadata',
    'inversify',
  ].map((name) => `${name}@${dev[name]}`);
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'golem-runtimes-'));
  const cleanup = () =>
    args.keep === 'true'
      ? log(`kept ${tmp}`)
      : rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      for (const child of live) child.kill('SIGKILL');
      cleanup();
      process.exit(130);
    });
  /** @type {Awaited<ReturnType<typeof fakeServer>> | undefined} */
  let fake;
  const failures = [];
  let passed = 0;
  try {
    mkdirSync(CACHE, { recursive: true });
    const installing = installRuntimes();
    installing.catch(() => undefined);

    let tarball = args.tarball;
    if (tarball === undefined) {
      const packed = await exec(NPM, ['pack', '--pack-destination', tmp, '--loglevel=error'], {
        cwd: ROOT,
        timeoutMs: 300_000,
      });
      tarball = join(tmp, packed.stdout.trim().split('\n').at(-1) ?? '');
    }
    const project = join(tmp, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'golem-runtimes', private: true, type: 'module' }, null, 2),
    );
    // Legacy decorators with metadata, as the README's tsconfig: Bun reads tsconfig.json, Deno deno.json.
    const decorators = { experimentalDecorators: true, emitDecoratorMetadata: true };
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            ...decorators,
            useDefineForClassFields: false,
            target: 'ES2022',
            module: 'esnext',
            moduleResolution: 'bundler',
            strict: true,
          },
        },
        null,
        2,
      ),
    );
    writeFileSync(
      join(project, 'deno.json'),
      JSON.stringify({ compilerOptions: decorators }, null, 2),
    );
    await exec(
      NPM,
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        '--loglevel=error',
        resolve(tarball),
      ].concat(STAGES.includes('decorated') ? decoratorPeers() : []),
      { cwd: project, timeoutMs: 600_000 },
    );
    for (const file of readdirSync(FIXTURES))
      copyFileSync(join(FIXTURES, file), join(project, file));
    writeFileSync(
      join(project, 'quickstart.ts'),
      readmeModule('plain quick start', (specifiers) => specifiers.every((s) => CORE.has(s))),
    );
    if (STAGES.includes('decorated')) {
      writeFileSync(
        join(project, 'decorated.ts'),
        readmeModule('decorated quick start (the container)', (specifiers) =>
          specifiers.includes('golem/container'),
        ),
      );
    }
    log(`scratch project ${project} (golem from ${tarball})`);

    fake = await fakeServer();
    const server = fake;
    const runtimes = await installing;
    log(
      `runtimes: bun ${VERSIONS.bun}, deno ${VERSIONS.deno}, workerd ${VERSIONS.workerd} (${CACHE})`,
    );
    const env = offlineEnv();
    const denoEnv = { ...env, DENO_DIR: join(CACHE, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1' };

    // Node, the reference: the same files, TypeScript stripped by esbuild, golem left to Node.
    const { build } = await esbuild();
    /** @type {import('esbuild').BuildOptions} */
    const forNode = {
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      logLevel: 'error',
    };
    await build({
      ...forNode,
      entryPoints: [join(project, 'main.mjs')],
      outfile: join(project, 'node.mjs'),
    });
    const fromTsc = STAGES.includes('decorated') ? [await transpiledDecorated(project)] : [];
    if (fromTsc.length > 0)
      await build({
        ...forNode,
        entryPoints: [join(project, 'decorated-main.mjs')],
        outfile: join(project, 'decorated-node.mjs'),
        plugins: fromTsc,
      });
    /** @type {Record<string, Record<string, () => Promise<{ result: any; ms: number }>>>} */
    const stages = {
      plain: {
        node: () => suiteProcess(process.execPath, ['node.mjs', server.url], project, env),
        bun: () => suiteProcess(runtimes.bun.bin, ['main.mjs', server.url], project, env),
        // No permission but the fake's address: the core reads no file, environment or clock of the system.
        deno: () =>
          suiteProcess(
            runtimes.deno.bin,
            ['run', '--no-prompt', `--allow-net=127.0.0.1:${server.port}`, 'main.mjs', server.url],
            project,
            denoEnv,
          ),
        workerd: async () => {
          await bundleWorker(join(project, 'worker.mjs'), join(project, 'worker.js'));
          return runWorkerd(runtimes.workerd.bin, project, 'worker.js', server.url);
        },
      },
      decorated: {
        node: () => suiteProcess(process.execPath, ['decorated-node.mjs'], project, env),
        bun: () => suiteProcess(runtimes.bun.bin, ['decorated-main.mjs'], project, env),
        // The README's block reads process.env (detectDefaultModel).
        deno: () =>
          suiteProcess(
            runtimes.deno.bin,
            ['run', '--no-prompt', '--allow-env', 'decorated-main.mjs'],
            project,
            denoEnv,
          ),
        workerd: async () => {
          await bundleWorker(
            join(project, 'decorated-worker.mjs'),
            join(project, 'decorated-worker.js'),
            fromTsc,
          );
          return runWorkerd(runtimes.workerd.bin, project, 'decorated-worker.js', server.url);
        },
      },
    };
    for (const stage of STAGES) {
      const runners = stages[stage];
      if (runners === undefined)
        throw new Error(`runtimes: unknown stage ${stage} (plain, decorated)`);
      /** @type {any} */
      let reference;
      for (const name of ['node', ...RUNTIMES]) {
        const runner = runners[name];
        if (runner === undefined)
          throw new Error(`runtimes: unknown runtime ${name} (bun, deno, workerd)`);
        server.seen.length = 0;
        try {
          const { result, ms } = await runner();
          const problems = stage === 'plain' ? checkResult(result) : checkDecorated(result);
          const requests = stage === 'plain' ? EXPECTED_REQUESTS : [];
          if (!isDeepStrictEqual(server.seen, requests))
            problems.push(`the fake saw ${JSON.stringify(server.seen)}`);
          if (reference === undefined) reference = result;
          else if (!isDeepStrictEqual(result, reference))
            problems.push(
              `result differs from Node's:\n  ${JSON.stringify(result)}\n  ${JSON.stringify(reference)}`,
            );
          if (problems.length > 0) throw new Error(problems.join('\n'));
          passed += 1;
          const logged = JSON.stringify(stage === 'plain' ? result.quickstart : result.decorated);
          log(
            `ok ${stage} on ${name} (${ms} ms): logged ${logged}${stage === 'plain' ? '; openai, anthropic, durable, ui round trips' : ''}`,
          );
        } catch (error) {
          failures.push(`${stage} on ${name}`);
          log(
            `FAIL ${stage} on ${name}: ${error instanceof Error ? error.message : String(error)}`,
          );
          if (name === 'node') break;
        }
      }
    }
  } finally {
    await fake?.close();
    cleanup();
  }
  console.log(`${passed} passed, ${failures.length} failed`);
  if (failures.length > 0) {
    console.log(`failed: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
