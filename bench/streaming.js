'use strict';
/**
 * Streaming overhead per delta (issue 35): "≤ 0.1 µs per delta over a callback loop, on
 * `runStream`, `golem/ui` and the queue feed alike".
 *
 * One run is the stream-text turn of `bench/README.md` with `--deltas` text deltas ("tok " each)
 * from an instant fake streaming model that awaits the consumer's callback once per fresh delta
 * (the shape of `frameworks/golem-model.js`'s `streamingModel('text')`, with the delta count made
 * a parameter: `scenario.js` fixes it at 2,000, so the framework modules are mirrored here rather
 * than reused). Variants (`--variants=` picks some):
 *
 * - `loop` — the hand-written callback loop of `frameworks/loop.js` (`runStreamText`): the
 *   messages, one `model.stream(request, callback)` per turn, a sink counting characters;
 * - `loop-for-await` — the same loop, its fragments read with `for await` through a careful
 *   hand-written async iterator (`PlainChannel`: a slot, a promise per value, made resolved when
 *   one is ready): what reading a stream with `for await` instead of a callback costs per value
 *   on this Node, with no framework at all — not a target, the reference for the `runStream` and
 *   `ui` rows, which are read that way;
 * - `runStream` — golem `agent.runStream(prompt)` read with `for await`, the same agent as
 *   `frameworks/golem-zod.js` (instructions, a zod `add` tool);
 * - `runStream-onDelta` — the same run read by its `onDelta` callback;
 * - `ui` — `toUIMessageStream(agent.runStream(prompt))` from `golem/ui` (dist/src/ui/index.js)
 *   read to the end with `for await`, counting the `text-delta` chunks' characters;
 * - `queue-run` — `queue-feed` (below) for a job that does not stream (`options.stream: false`,
 *   the model's `generate` answers the same text at once): what a queued run costs with the same
 *   output and no deltas — it records that output (the store, the job's value, the `model_end`
 *   and `completed` feed events) once per character, whether it streams or not;
 * - `queue-feed` — the worker side of `golem/queue`'s live feed: what `RunWorker` does with a job,
 *   minus BullMQ. Each run is a `start` job handed to `executeDelivery` (dist/src/queue/execute.js,
 *   the function `RunWorker.start` gives BullMQ's consumer) with the executor `RunWorker`'s
 *   constructor builds: a `FeedPublisher` (feed-publisher.js) over the REAL `RedisFeed`
 *   (redis-feed.js) on a `connectRedis` connection whose writes a `WriteCoalescer` holds per turn,
 *   a `RedisControl`, `ActiveRuns`, `resolveLimits()`, the agent through `registryMap`, and a
 *   memory run store (fresh every block). So each run parses the job, reads the store, sends
 *   `started` and waits for its reply (`begin`), runs `agent.runStream` with the feed observer,
 *   pushes every delta from the run's `onDelta` (execute.js: `pushDelta`, merging text), the
 *   run events through `feedRunEvent`, and ends with `completed`. One difference: the publisher
 *   is built with `orderedWithJobs: false`, so `end` waits for the last append's reply (the
 *   worker's `true` lets BullMQ's completion, sent next on the same connection, do that wait);
 *   the delta path is the same. The feed port is wrapped to count appends and events per run.
 * - `queue-stream` (only when named in `--variants`) — `queue-feed` with the deltas counted
 *   instead of published (the publisher's `pushDelta` replaced): the same streamed run in the
 *   worker, its feed given the run's events and ending but no delta. Not a target: it splits
 *   queue-feed's cost per delta into the streamed run in the worker (queue-stream over queue-run)
 *   and the publishing (queue-feed over queue-stream: merging the fragments, the merged text's
 *   JSON and its write to Redis). Taken across processes, the split is within the machine's
 *   noise (bench/RESULTS.md, issue 35).
 *   Redis: GOLEM_BENCH_REDIS_URL, else redis://127.0.0.1:6379; keys under a fresh prefix, each
 *   block's deleted after it (untimed), the whole prefix at the end. Unreachable: n/a.
 *
 *   cd bench && node --expose-gc streaming.js [--deltas=2000] [--short=200] [--runs=300] [--warmup=500]
 *       [--block=10] [--rounds=5] [--variants=loop,loop-for-await,runStream,runStream-onDelta,ui,queue-feed,queue-run]
 *       (and queue-stream, named)
 *       [--json=path]
 *
 * Every variant lives in ONE child process (this file forked with `--child=<variant>`): it checks
 * one run's result, warms up `--warmup` runs (the children one after another), then for each of
 * `--rounds` rounds — variants in an order rotated by the round, one at a time — forces a GC, runs
 * a tenth of the warm-up again untimed (a full GC drops optimized code; see bench/RESULTS.md), and
 * times `--runs` runs in blocks of `--block`: each block is one sample of wall µs and CPU µs
 * (`process.cpuUsage`, the child's threads) per run. The table gives the medians over the pooled
 * blocks. Overhead per delta = (variant − loop) / deltas, from the CPU medians (the queue feed's
 * wall time also waits for the Redis server) and, for reference, from wall time: a run's fixed
 * cost (its start, result, and for the queue feed the job, the store and the feed's round trips)
 * is spread over its deltas. So every variant also runs at `--short` deltas (default a tenth, in
 * a child of its own, `--runs` and `--block` scaled up alike, interleaved in the same rounds):
 * the cost per delta at the margin = ((variant − loop) at `--deltas` − (variant − loop) at
 * `--short`) / (`--deltas` − `--short`), and the fixed cost per run over the loop = (variant −
 * loop) at `--short` − that × `--short`. The verdicts are on the margin (what one more delta
 * costs); the spread figure is printed beside them. For the queue feed the margin is also taken
 * over `queue-run` (its recording of the output, longer by 4 characters per delta) and over the
 * loop's own margin: queue-feed − queue-run − loop, the streaming's cost per delta.
 * GOLEM_BENCH_CHILD_ARGS adds node flags to the children, e.g.
 * `GOLEM_BENCH_CHILD_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' node --expose-gc streaming.js
 * --variants=loop,queue-feed --rounds=1`, then `node profile/cpuprofile-top.js <file> 15`.
 * Loads the built dist (run `npm run build` first, or GOLEM_BENCH_DIST=/path/to/dist).
 */
const { fork } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DIST, GOLEM, ROOT } = require('./golem.js');
const S = require('./scenario');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const DELTAS = Number(args.deltas ?? 2000);
// The second run length, for the cost per delta at the margin (0: none). A child gets it as --deltas.
const SHORT = Number(args.short ?? Math.round(DELTAS / 10));
const RUNS = Number(args.runs ?? 300);
const WARMUP = Number(args.warmup ?? 500);
const BLOCK = Math.max(1, Number(args.block ?? 10));
const ROUNDS = Number(args.rounds ?? 5);
const ALL = [
  'loop',
  'loop-for-await',
  'runStream',
  'runStream-onDelta',
  'ui',
  'queue-feed',
  'queue-run',
];
/** Variants that are not targets: the baseline, and what lies under the targets. */
const NOT_TARGETS = new Set(['loop', 'loop-for-await', 'queue-stream', 'queue-run']);
const VARIANTS = args.variants === undefined ? ALL : args.variants.split(',');
const REDIS_URL = process.env.GOLEM_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TARGET_US = 0.1;

const TOKEN = 'tok ';
const TEXT = TOKEN.repeat(DELTAS);
const USAGE = () => ({ inputTokens: 10, outputTokens: 5 });
const fromRoot = (id) => require(require.resolve(id, { paths: [ROOT] }));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `streamingModel('text')` of frameworks/golem-model.js with DELTAS deltas. */
const textModel = {
  name: 'bench-fake-stream-text',
  // What a run that does not stream is answered (queue-run): the same text, at once.
  async generate() {
    return { message: { role: 'assistant', content: TEXT }, usage: USAGE(), finishReason: 'stop' };
  },
  async stream(_request, onDelta) {
    for (let i = 0; i < DELTAS; i++) await onDelta({ content: TOKEN });
    return { message: { role: 'assistant', content: TEXT }, usage: USAGE(), finishReason: 'stop' };
  },
};

function check(variant, output, received) {
  if (output !== TEXT) throw new Error(`${variant}: output of ${String(output).length} characters`);
  if (received !== TEXT.length) throw new Error(`${variant}: ${received} characters streamed`);
}

// ---- the variants (each returns { run, check, afterBlock?, extra?, close? }) ------------------

function loopVariant() {
  const { z } = require('zod');
  const specs = [
    { name: 'add', description: S.ADD_DESCRIPTION, schema: z.toJSONSchema(S.addArgsSchema(z)) },
  ];
  const run = async () => {
    const sink = S.makeSink();
    const messages = [
      { role: 'system', content: S.SYSTEM },
      { role: 'user', content: S.PROMPT_A },
    ];
    const forward = (delta) => {
      if (delta.content !== undefined) sink.push(delta.content);
    };
    for (let i = 0; i < 10; i++) {
      const response = await textModel.stream({ messages, tools: specs }, forward);
      messages.push(response.message);
      const calls = response.message.toolCalls;
      if (calls === undefined || calls.length === 0)
        return { output: response.message.content ?? '', received: sink.received };
      throw new Error('the stream-text turn calls no tool');
    }
    throw new Error('turn limit reached');
  };
  return { run };
}

/**
 * A hand-written async iterator over a producer, written with care but with no framework: a
 * value made while the reader waits answers its read at once; one made while the reader is busy
 * waits in a slot (a reader one value behind the producer, the usual case), more in an array; a
 * waiting read's promise is made with one executor for the channel. (An earlier reference
 * drained a plain array queue and emptied it with `length = 0` after each value: V8 then drops
 * the array's backing store and the next push allocates a new one, ~0.045 µs per value on the
 * issue-35 machine — a cost of that channel, not of `for await`.)
 */
class PlainChannel {
  constructor() {
    this.slot = undefined;
    this.held = false;
    this.rest = [];
    this.head = 0;
    this.waiting = undefined;
    this.ended = false;
    this.wait = (resolve) => {
      this.waiting = resolve;
    };
  }

  push(value) {
    const resolve = this.waiting;
    if (resolve !== undefined) {
      this.waiting = undefined;
      resolve({ value, done: false });
    } else if (!this.held && this.head === this.rest.length) {
      this.slot = value;
      this.held = true;
    } else this.rest.push(value);
  }

  end() {
    this.ended = true;
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.({ value: undefined, done: true });
  }

  next() {
    if (this.held) {
      const value = this.slot;
      this.slot = undefined;
      this.held = false;
      return Promise.resolve({ value, done: false });
    }
    if (this.head < this.rest.length) {
      const value = this.rest[this.head];
      this.rest[this.head++] = undefined;
      if (this.head === this.rest.length) {
        this.rest = [];
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise(this.wait);
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

function loopForAwaitVariant() {
  const { z } = require('zod');
  const specs = [
    { name: 'add', description: S.ADD_DESCRIPTION, schema: z.toJSONSchema(S.addArgsSchema(z)) },
  ];
  const turns = async (channel) => {
    const messages = [
      { role: 'system', content: S.SYSTEM },
      { role: 'user', content: S.PROMPT_A },
    ];
    const forward = (delta) => {
      if (delta.content !== undefined) channel.push(delta.content);
    };
    try {
      for (let i = 0; i < 10; i++) {
        const response = await textModel.stream({ messages, tools: specs }, forward);
        messages.push(response.message);
        const calls = response.message.toolCalls;
        if (calls === undefined || calls.length === 0) return response.message.content ?? '';
        throw new Error('the stream-text turn calls no tool');
      }
      throw new Error('turn limit reached');
    } finally {
      channel.end();
    }
  };
  const run = async () => {
    const sink = S.makeSink();
    const channel = new PlainChannel();
    const output = turns(channel);
    for await (const text of channel) sink.push(text);
    return { output: await output, received: sink.received };
  };
  return { run };
}

/** The agent of frameworks/golem-zod.js over the text model. */
function golemAgent() {
  const { Agent, defineTool } = require(GOLEM);
  const { z } = require('zod');
  return new Agent({
    name: 'bench',
    model: textModel,
    instructions: S.SYSTEM,
    tools: [
      defineTool({
        name: 'add',
        description: S.ADD_DESCRIPTION,
        args: S.addArgsSchema(z),
        execute: S.add,
      }),
    ],
  });
}

function runStreamVariant() {
  const agent = golemAgent();
  const run = async () => {
    const sink = S.makeSink();
    const stream = agent.runStream(S.PROMPT_A);
    for await (const delta of stream) if (delta.content !== undefined) sink.push(delta.content);
    const result = await stream.result;
    return { output: result.output, received: sink.received };
  };
  return { run };
}

function onDeltaVariant() {
  const agent = golemAgent();
  const run = async () => {
    const sink = S.makeSink();
    const onDelta = (delta) => {
      if (delta.content !== undefined) sink.push(delta.content);
    };
    const result = await agent.runStream(S.PROMPT_A, { onDelta }).result;
    return { output: result.output, received: sink.received };
  };
  return { run };
}

function uiVariant() {
  const agent = golemAgent();
  const { toUIMessageStream } = require(path.join(DIST, 'src', 'ui', 'index.js'));
  const run = async () => {
    const sink = S.makeSink();
    const stream = agent.runStream(S.PROMPT_A);
    let finished = false;
    for await (const chunk of toUIMessageStream(stream)) {
      if (chunk.type === 'text-delta') sink.push(chunk.delta);
      else if (chunk.type === 'finish') finished = true;
    }
    if (!finished) throw new Error('ui: no finish chunk');
    const result = await stream.result;
    return { output: result.output, received: sink.received };
  };
  return { run };
}

/**
 * The queue feed's worker side (`feed`), the same queued run streamed with its deltas kept from
 * the feed (`stream`), or not streamed (`run`).
 */
async function queueVariant(mode) {
  const streamed = mode !== 'run';
  const name = `queue-${mode}`;
  const q = (file) => require(path.join(DIST, 'src', 'queue', `${file}.js`));
  const { executeDelivery } = q('execute');
  const { FeedPublisher } = q('feed-publisher');
  const { RedisFeed } = q('redis-feed');
  const { WriteCoalescer } = q('write-coalescer');
  const { RedisControl } = q('redis-control');
  const { SharedSubscriber } = q('subscriber');
  const { ActiveRuns } = q('active-runs');
  const { registryMap } = q('registry');
  const { resolveLimits, jobIdOf, JOB_VERSION } = q('job');
  const { QueueKeys, connectRedis, closeRedis } = q('redis');
  const { memoryStore } = require(path.join(DIST, 'src', 'stores', 'memory', 'index.js'));
  const { Redis } = fromRoot('ioredis');

  const errors = [];
  const onError = (error) => errors.push(error);
  const keys = new QueueKeys(args.prefix, 'golem');
  // As RunWorker's constructor: one connection, its writes held per turn, the feed over it.
  const bull = connectRedis(REDIS_URL, onError, 'golem-worker');
  const subscriber = new SharedSubscriber(() =>
    connectRedis(REDIS_URL, onError, 'golem-worker-sub'),
  );
  const coalescer = new WriteCoalescer(bull);
  const redisFeed = new RedisFeed(bull, keys, subscriber, undefined, () => {
    coalescer.hold();
  });
  const counts = { appends: 0, events: 0, deltas: 0, chars: 0, kept: 0, counting: false };
  const count = (events) => {
    counts.appends++;
    counts.events += events.length;
    if (counts.counting)
      for (const event of events)
        if (event.type === 'delta') {
          counts.deltas++;
          counts.chars += event.delta.content?.length ?? 0;
        }
  };
  /** The RedisFeed, counting what it is given. */
  const feed = {
    append(runId, events) {
      count(events);
      return redisFeed.append(runId, events);
    },
    appendMany(batches) {
      for (const batch of batches) count(batch.events);
      return redisFeed.appendMany(batches);
    },
    read: (runId, after) => redisFeed.read(runId, after),
    listen: (runId, onEntry) => redisFeed.listen(runId, onEntry),
  };
  const control = new RedisControl(bull, keys, subscriber, 2_592_000_000);
  const publisher = new FeedPublisher(feed, onError, { orderedWithJobs: false });
  // queue-stream: the worker's run streams as in queue-feed; its deltas are counted, not published.
  if (mode === 'stream')
    publisher.pushDelta = () => {
      counts.kept++;
    };
  const executor = {
    store: memoryStore(),
    agents: registryMap([golemAgent()]),
    feed: publisher,
    control,
    active: new ActiveRuns(),
    limits: resolveLimits(),
    workerId: `${os.hostname()}/${process.pid}/bench`,
    now: Date.now,
    timeout: undefined,
    continueTrace: undefined,
  };
  const cleaner = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  await bull.ping();
  let n = 0;
  let blockRuns = [];
  const run = async () => {
    const runId = `bench-${process.pid}-${n++}`;
    blockRuns.push(runId);
    const job = {
      v: JOB_VERSION,
      kind: 'start',
      runId,
      agent: 'bench',
      prompt: S.PROMPT_A,
      options: streamed ? {} : { stream: false },
      enqueuedAt: Date.now(),
    };
    const delivery = {
      lane: 'default',
      id: jobIdOf('start', runId),
      data: job,
      attempt: 1,
      attempts: 5,
    };
    const outcome = await executeDelivery(executor, delivery);
    if (outcome.type !== 'done') throw outcome.error ?? new Error(`outcome ${outcome.type}`);
    return outcome.value;
  };
  const redisCpu = async () => {
    const info = await cleaner.info('cpu');
    const get = (name) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? NaN);
    return (get('used_cpu_user') + get('used_cpu_sys')) * 1e6;
  };
  return {
    run,
    async check() {
      counts.counting = true;
      counts.kept = 0;
      const value = await run();
      counts.counting = false;
      if (mode === 'stream' && counts.kept !== DELTAS)
        throw new Error(`${name}: ${counts.kept} deltas streamed for ${DELTAS}`);
      if (value.status !== 'completed') throw new Error(`${name}: status ${value.status}`);
      check(name, value.output, mode === 'feed' ? counts.chars : TEXT.length);
      // The feed merges consecutive text deltas of a batch into one event: the characters count.
      if (mode === 'feed' ? counts.deltas < 1 || counts.deltas > DELTAS : counts.deltas !== 0)
        throw new Error(`${name}: ${counts.deltas} delta events for ${DELTAS} deltas`);
    },
    /** Untimed: the block's keys deleted, a fresh store. */
    async afterBlock() {
      const ids = blockRuns;
      blockRuns = [];
      if (errors.length > 0) throw errors[0];
      const doomed = ids.flatMap((id) => [keys.feed(id), keys.feedSeq(id)]);
      if (doomed.length > 0) await cleaner.del(...doomed);
      await executor.store.close?.();
      executor.store = memoryStore();
    },
    /** Counters over timed runs (reset by each `measure`). */
    async before() {
      counts.appends = 0;
      counts.events = 0;
      counts.redis0 = await redisCpu();
    },
    async extra(runs) {
      const redisUs = (await redisCpu()) - counts.redis0;
      return {
        appendsPerRun: counts.appends / runs,
        eventsPerRun: counts.events / runs,
        redisCpuUsPerRun: redisUs / runs,
        droppedDeltas: publisher.droppedDeltas,
      };
    },
    async close() {
      await closeRedis(bull);
      cleaner.disconnect();
    },
  };
}

const FACTORIES = {
  loop: loopVariant,
  runStream: runStreamVariant,
  'runStream-onDelta': onDeltaVariant,
  ui: uiVariant,
  'loop-for-await': loopForAwaitVariant,
  'queue-feed': () => queueVariant('feed'),
  'queue-stream': () => queueVariant('stream'),
  'queue-run': () => queueVariant('run'),
};

// ---- child ----------------------------------------------------------------------------------

async function child(variant) {
  const v = await FACTORIES[variant]();
  if (v.check !== undefined) await v.check();
  else {
    const r = await v.run();
    check(variant, r.output, r.received);
  }
  for (let i = 0; i < WARMUP; i++) {
    await v.run();
    if ((i + 1) % BLOCK === 0) await v.afterBlock?.();
  }
  await v.afterBlock?.();
  process.send({ ready: true });
  process.on('message', async (message) => {
    try {
      if (message.measure) {
        global.gc?.();
        // A full collection with no run in flight drops optimized code whose object shapes
        // nothing holds (bench/RESULTS.md): runs after it re-optimise for a while. A tenth of the
        // warm-up, untimed, so the timed runs are steady-state ones.
        for (let i = 0; i < Math.ceil(WARMUP / 10); i++) await v.run();
        await v.afterBlock?.();
        await v.before?.();
        const wall = [];
        const cpu = [];
        let extraCpu = 0;
        for (let done = 0; done < RUNS;) {
          const size = Math.min(BLOCK, RUNS - done);
          const cpu0 = process.cpuUsage();
          const t0 = performance.now();
          for (let i = 0; i < size; i++) await v.run();
          const t1 = performance.now();
          const used = process.cpuUsage(cpu0);
          wall.push(((t1 - t0) * 1000) / size);
          cpu.push((used.user + used.system) / size);
          extraCpu += used.user + used.system;
          done += size;
          await v.afterBlock?.();
        }
        const extra = (await v.extra?.(RUNS)) ?? {};
        process.send({ wall, cpu, cpuPerRun: extraCpu / RUNS, extra });
      }
      if (message.close) {
        await v.close?.();
        process.disconnect();
      }
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  });
}

// ---- parent ---------------------------------------------------------------------------------

/** A child timing `variant` on runs of `deltas` deltas (shorter runs: more of them, bigger blocks). */
function spawn(variant, prefix, deltas) {
  const extraArgv = (process.env.GOLEM_BENCH_CHILD_ARGS ?? '').split(' ').filter(Boolean);
  const scale = Math.max(1, Math.round(DELTAS / deltas));
  const argv = [
    `--child=${variant}`,
    `--deltas=${deltas}`,
    `--runs=${RUNS * scale}`,
    `--warmup=${WARMUP * scale}`,
    `--block=${BLOCK * scale}`,
    `--prefix=${prefix}`,
  ];
  const proc = fork(__filename, argv, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv, ...extraArgv],
  });
  return new Promise((resolve, reject) => {
    proc.once('message', () => resolve(proc));
    proc.once('exit', (code) => reject(new Error(`${variant} exited (${code})`)));
  });
}

function ask(proc, message) {
  return new Promise((resolve, reject) => {
    const onExit = (code) => reject(new Error(`child exited (${code})`));
    proc.once('exit', onExit);
    proc.once('message', (reply) => {
      proc.off('exit', onExit);
      resolve(reply);
    });
    proc.send(message);
  });
}

/** Whether Redis answers (a probe that gives up at once), and the client to clean up with. */
async function probeRedis() {
  const { Redis } = fromRoot('ioredis');
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    console.log(`Redis at ${REDIS_URL} unreachable (${error.message}): queue-feed is n/a`);
    redis.disconnect();
    return undefined;
  }
}

async function cleanup(redis, prefix) {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (found.length > 0) await redis.del(...found);
    cursor = next;
  } while (cursor !== '0');
}

const fmt = (x) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x.toPrecision(3)) : 'n/a');
const fmtDelta = (x) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

function table(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(line(head));
  console.log(
    `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`,
  );
  for (const row of rows) console.log(line(row));
}

async function parent() {
  for (const v of VARIANTS) if (FACTORIES[v] === undefined) throw new Error(`unknown variant ${v}`);
  const prefix = `golem-bench-stream-${randomUUID().slice(0, 8)}`;
  const queued = (v) => v.startsWith('queue-');
  const redis = VARIANTS.some(queued) ? await probeRedis() : undefined;
  const variants = VARIANTS.filter((v) => !queued(v) || redis !== undefined);
  const cpus = os.cpus();
  console.log(
    `streaming bench: ${DELTAS} deltas per run, ${RUNS} timed runs per round (blocks of ${BLOCK}) × ${ROUNDS} rounds, ${WARMUP} warm-up runs; Node ${process.version}, ${cpus[0]?.model ?? '?'} × ${cpus.length}; dist ${DIST}`,
  );
  const procs = {};
  const empty = () =>
    Object.fromEntries(variants.map((v) => [v, { wall: [], cpu: [], extra: [] }]));
  const samples = empty();
  const shortSamples = empty();
  // One child per variant and run length: `v` at DELTAS, `v@short` at SHORT.
  const children = variants.flatMap((v) => (SHORT > 0 ? [v, `${v}@short`] : [v]));
  const sampleOf = (key) =>
    key.endsWith('@short') ? shortSamples[key.slice(0, -'@short'.length)] : samples[key];
  try {
    // Warm-ups one after another: no child's warm-up overlaps another's timed runs.
    for (const key of children) {
      const short = key.endsWith('@short');
      procs[key] = await spawn(
        short ? key.slice(0, -'@short'.length) : key,
        prefix,
        short ? SHORT : DELTAS,
      );
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = children.map((_, i) => children[(i + round) % children.length]);
      for (const key of order) {
        const reply = await ask(procs[key], { measure: true, round });
        const sample = sampleOf(key);
        sample.wall.push(...reply.wall);
        sample.cpu.push(...reply.cpu);
        sample.extra.push(reply.extra);
      }
    }
    for (const key of children) {
      const exited = new Promise((resolve) => procs[key].once('exit', resolve));
      procs[key].send({ close: true });
      await exited;
    }
  } finally {
    for (const proc of Object.values(procs)) if (proc.exitCode === null) proc.kill();
    if (redis !== undefined) {
      await cleanup(redis, prefix);
      redis.disconnect();
    }
  }

  const stats = Object.fromEntries(
    VARIANTS.map((v) => {
      const s = samples[v];
      if (s === undefined) return [v, { wallUs: NaN, cpuUs: NaN }];
      return [v, { wallUs: median(s.wall), cpuUs: median(s.cpu), blocks: s.wall.length }];
    }),
  );
  const loop = stats.loop ?? { wallUs: NaN, cpuUs: NaN };
  const shortCpu = (v) =>
    SHORT > 0 && shortSamples[v] !== undefined ? median(shortSamples[v].cpu) : NaN;
  for (const v of VARIANTS) {
    const s = stats[v];
    s.overheadCpuUs = (s.cpuUs - loop.cpuUs) / DELTAS;
    s.overheadWallUs = (s.wallUs - loop.wallUs) / DELTAS;
    // At the margin: the run's fixed cost cancels out between the two run lengths.
    s.shortCpuUs = shortCpu(v);
    const overShort = s.shortCpuUs - shortCpu('loop');
    s.marginalCpuUs = (s.cpuUs - loop.cpuUs - overShort) / (DELTAS - SHORT);
    s.fixedCpuUs = overShort - s.marginalCpuUs * SHORT;
  }
  console.log();
  table(
    [
      'variant',
      'µs per run (median)',
      'CPU µs per run',
      'µs per delta',
      'overhead µs/delta (CPU)',
      'overhead µs/delta (wall)',
    ],
    VARIANTS.map((v) => {
      const s = stats[v];
      return [
        v,
        fmt(s.wallUs),
        fmt(s.cpuUs),
        fmtDelta(s.wallUs / DELTAS),
        v === 'loop' ? '—' : fmtDelta(s.overheadCpuUs),
        v === 'loop' ? '—' : fmtDelta(s.overheadWallUs),
      ];
    }),
  );
  if (SHORT > 0) {
    console.log();
    table(
      [
        'variant',
        `CPU µs per run, ${SHORT} deltas`,
        `CPU µs per run, ${DELTAS} deltas`,
        'per delta at the margin, over the loop (CPU µs)',
        'fixed per run, over the loop (CPU µs)',
      ],
      VARIANTS.map((v) => {
        const s = stats[v];
        return [
          v,
          fmt(s.shortCpuUs),
          fmt(s.cpuUs),
          v === 'loop' ? '—' : fmtDelta(s.marginalCpuUs),
          v === 'loop' ? '—' : fmt(s.fixedCpuUs),
        ];
      }),
    );
  }
  const queue = samples['queue-feed'];
  if (queue !== undefined) {
    const e = (key) => median(queue.extra.map((x) => x[key]));
    stats['queue-feed'].extra = {
      appendsPerRun: e('appendsPerRun'),
      eventsPerRun: e('eventsPerRun'),
      redisCpuUsPerRun: e('redisCpuUsPerRun'),
      droppedDeltas: Math.max(...queue.extra.map((x) => x.droppedDeltas)),
    };
    const x = stats['queue-feed'].extra;
    const feedOnly =
      stats.runStream === undefined
        ? ''
        : `; over runStream (the worker's own work: job, store, feed): ${fmtDelta((stats['queue-feed'].cpuUs - stats.runStream.cpuUs) / DELTAS)} µs/delta CPU`;
    const stream = stats['queue-stream'];
    const run = stats['queue-run'];
    const split =
      SHORT > 0 && stream !== undefined && run !== undefined
        ? `\nqueue-feed per delta at the margin, split: the streamed run in the worker ${fmtDelta(stream.marginalCpuUs - run.marginalCpuUs)} µs over queue-run (${fmtDelta(stream.marginalCpuUs - run.marginalCpuUs - (loop.cpuUs - shortCpu('loop')) / (DELTAS - SHORT))} over it and the loop); publishing the deltas ${fmtDelta(stats['queue-feed'].marginalCpuUs - stream.marginalCpuUs)} µs over queue-stream`
        : '';
    console.log(
      `\nqueue-feed: ${x.appendsPerRun.toFixed(2)} appends and ${x.eventsPerRun.toFixed(0)} feed events per run, ${x.droppedDeltas} deltas dropped; Redis server CPU ${fmt(x.redisCpuUsPerRun)} µs per run (not in the worker's figure; counts every client of that server)${feedOnly}${split}`,
    );
  }
  const plain = stats['loop-for-await'];
  if (plain !== undefined && SHORT > 0) {
    const over = ['runStream', 'ui']
      .filter((v) => stats[v] !== undefined)
      .map((v) => `${v} ${fmtDelta(stats[v].marginalCpuUs - plain.marginalCpuUs)}`)
      .join(', ');
    console.log(
      `\nfor await without a framework: ${fmtDelta(plain.marginalCpuUs)} µs per value at the margin over the callback loop (loop-for-await: a careful hand-written async iterator, a promise per value)${over === '' ? '' : `; golem's for-await readers over it, per delta: ${over} µs`}`,
    );
  }
  console.log();
  const verdictOf = (measured) =>
    !Number.isFinite(measured) ? 'n/a' : measured <= TARGET_US ? 'met' : '**not met**';
  // A queued run records its output (store, job value, `model_end` and `completed` events) whether
  // it streams or not: per character, so per delta here. queue-run has the same output without
  // streaming; what queue-feed costs per delta beyond it and beyond the loop is the streaming.
  const loopSlope = (loop.cpuUs - shortCpu('loop')) / (DELTAS - SHORT);
  const recording = stats['queue-run']?.marginalCpuUs;
  const targets = VARIANTS.filter((v) => !NOT_TARGETS.has(v)).map((v) => {
    const s = stats[v];
    // The verdict is on the margin when both run lengths ran; the spread figure is beside it.
    let measured = SHORT > 0 ? s.marginalCpuUs : s.overheadCpuUs;
    let measuredText =
      SHORT > 0
        ? `${fmtDelta(s.marginalCpuUs)} µs at the margin (+ ${fmt(s.fixedCpuUs)} µs per run; ${fmtDelta(s.overheadCpuUs)} µs spread over ${DELTAS})`
        : `${fmtDelta(s.overheadCpuUs)} µs`;
    if (v === 'queue-feed' && SHORT > 0 && recording !== undefined && Number.isFinite(recording)) {
      measured = s.marginalCpuUs - recording - loopSlope;
      measuredText = `${fmtDelta(measured)} µs at the margin over queue-run and the loop (${fmtDelta(s.marginalCpuUs)} over the loop, of which ${fmtDelta(recording + loopSlope)} a queued run's recording of the longer output; ${fmtDelta(s.overheadCpuUs)} spread over ${DELTAS})`;
    }
    return [
      `streaming: ${v} per delta over the callback loop`,
      `≤ ${TARGET_US} µs`,
      measuredText,
      verdictOf(measured),
    ];
  });
  table(['target', 'wanted', 'measured', 'verdict'], targets);
  if (args.json !== undefined) {
    const out = {
      settings: {
        deltas: DELTAS,
        short: SHORT,
        runs: RUNS,
        warmup: WARMUP,
        block: BLOCK,
        rounds: ROUNDS,
      },
      node: process.version,
      cpu: cpus[0]?.model,
      cores: cpus.length,
      dist: DIST,
      stats,
      samples,
      shortSamples,
    };
    fs.writeFileSync(args.json, `${JSON.stringify(out, null, 2)}\n`);
  }
}

const main = args.child !== undefined ? () => child(args.child) : parent;
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
