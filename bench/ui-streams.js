'use strict';
/**
 * End to end chat streams (issue 35): 1,000 concurrent chat streams through `golem/ui` on one
 * Node process, against the AI SDK's `streamText` + UI message stream doing the same.
 *
 *   cd bench && node --expose-gc ui-streams.js [--streams=1000] [--deltas=200] [--rounds=5]
 *       [--warmup=2] [--batches=3] [--level=sse|chunks] [--json=path] [--ai-sdk-from=path]
 *
 * One chat stream is one run of an agent with one tool, `add` (zod-validated with `scenario.js`'s
 * `addArgsSchema`, the same schema on both sides), on a scripted streaming model: turn 1 streams
 * one `add` call whose JSON arguments arrive in three deltas, the tool runs, turn 2 streams
 * `--deltas` text deltas ("tok " each) and finishes. Both sides emit the same UI message chunks
 * (protocol v1: start, steps, tool input and output, text, finish).
 *
 * - golem: `new Agent` + `defineTool({ args: zod })` on a `StreamingModel` that awaits `onDelta`
 *   once per delta (as Golem's provider adapters do); `toUIMessageStream(agent.runStream(prompt))`
 *   from the built `golem/ui`.
 * - ai-sdk: `streamText` + zod `tool` + `stopWhen: stepCountIs(2)` on a LanguageModelV3 whose
 *   `doStream` enqueues a turn's parts at once (an instant provider, as in `frameworks/ai-sdk.js`);
 *   `result.toUIMessageStream()`.
 *
 * `--level=sse` (default): both chunk streams are also serialised to SSE text as a server would
 * send it (`data: <json>\n\n`, then `data: [DONE]`): golem/ui's `toSseStream`, the AI SDK's
 * `JsonToSseTransformStream` (what each side's `createUIMessageStreamResponse` does before its
 * `TextEncoderStream`, left out on both). `--level=chunks` reads the chunk objects instead.
 * Every consumer reads its stream with the same `getReader()` loop, counts events and characters,
 * and checks (string tests, no JSON parsing) that it saw every text delta and the tool's output;
 * any stream short of that throws.
 *
 * Each framework runs in a fresh child process per round (`--child=golem|ai-sdk`, this file),
 * golem and ai-sdk interleaved (the order swapped every round). A child builds its agent, runs
 * `--warmup` batches of `--streams` streams started together (Promise.all), then `--batches`
 * timed batches (GC forced before each, outside the timing): wall ms per batch and CPU µs per
 * stream (`process.cpuUsage()` over the batch, user + system, / streams). Then one held batch:
 * after a forced GC the heap is read (baseline), the streams start, every model waits on a shared
 * gate right after its first text delta, and once every consumer has seen its first text delta
 * (all streams started, none finished), GC is forced twice and the heap read again: (held −
 * baseline) / streams is the heap per open stream. The gate then opens and the batch is checked.
 * The table gives the medians over rounds of each child's median batch.
 *
 * Profile golem's side: `node --expose-gc --cpu-prof --cpu-prof-dir=profiles ui-streams.js
 * --child=golem --batches=10`, then `node profile/cpuprofile-top.js profiles/<file> 30`.
 * Loads the built dist (run `npm run build` first, or GOLEM_BENCH_DIST=/path/to/dist).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const S = require('./scenario');
const { DIST, GOLEM } = require('./golem.js');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const STREAMS = Number(args.streams ?? 1000);
const DELTAS = Number(args.deltas ?? 200);
const ROUNDS = Number(args.rounds ?? 5);
const WARMUP = Number(args.warmup ?? 2);
const BATCHES = Number(args.batches ?? 3);
const LEVEL = args.level ?? 'sse';
if (LEVEL !== 'sse' && LEVEL !== 'chunks') throw new Error(`--level=${LEVEL}: sse or chunks`);
const FRAMEWORKS = ['golem', 'ai-sdk'];

const TOKEN = S.STREAM_TOKEN;
const TEXT = TOKEN.repeat(DELTAS);
const { id: CALL_ID, name: CALL_NAME, args: CALL_ARGS } = S.CALLS[0];
/** The `add` arguments in three deltas: `{"a":1,` `"b":2` `}`. */
const ARG_FRAGMENTS = [CALL_ARGS.slice(0, 7), CALL_ARGS.slice(7, -1), CALL_ARGS.slice(-1)];
const TOOL_OUTPUT = S.add(JSON.parse(CALL_ARGS));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toPrecision(3));

// ------------------------------------------------------------------------------------- gate

/**
 * The held batch's gate: every model awaits `gate.open` after its first text delta; every
 * consumer calls `gate.arrive()` on seeing its first text delta, and `gate.all` resolves once all
 * `count` have. Outside the held batch `gate` is null and nothing waits.
 */
let gate = null;
function makeGate(count) {
  let release;
  let arrived;
  let seen = 0;
  const open = new Promise((resolve) => (release = resolve));
  const all = new Promise((resolve) => (arrived = resolve));
  return {
    open,
    all,
    release,
    arrive() {
      if (++seen === count) arrived();
    },
  };
}

// --------------------------------------------------------------------------------- consumer

/** A consumer's tally: events, characters, text deltas and the tool output seen. */
function tally() {
  return { events: 0, chars: 0, textDeltas: 0, toolOutput: false, done: false };
}

const SSE_TEXT_DELTA = 'data: {"type":"text-delta"';
const SSE_TEXT_END = `"delta":${JSON.stringify(TOKEN)}}\n\n`;
const SSE_TOOL_OUTPUT = 'data: {"type":"tool-output-available"';
const SSE_OUTPUT = `"output":${JSON.stringify(TOOL_OUTPUT)}`;
const SSE_DONE = 'data: [DONE]\n\n';

function seeSse(t, text) {
  t.events++;
  t.chars += text.length;
  if (text.startsWith(SSE_TEXT_DELTA)) {
    if (text.endsWith(SSE_TEXT_END) && ++t.textDeltas === 1 && gate !== null) gate.arrive();
  } else if (text.startsWith(SSE_TOOL_OUTPUT)) {
    if (text.includes(SSE_OUTPUT)) t.toolOutput = true;
  } else if (text === SSE_DONE) t.done = true;
}

function seeChunk(t, chunk) {
  t.events++;
  if (chunk.type === 'text-delta') {
    t.chars += chunk.delta.length;
    if (chunk.delta === TOKEN && ++t.textDeltas === 1 && gate !== null) gate.arrive();
  } else if (chunk.type === 'tool-output-available') {
    if (chunk.output === TOOL_OUTPUT) t.toolOutput = true;
  } else if (chunk.type === 'finish') t.done = true;
}

/** Reads a stream to its end with `getReader()` (the same loop on both sides). */
async function consume(stream) {
  const see = LEVEL === 'sse' ? seeSse : seeChunk;
  const t = tally();
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    see(t, value);
  }
  return t;
}

function check(framework, t) {
  if (t.textDeltas !== DELTAS || !t.toolOutput || !t.done)
    throw new Error(
      `${framework}: a stream ended with ${t.textDeltas}/${DELTAS} text deltas, tool output ${t.toolOutput}, end ${t.done} (${t.events} events)`,
    );
}

// ------------------------------------------------------------------------------------ golem

function golemSide() {
  const { Agent, defineTool } = require(GOLEM);
  const ui = require(path.join(DIST, 'src', 'ui', 'index.js'));
  const { z } = require('zod');
  const usage = () => ({ inputTokens: 10, outputTokens: 5 });
  const model = {
    name: 'bench-fake-ui-stream',
    async generate() {
      throw new Error('the chat streams stream');
    },
    async stream(request, onDelta) {
      let results = 0;
      for (const message of request.messages) if (message.role === 'tool') results++;
      if (results === 0) {
        await onDelta({
          toolCalls: [{ index: 0, id: CALL_ID, name: CALL_NAME, argsFragment: ARG_FRAGMENTS[0] }],
        });
        for (let i = 1; i < ARG_FRAGMENTS.length; i++)
          await onDelta({ toolCalls: [{ index: 0, argsFragment: ARG_FRAGMENTS[i] }] });
        const message = {
          role: 'assistant',
          toolCalls: [{ id: CALL_ID, name: CALL_NAME, args: CALL_ARGS }],
        };
        return { message, usage: usage(), finishReason: 'tool_calls' };
      }
      for (let i = 0; i < DELTAS; i++) {
        await onDelta({ content: TOKEN });
        if (i === 0 && gate !== null) await gate.open;
      }
      return {
        message: { role: 'assistant', content: TEXT },
        usage: usage(),
        finishReason: 'stop',
      };
    },
  };
  const agent = new Agent({
    model,
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
  return () => {
    const chunks = ui.toUIMessageStream(agent.runStream(S.PROMPT_A));
    return consume(LEVEL === 'sse' ? ui.toSseStream(chunks) : chunks);
  };
}

// ----------------------------------------------------------------------------------- ai-sdk

function aiSdkSide() {
  const { streamText, tool, stepCountIs, JsonToSseTransformStream } = require('ai');
  const { z } = require('zod');
  const USAGE = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
  const finish = (unified, raw) => ({
    type: 'finish',
    usage: USAGE,
    finishReason: { unified, raw },
  });
  const toolParts = () => [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-input-start', id: CALL_ID, toolName: CALL_NAME },
    ...ARG_FRAGMENTS.map((delta) => ({ type: 'tool-input-delta', id: CALL_ID, delta })),
    { type: 'tool-input-end', id: CALL_ID },
    { type: 'tool-call', toolCallId: CALL_ID, toolName: CALL_NAME, input: CALL_ARGS },
    finish('tool-calls', 'tool_calls'),
  ];
  const textDelta = () => ({ type: 'text-delta', id: 't0', delta: TOKEN });
  const hasToolResult = (prompt) => {
    for (const message of prompt) {
      if (message.role !== 'tool') continue;
      for (const part of message.content) if (part.type === 'tool-result') return true;
    }
    return false;
  };
  const model = {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'bench-fake-ui-stream',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the chat streams stream');
    },
    async doStream(options) {
      if (!hasToolResult(options.prompt)) {
        const parts = toolParts();
        return {
          stream: new ReadableStream({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        };
      }
      const held = gate;
      return {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't0' });
            controller.enqueue(textDelta());
            const rest = () => {
              for (let i = 1; i < DELTAS; i++) controller.enqueue(textDelta());
              controller.enqueue({ type: 'text-end', id: 't0' });
              controller.enqueue(finish('stop', 'stop'));
              controller.close();
            };
            if (held === null) rest();
            else void held.open.then(rest);
          },
        }),
      };
    },
  };
  const tools = {
    add: tool({
      description: S.ADD_DESCRIPTION,
      inputSchema: S.addArgsSchema(z),
      execute: async (input) => S.add(input),
    }),
  };
  return () => {
    const result = streamText({
      model,
      system: S.SYSTEM,
      prompt: S.PROMPT_A,
      tools,
      stopWhen: stepCountIs(2),
    });
    const chunks = result.toUIMessageStream();
    return consume(LEVEL === 'sse' ? chunks.pipeThrough(new JsonToSseTransformStream()) : chunks);
  };
}

// ------------------------------------------------------------------------------------ child

const gc = () => {
  if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
  global.gc();
  global.gc();
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function batch(framework, once) {
  const runs = [];
  for (let i = 0; i < STREAMS; i++) runs.push(once());
  for (const t of await Promise.all(runs)) check(framework, t);
}

async function child(framework) {
  const once = framework === 'golem' ? golemSide() : aiSdkSide();
  for (let i = 0; i < WARMUP; i++) await batch(framework, once);
  const wall = [];
  const cpu = [];
  for (let i = 0; i < BATCHES; i++) {
    gc();
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await batch(framework, once);
    const elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
    const used = process.cpuUsage(cpu0);
    wall.push(elapsed);
    cpu.push((used.user + used.system) / STREAMS);
  }
  // The held batch: the heap with every stream open (started, first text delta seen, unfinished).
  gc();
  await turn();
  gc();
  const baseline = process.memoryUsage().heapUsed;
  gate = makeGate(STREAMS);
  const held = gate;
  const running = batch(framework, once);
  await held.all;
  for (let i = 0; i < 3; i++) await turn();
  gc();
  const open = process.memoryUsage().heapUsed;
  gate = null;
  held.release();
  await running;
  return {
    framework,
    wallMs: median(wall),
    cpuUsPerStream: median(cpu),
    heapBytesPerStream: (open - baseline) / STREAMS,
    samples: { wallMs: wall, cpuUsPerStream: cpu, heapBaseline: baseline, heapOpen: open },
  };
}

// ----------------------------------------------------------------------------------- parent

function runChild(framework) {
  const { execFileSync } = require('node:child_process');
  const execArgv = process.execArgv.includes('--expose-gc')
    ? process.execArgv
    : [...process.execArgv, '--expose-gc'];
  const out = execFileSync(
    process.execPath,
    [
      ...execArgv,
      __filename,
      `--child=${framework}`,
      `--streams=${STREAMS}`,
      `--deltas=${DELTAS}`,
      `--warmup=${WARMUP}`,
      `--batches=${BATCHES}`,
      `--level=${LEVEL}`,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
  );
  return JSON.parse(out);
}

function table(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [
    line(head),
    `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n');
}

/**
 * `--ai-sdk-from=path`: the AI SDK's rounds from an earlier `--json` file (same streams, deltas and
 * level) instead of running them again (one AI SDK process takes ~10–25 min at 1,000 streams);
 * only golem runs. Undefined without the flag.
 */
function reusedAiSdk() {
  if (args['ai-sdk-from'] === undefined) return undefined;
  const earlier = JSON.parse(fs.readFileSync(args['ai-sdk-from'], 'utf8'));
  const { streams, deltas, level } = earlier.settings;
  if (streams !== STREAMS || deltas !== DELTAS || level !== LEVEL)
    throw new Error(`--ai-sdk-from: ${streams} streams, ${deltas} deltas, level ${level} there`);
  return earlier.rounds['ai-sdk'];
}

function main() {
  const reused = reusedAiSdk();
  const results = Object.fromEntries(FRAMEWORKS.map((f) => [f, []]));
  if (reused !== undefined) results['ai-sdk'] = reused;
  const running = reused === undefined ? FRAMEWORKS : ['golem'];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? running : [...running].reverse();
    for (const framework of order) {
      const result = runChild(framework);
      results[framework].push(result);
      process.stderr.write(
        `round ${r + 1}/${ROUNDS} ${framework}: ${fmt(result.wallMs)} ms, ${fmt(result.cpuUsPerStream)} CPU µs/stream, ${fmt(result.heapBytesPerStream / 1024)} KB/open stream\n`,
      );
    }
  }
  const summary = Object.fromEntries(
    FRAMEWORKS.map((f) => [
      f,
      {
        wallMs: median(results[f].map((x) => x.wallMs)),
        cpuUsPerStream: median(results[f].map((x) => x.cpuUsPerStream)),
        heapKBPerStream: median(results[f].map((x) => x.heapBytesPerStream)) / 1024,
      },
    ]),
  );
  const ai = summary['ai-sdk'];
  const aiVersion = require('ai/package.json').version;
  const cpus = os.cpus();
  console.log(
    `ui-streams bench — node ${process.version}, ${cpus[0]?.model ?? '?'}, ${cpus.length} cpus, ai ${aiVersion}; ${STREAMS} concurrent streams of 1 tool call (3 argument deltas) + ${DELTAS} text deltas; level ${LEVEL === 'sse' ? 'SSE text (chunks serialised)' : 'UI message chunks'}; ${ROUNDS} rounds × (${WARMUP} warm-up + ${BATCHES} timed batches + 1 held batch), a fresh process per framework and round${reused === undefined ? '' : `; the AI SDK's ${reused.length} rounds reused from ${args['ai-sdk-from']}`}\n`,
  );
  console.log(
    table(
      [
        'framework',
        'streams',
        'wall ms (median)',
        'CPU µs per stream (median)',
        'heap KB per open stream (median)',
        '× AI SDK CPU',
      ],
      FRAMEWORKS.map((f) => [
        f === 'golem' ? 'golem (golem/ui)' : 'ai-sdk (streamText)',
        String(STREAMS),
        fmt(summary[f].wallMs),
        fmt(summary[f].cpuUsPerStream),
        fmt(summary[f].heapKBPerStream),
        (summary[f].cpuUsPerStream / ai.cpuUsPerStream).toFixed(3),
      ]),
    ),
  );
  const g = summary.golem;
  const ratio = g.cpuUsPerStream / ai.cpuUsPerStream;
  const met = ratio <= 0.1;
  console.log();
  console.log(
    table(
      ['target', 'wanted', 'measured', 'verdict'],
      [
        [
          `${STREAMS.toLocaleString('en')} concurrent chat streams: golem CPU per stream vs AI SDK`,
          '≤ 0.1×',
          `${ratio.toFixed(3)}× (${fmt(g.cpuUsPerStream)} vs ${fmt(ai.cpuUsPerStream)} µs)`,
          met ? 'met' : '**not met**',
        ],
        [
          'heap per open stream (golem, AI SDK)',
          'reported',
          `${fmt(g.heapKBPerStream)} KB, ${fmt(ai.heapKBPerStream)} KB`,
          'reported',
        ],
      ],
    ),
  );
  if (args.json !== undefined) {
    const json = {
      node: process.version,
      cpu: cpus[0]?.model,
      cpus: cpus.length,
      ai: aiVersion,
      settings: {
        streams: STREAMS,
        deltas: DELTAS,
        rounds: ROUNDS,
        warmup: WARMUP,
        batches: BATCHES,
        level: LEVEL,
        ...(reused !== undefined && { aiSdkFrom: args['ai-sdk-from'] }),
      },
      summary,
      target: { cpuRatio: ratio, wanted: 0.1, met },
      rounds: results,
    };
    fs.writeFileSync(args.json, `${JSON.stringify(json, null, 2)}\n`);
  }
}

if (args.child !== undefined) {
  if (!FRAMEWORKS.includes(args.child)) throw new Error(`--child=${args.child}: golem or ai-sdk`);
  child(args.child).then(
    (result) => process.stdout.write(JSON.stringify(result)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
} else main();
