'use strict';
/**
 * Scenario (h) for one adapter and one mode, in a fresh process: what a completed call leaves
 * behind. Starts the loopback server (`adapter-server.js`, a child process, so only the client
 * side is in this heap), builds the adapter from the built dist with its defaults (the 5-minute
 * call timeout left on), warms up, forces GC, makes `calls` calls one after another (each passed
 * the same long-lived caller signal unless `signal` is `none`), forcing GC at checkpoints, and
 * prints one JSON line: heap before and after, the growth, its slope, the abort listeners left on
 * the caller's signal, and the time per call. `fetch` is the reference: a bare fetch, no adapter.
 *
 *   node --expose-gc --no-opt --no-flush-bytecode adapter-memory.js <fetch|openai|azure|anthropic|gemini|bedrock> \
 *     <generate|stream> <calls> [shared|none]
 */
const path = require('node:path');
const { spawn } = require('node:child_process');
const { getEventListeners } = require('node:events');
const { DIST, ROOT } = require('./golem');

const [adapter, mode, callsText, signalKind = 'shared'] = process.argv.slice(2);
const calls = Number(callsText);
// Enough warm-up for undici's pool and the interpreter's caches to settle (one-time, not a leak).
const WARMUP = 2000;
const CHECKPOINTS = 10;
const KEY = 'bench-key-0123456789';

if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
if (!['generate', 'stream'].includes(mode)) throw new Error(`unknown mode ${mode}`);
if (!(calls > 0)) throw new Error(`calls must be a positive number, got ${callsText}`);
if (!['shared', 'none'].includes(signalKind)) throw new Error(`unknown signal ${signalKind}`);

const provider = (name) => require(path.join(DIST, 'src', 'providers', name, 'index.js'));

/**
 * The reference row: a bare `fetch` of the OpenAI-compatible endpoint, body parsed or read, so
 * the table shows what the harness and undici themselves keep.
 */
function bareFetch(url) {
  const post = (stream, signal) =>
    fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'hi' }], stream }),
    });
  return {
    generate: async (_request, options = {}) => {
      const body = await (await post(false, options.signal)).json();
      return { message: body.choices[0].message };
    },
    stream: async (_request, _onDelta, options = {}) => {
      const text = await (await post(true, options.signal)).text();
      return { message: { content: text.includes('"content":"ok"') ? 'ok' : text } };
    },
  };
}

/**
 * A deliberately leaky control (opt-in, `--adapters=control`): the bare fetch plus what a careless
 * adapter does, an `AbortSignal.timeout` of 5 minutes with an abort listener never removed. It
 * shows the harness sees such retention.
 */
function leakyControl(url) {
  const bare = bareFetch(url);
  const leak = () => AbortSignal.timeout(300_000).addEventListener('abort', () => undefined);
  return {
    generate: (...args) => (leak(), bare.generate(...args)),
    stream: (...args) => (leak(), bare.stream(...args)),
  };
}

/** Each adapter pointed at the loopback server, with its default options otherwise. */
const BUILD = {
  fetch: bareFetch,
  control: leakyControl,
  openai: (url) => provider('openai').openai({ model: 'bench', apiKey: KEY, baseURL: `${url}/v1` }),
  azure: (url) =>
    provider('azure').azure({
      endpoint: url,
      deployment: 'bench',
      apiVersion: '2024-10-21',
      apiKey: KEY,
    }),
  anthropic: (url) =>
    provider('anthropic').anthropic({ model: 'bench', apiKey: KEY, baseURL: url }),
  gemini: (url) =>
    provider('gemini').gemini({ model: 'bench', apiKey: KEY, baseURL: `${url}/v1beta` }),
  // The real AWS SDK client (SigV4 signing, event-stream decoding) over HTTP/1.1, dummy keys.
  bedrock: (url) => {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    const { NodeHttpHandler } = require(
      require.resolve('@smithy/node-http-handler', { paths: [ROOT] }),
    );
    return provider('bedrock').bedrock({
      model: 'us.amazon.nova-micro-v1:0',
      region: 'us-east-1',
      endpoint: url,
      credentials: { accessKeyId: 'AKIDBENCH', secretAccessKey: 'bench/secret/NOT+REAL' },
      client: { requestHandler: new NodeHttpHandler() },
    });
  },
};

/**
 * Heap used once it stops shrinking: full collections, each followed by turns of the event loop
 * so finalizers run (Node clears the timer of a collected `AbortSignal.timeout` in one) and what
 * they release is collected by the next round.
 */
async function collect() {
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
  let previous = Infinity;
  for (let round = 0; round < 10; round++) {
    global.gc();
    await turn();
    await turn();
    const used = process.memoryUsage().heapUsed;
    if (previous - used < 16 * 1024) return Math.min(used, previous);
    previous = used;
  }
  return previous;
}

/** Least-squares slope of the heap over the calls, in bytes per 1,000 calls. */
function slope(points) {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.calls, 0) / n;
  const my = points.reduce((s, p) => s + p.heapUsed, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.calls - mx) * (p.heapUsed - my);
    den += (p.calls - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 1000;
}

/** Starts the server child; resolves with its URL and a stop function. */
function startServer() {
  const child = spawn(process.execPath, [path.join(__dirname, 'adapter-server.js')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`adapter-server exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      if (!text.includes('\n')) return;
      const { port } = JSON.parse(text.split('\n')[0]);
      resolve({ url: `http://127.0.0.1:${port}`, stop: () => child.stdin.end() });
    });
  });
}

(async () => {
  const build = BUILD[adapter];
  if (build === undefined) throw new Error(`unknown adapter ${adapter}`);
  const server = await startServer();
  const model = build(server.url);
  const request = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
  const onDelta = () => undefined;
  // One caller signal for every call, as an application's shutdown signal would be.
  const caller = signalKind === 'shared' ? new AbortController().signal : undefined;
  const OPTIONS = caller === undefined ? {} : { signal: caller };
  const call =
    mode === 'stream'
      ? () => model.stream(request, onDelta, OPTIONS)
      : () => model.generate(request, OPTIONS);
  const first = await call();
  if (first.message.content !== 'ok')
    throw new Error(`${adapter} ${mode}: unexpected reply ${JSON.stringify(first.message)}`);
  for (let i = 0; i < WARMUP; i++) await call();
  const before = await collect();
  const points = [{ calls: 0, heapUsed: before }];
  const every = Math.max(1, Math.floor(calls / CHECKPOINTS));
  let spent = 0n;
  for (let i = 1; i <= calls; i++) {
    const start = process.hrtime.bigint();
    await call();
    spent += process.hrtime.bigint() - start;
    if (i % every === 0 || i === calls) points.push({ calls: i, heapUsed: await collect() });
  }
  const after = points[points.length - 1].heapUsed;
  process.stdout.write(
    `${JSON.stringify({
      adapter,
      mode,
      calls,
      warmup: WARMUP,
      before,
      after,
      signal: signalKind,
      growth: after - before,
      // Abort listeners the calls left on the caller's signal (each completed call should remove its own).
      callerListeners: caller === undefined ? undefined : getEventListeners(caller, 'abort').length,
      slopePer1k: slope(points),
      usPerCall: Number(spent) / 1e3 / calls,
      points,
    })}\n`,
  );
  model.destroy?.();
  server.stop();
  // Timers a leaking adapter left behind would keep the process alive for their whole window.
  process.exit(0);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
