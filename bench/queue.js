'use strict';
/**
 * Distributed runs (issue 16): what golem/queue costs over BullMQ itself.
 *
 * (q1) Throughput with 1, 2 and 4 worker processes: N runs of a one-turn agent on an instant fake
 *      model through `runQueue` → `runWorker` (each worker with its own memory store, so the figure
 *      is the queue's cost; `--store=sqlite` shares one SQLite file as a real pool would), against
 *      N bare BullMQ jobs whose processor does nothing, same concurrency, same processes. Runs/s and
 *      ms per run (wall time / N); "overhead" is golem's ms/run minus the agent's own ms/run
 *      (measured in-process), divided by the bare job's ms/run — the target is ≤ 2. Jobs are all
 *      queued first, then the workers are started and timed; the producer's cost per job (one
 *      `enqueue` vs one BullMQ `add`, 200 in flight) is printed separately. The same comparison in
 *      CPU time — the worker processes' plus the Redis server's (`INFO cpu`), per run — which a
 *      loaded machine disturbs far less than wall time; Redis's figure counts every client's
 *      work, so point GOLEM_BENCH_REDIS_URL at a private `redis-server` for a clean one.
 * (q2) Latency: enqueue → first delta seen by a subscriber in another process (the producer, the
 *      worker and the subscriber are three processes), median and p95 over `--latency-runs`.
 *
 *   node bench/queue.js [--runs=2000] [--concurrency=10] [--workers=1,2,4] [--rounds=3]
 *       [--latency-runs=50 (0: skip)] [--store=memory|sqlite] [--only=bare|golem]
 *       [--bare=plain|golem-options]
 *
 * Loads the built dist (run `npm run build` first, or GOLEM_BENCH_DIST=/path/to/dist). Redis:
 * GOLEM_BENCH_REDIS_URL, else redis://127.0.0.1:6379. Every key lives under a fresh prefix,
 * deleted at the end.
 */
const { fork } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DIST, GOLEM, ROOT } = require('./golem.js');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const REDIS_URL = process.env.GOLEM_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const fromRoot = (id) => require(require.resolve(id, { paths: [ROOT] }));
/**
 * `--bare=plain` (default): the bare job is `queue.add(name, data)`, as the issue defines it.
 * `--bare=golem-options`: it carries the job options golem/queue sets on every run (its own id,
 * retries with backoff, bounded retention), so the difference left is golem's own work.
 */
const BARE_OPTIONS =
  args.bare === 'golem-options'
    ? {
        attempts: 5,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 86_400, count: 10_000 },
        removeOnFail: { age: 604_800 },
      }
    : undefined;
const { Queue, Worker, QueueEvents } = fromRoot('bullmq');
const { Redis } = fromRoot('ioredis');
const golem = require(GOLEM);
const queueLib = require(path.join(DIST, 'src', 'queue', 'index.js'));
const { memoryStore } = require(path.join(DIST, 'src', 'stores', 'memory', 'index.js'));
const { sqliteStore } = require(path.join(DIST, 'src', 'stores', 'sqlite', 'index.js'));
const testing = require(path.join(DIST, 'src', 'testing', 'index.js'));

/** The instant fake model: one turn, a text answer (streamed as three deltas when streaming). */
function agent() {
  const model = new testing.StreamFunctionModel(async (_request, emit) => {
    await emit({ content: 'o' });
    await emit({ content: 'k' });
    return testing.textResponse('ok');
  });
  return new golem.Agent({ model, name: 'bench' });
}

// ---- child roles ---------------------------------------------------------------------------

async function childWorker() {
  const { kind, prefix, concurrency, store: storeKind, dbPath } = args;
  const c = Number(concurrency);
  let start;
  let close;
  if (kind === 'bare') {
    // Like a golem worker, whose `start()` is timed: the connection is open before "go", the
    // BullMQ worker is created after it.
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    let worker;
    start = () => {
      worker = new Worker('bare', async () => null, { connection, prefix, concurrency: c });
    };
    close = async () => {
      await worker.close();
      connection.disconnect();
    };
  } else {
    const store = storeKind === 'sqlite' ? sqliteStore({ path: dbPath }) : memoryStore();
    const options = { connection: REDIS_URL, prefix, store, agents: [agent()], concurrency: c };
    if (args.autostart === 'true') {
      const worker = await queueLib.runWorker(options);
      start = () => undefined;
      close = async () => {
        await worker.close();
        await store.close();
      };
    } else {
      const worker = new queueLib.RunWorker(options);
      start = () => void worker.start();
      close = async () => {
        await worker.close();
        await store.close();
      };
    }
  }
  process.send({ ready: true });
  let cpu0;
  process.on('message', async (message) => {
    if (message.go) {
      cpu0 = process.cpuUsage();
      start();
    }
    if (message.cpu) {
      const { user, system } = process.cpuUsage(cpu0);
      process.send({ cpuUs: user + system });
    }
    if (message.close) {
      await close();
      process.exit(0);
    }
  });
}

async function childSubscriber() {
  const queue = queueLib.runQueue({
    connection: REDIS_URL,
    prefix: args.prefix,
    store: memoryStore(),
  });
  process.send({ ready: true });
  process.on('message', async (message) => {
    if (message.close) {
      await queue.close();
      process.exit(0);
    }
    const iterator = queue.events(message.runId, { waitForStart: true })[Symbol.asyncIterator]();
    // Listening: the first `next` subscribes before reading the backlog.
    const first = iterator.next();
    process.send({ subscribed: message.runId });
    let entry = await first;
    while (!entry.done && entry.value.event.type !== 'delta') entry = await iterator.next();
    const at = performance.timeOrigin + performance.now();
    await iterator.return?.();
    process.send({ delta: message.runId, at });
  });
}

// ---- parent ---------------------------------------------------------------------------------

function spawn(role, extra) {
  const argv = [`--role=${role}`, ...Object.entries(extra).map(([k, v]) => `--${k}=${v}`)];
  // GOLEM_BENCH_CHILD_ARGS: extra node flags for the children, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`.
  const execArgv = (process.env.GOLEM_BENCH_CHILD_ARGS ?? '').split(' ').filter(Boolean);
  const child = fork(__filename, argv, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv,
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${role} exited (${code})`)));
  });
}

/** The CPU time (µs) a worker child spent since "go". */
function cpuOf(child) {
  return new Promise((resolve) => {
    child.on('message', function on(m) {
      if (m.cpuUs === undefined) return;
      child.off('message', on);
      resolve(m.cpuUs);
    });
    child.send({ cpu: true });
  });
}

/** The Redis server's CPU time so far, µs (every client's work: use a private Redis for a clean figure). */
async function redisCpu(redis) {
  const info = await redis.info('cpu');
  const get = (name) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? NaN);
  return (get('used_cpu_user') + get('used_cpu_sys')) * 1e6;
}

function stop(child) {
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.send({ close: true });
  });
}

/** Deletes every key under `prefix`. */
async function cleanup(redis, prefix) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/**
 * `runs` jobs of `kind` through `workers` processes: the producer's ms per job (one call per job,
 * 200 in flight — `enqueue` for golem, `add` for bare BullMQ), then, once every job is queued,
 * the workers' ms per job (wall time from "go" to the last completion / runs).
 */
async function throughput(kind, workers, runs, concurrency, storeKind) {
  const prefix = `golem-bench-${randomUUID().slice(0, 8)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-bench-queue-'));
  const dbPath = path.join(dir, 'runs.db');
  if (kind === 'golem' && storeKind === 'sqlite') await sqliteStore({ path: dbPath }).migrate();
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const enqueueStarted = performance.now();
  if (kind === 'bare') {
    const queue = new Queue('bare', { connection, prefix });
    for (let i = 0; i < runs; i += 200)
      await Promise.all(
        Array.from({ length: Math.min(200, runs - i) }, (_, j) =>
          queue.add(
            'x',
            { i: i + j },
            BARE_OPTIONS && { ...BARE_OPTIONS, jobId: `start.${randomUUID()}` },
          ),
        ),
      );
    await queue.close();
  } else {
    const queue = queueLib.runQueue({ connection: REDIS_URL, prefix, store: memoryStore() });
    for (let i = 0; i < runs; i += 200)
      await Promise.all(
        Array.from({ length: Math.min(200, runs - i) }, () =>
          queue.enqueue('bench', 'hi', { stream: false }),
        ),
      );
    await queue.close();
  }
  const enqueueMs = (performance.now() - enqueueStarted) / runs;
  const children = await Promise.all(
    Array.from({ length: workers }, () =>
      spawn('worker', { kind, prefix, concurrency, store: storeKind, dbPath }),
    ),
  );
  const eventsConnection = connection.duplicate();
  const events = new QueueEvents(kind === 'bare' ? 'bare' : 'golem', {
    connection: eventsConnection,
    prefix,
  });
  await events.waitUntilReady();
  let done = 0;
  let finish;
  const all = new Promise((resolve) => (finish = resolve));
  events.on('completed', () => {
    if (++done === runs) finish();
  });
  const redis0 = await redisCpu(connection);
  const started = performance.now();
  for (const child of children) child.send({ go: true });
  await all;
  const processMs = (performance.now() - started) / runs;
  const redisMs = (await redisCpu(connection)) - redis0;
  const workerCpu = await Promise.all(children.map(cpuOf));
  const cpuMs = (workerCpu.reduce((a, b) => a + b, 0) + redisMs) / runs / 1000;
  await events.close();
  eventsConnection.disconnect(); // BullMQ leaves a connection it was given open
  await Promise.all(children.map(stop));
  await cleanup(connection, prefix);
  connection.disconnect();
  fs.rmSync(dir, { recursive: true, force: true });
  return { enqueueMs, processMs, cpuMs };
}

/** ms per run of the same agent without a queue (in-process, memory store, one at a time × concurrency). */
async function agentAlone(runs, concurrency) {
  const a = agent();
  const store = memoryStore();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < runs; i += concurrency)
    await Promise.all(
      Array.from({ length: Math.min(concurrency, runs - i) }, () => a.run('hi', { store })),
    );
  const { user, system } = process.cpuUsage(cpu0);
  return { ms: (performance.now() - started) / runs, cpuMs: (user + system) / runs / 1000 };
}

async function latency(samples) {
  const prefix = `golem-bench-${randomUUID().slice(0, 8)}`;
  const worker = await spawn('worker', {
    kind: 'golem',
    prefix,
    concurrency: 10,
    store: 'memory',
    dbPath: '',
    autostart: true,
  });
  const subscriber = await spawn('subscriber', { prefix });
  const queue = queueLib.runQueue({ connection: REDIS_URL, prefix, store: memoryStore() });
  const waitFor = (key, runId) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m[key] === runId) {
          subscriber.off('message', on);
          resolve(m);
        }
      };
      subscriber.on('message', on);
    });
  const out = [];
  for (let i = 0; i < samples + 5; i++) {
    const runId = randomUUID();
    const subscribed = waitFor('subscribed', runId);
    subscriber.send({ runId });
    await subscribed;
    const seen = waitFor('delta', runId);
    const t0 = performance.timeOrigin + performance.now();
    await queue.enqueue('bench', 'hi', { runId });
    const { at } = await seen;
    if (i >= 5) out.push(at - t0); // the first five warm up
  }
  await queue.close();
  await stop(subscriber);
  await stop(worker);
  const redis = new Redis(REDIS_URL);
  await cleanup(redis, prefix);
  redis.disconnect();
  out.sort((a, b) => a - b);
  return { median: out[Math.floor(out.length / 2)], p95: out[Math.floor(out.length * 0.95)] };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function parent() {
  const runs = Number(args.runs ?? 2000);
  const concurrency = Number(args.concurrency ?? 10);
  const rounds = Number(args.rounds ?? 3);
  const storeKind = args.store ?? 'memory';
  const workerCounts = (args.workers ?? '1,2,4').split(',').map(Number);
  console.log(
    `golem/queue bench: ${runs} runs × ${rounds} rounds, concurrency ${concurrency} per worker, ${storeKind} store, ${os.cpus().length} cores`,
  );
  const alone = [];
  for (let r = 0; r < rounds; r++) alone.push(await agentAlone(runs, concurrency));
  const agentMs = median(alone.map((a) => a.ms));
  const agentCpu = median(alone.map((a) => a.cpuMs));
  console.log(
    `agent alone (in-process, memory store): ${agentMs.toFixed(3)} ms/run, CPU ${agentCpu.toFixed(3)} ms/run`,
  );
  const bareEnqueue = [];
  const golemEnqueue = [];
  console.log(
    'workers | bare BullMQ jobs/s (ms/job) | golem/queue runs/s (ms/run) | ratio | (golem − agent) / bare | CPU ms/job: bare, golem (workers + Redis) | CPU ratio | CPU (golem − agent) / bare',
  );
  for (const workers of workerCounts) {
    const bare = [];
    const queued = [];
    const bareCpu = [];
    const golemCpu = [];
    for (let r = 0; r < rounds; r++) {
      const b =
        args.only === 'golem'
          ? { processMs: NaN, enqueueMs: NaN, cpuMs: NaN }
          : await throughput('bare', workers, runs, concurrency, storeKind);
      const g =
        args.only === 'bare'
          ? { processMs: NaN, enqueueMs: NaN, cpuMs: NaN }
          : await throughput('golem', workers, runs, concurrency, storeKind);
      bare.push(b.processMs);
      queued.push(g.processMs);
      bareCpu.push(b.cpuMs);
      golemCpu.push(g.cpuMs);
      bareEnqueue.push(b.enqueueMs);
      golemEnqueue.push(g.enqueueMs);
    }
    const b = median(bare);
    const g = median(queued);
    const bc = median(bareCpu);
    const gc = median(golemCpu);
    console.log(
      `${String(workers).padStart(7)} | ${(1000 / b).toFixed(0).padStart(6)} (${b.toFixed(3)}) | ${(1000 / g).toFixed(0).padStart(6)} (${g.toFixed(3)}) | ${(g / b).toFixed(2)} | ${((g - agentMs) / b).toFixed(2)} | ${bc.toFixed(3)}, ${gc.toFixed(3)} | ${(gc / bc).toFixed(2)} | ${((gc - agentCpu) / bc).toFixed(2)}`,
    );
  }
  const be = median(bareEnqueue);
  const ge = median(golemEnqueue);
  console.log(
    `producer, one call per job (200 in flight): bare add ${be.toFixed(3)} ms/job, golem enqueue ${ge.toFixed(3)} ms/run (${(ge / be).toFixed(2)}×)`,
  );
  const latencyRuns = Number(args['latency-runs'] ?? 50);
  if (latencyRuns === 0) return;
  const lat = await latency(latencyRuns);
  console.log(
    `enqueue → first delta in another process: median ${lat.median.toFixed(2)} ms, p95 ${lat.p95.toFixed(2)} ms`,
  );
}

const role = args.role;
const main = role === 'worker' ? childWorker : role === 'subscriber' ? childSubscriber : parent;
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
