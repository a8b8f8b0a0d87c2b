'use strict';
/**
 * Scenario (h), adapter memory: what completed calls leave behind in each provider adapter.
 * For every adapter and mode, a fresh process (`adapter-memory.js`) makes `calls` calls to a
 * loopback server with the adapter's defaults (the 5-minute call timeout on), and the heap growth
 * after forced GC is compared with the target: ≤ 0.5 MB per adapter. A completed call should
 * retain nothing — no timer, no abort listener, no `AbortSignal.timeout` waiting out its window.
 * The `fetch` row is the reference: a bare `fetch` of the same server in the same harness.
 *
 *   node --expose-gc adapters.js [--calls=10000] [--adapters=fetch,openai,azure,…]
 *                                [--modes=generate,stream] [--signal=shared|none]
 *
 * Every call gets the same long-lived caller `AbortSignal` (an application's shutdown signal, say)
 * unless `--signal=none`; the table also counts the abort listeners left on it.
 *
 * `run.js` runs it as scenario (h) (`--adapter-calls=N`); `npm run bench:adapters` at the root
 * builds Golem and runs this file alone (it needs no peer framework installed).
 */
const path = require('node:path');
const { spawn } = require('node:child_process');
const golem = require('./golem');

const ADAPTERS = ['fetch', 'openai', 'azure', 'anthropic', 'gemini', 'bedrock'];
const MODES = ['generate', 'stream'];
/** Heap growth allowed after the calls, per adapter and mode. */
const TARGET_BYTES = 0.5 * 2 ** 20;
const PARALLEL = 2;

const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);

/** Runs one adapter × mode in a fresh process; resolves with its JSON line or `{ error }`. */
function runOne(adapter, mode, calls, signal) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        // Optimized code compiled during warm-up and discarded later, and start-up bytecode
        // flushed once it has aged, each move the heap by ±0.4 MB between runs; neither is
        // something a call retains. Without them the noise is about ±0.1 MB.
        '--no-opt',
        '--no-flush-bytecode',
        path.join(__dirname, 'adapter-memory.js'),
        adapter,
        mode,
        String(calls),
        signal,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('exit', (code) => {
      log(`  (h) ${adapter} ${mode}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
      if (code !== 0) return resolve({ error: `exit ${code}` });
      try {
        return resolve(JSON.parse(text.trim().split('\n').pop()));
      } catch (error) {
        return resolve({ error: `unreadable output: ${error.message}` });
      }
    });
  });
}

/**
 * Runs scenario (h): every adapter × mode, `parallel` processes at a time. Returns
 * `{ calls, targetBytes, runs: { [adapter]: { [mode]: result } } }`.
 */
async function run({
  calls = 10_000,
  adapters = ADAPTERS,
  modes = MODES,
  signal = 'shared',
  parallel = PARALLEL,
} = {}) {
  const runs = Object.fromEntries(adapters.map((a) => [a, {}]));
  const queue = adapters.flatMap((adapter) => modes.map((mode) => [adapter, mode]));
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (queue.length > 0) {
        const [adapter, mode] = queue.shift();
        runs[adapter][mode] = await runOne(adapter, mode, calls, signal);
      }
    }),
  );
  return { calls, signal, targetBytes: TARGET_BYTES, runs };
}

const LABELS = { fetch: 'fetch (reference, no adapter)', control: 'control (leaks on purpose)' };
const mb = (bytes) => (bytes / 2 ** 20).toFixed(2).replace(/^-0\.00$/, '0.00');

/** The markdown table of a {@link run} result (slopes and checkpoints stay in the JSON). */
function table(result) {
  const modes = MODES.filter((m) => Object.values(result.runs).some((r) => r[m] !== undefined));
  const shared = result.signal === 'shared';
  const header = [
    `(h) adapter memory: ${result.calls.toLocaleString('en-US')} calls per cell`,
    ...modes.map((m) => `${m}: heap growth after GC, MB`),
    ...(shared ? modes.map((m) => `${m}: abort listeners left on the caller's signal`) : []),
    'target',
  ];
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 || i === header.length - 1 ? '---' : '--:')).join('|')}|`,
  ];
  for (const [adapter, byMode] of Object.entries(result.runs)) {
    const reference = adapter === 'fetch' || adapter === 'control';
    const cell = (mode, pick) => {
      const r = byMode[mode];
      if (r === undefined) return '—';
      return r.error === undefined ? pick(r) : `n/a (${r.error})`;
    };
    const growth = (r) =>
      reference ? mb(r.growth) : `${mb(r.growth)} ${r.growth <= result.targetBytes ? '✓' : '✗'}`;
    const cells = [
      ...modes.map((m) => cell(m, growth)),
      ...(shared ? modes.map((m) => cell(m, (r) => String(r.callerListeners))) : []),
      reference ? '—' : `≤ ${mb(result.targetBytes)} MB, 0 listeners`,
    ];
    lines.push(`| ${LABELS[adapter] ?? adapter} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

module.exports = { ADAPTERS, MODES, TARGET_BYTES, run, table };

if (require.main === module) {
  const args = Object.fromEntries(
    process.argv.slice(2).map((arg) => {
      const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
      return [key, value];
    }),
  );
  if (!golem.builtStatus().core) {
    console.error(`no built Golem at ${golem.GOLEM}: run npm run build at the root`);
    process.exit(1);
  }
  const options = {
    calls: Number(args.calls ?? 10_000),
    adapters: args.adapters?.split(',') ?? ADAPTERS,
    modes: args.modes?.split(',') ?? MODES,
    signal: args.signal ?? 'shared',
  };
  log(`(h) adapter memory: ${options.calls} calls per adapter and mode…`);
  run(options)
    .then((result) => {
      process.stdout.write(`\n${table(result)}\n`);
    })
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
