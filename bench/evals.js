'use strict';
/**
 * Eval harness overhead per case (issue 32): what `runExperiment` from `golem/evals` adds to each
 * case over running the same agent on the same cases in a plain loop and checking by hand.
 *
 *   node --expose-gc bench/evals.js [--cases=100] [--rounds=5] [--warmup=20]
 *       [--scenarios=plain,c1,c4,record,replay,replay4] [--in-process]
 *
 * Every scenario runs the same agent (one tool, `add`, on an instant `FunctionModel` from
 * `golem/testing`: a tool call, then the answer) on the same `cases` cases (`Add <i> and 6.`,
 * expected `<i + 6>`), with the same three checks: the answer contains the expected sum, the run
 * called `add`, and it took at most 3 turns.
 *
 * - `plain loop`: `for (const c of cases) await agent.run(c.input)`, the checks computed by hand;
 * - `runExperiment c=1` / `c=4`: the agent as the task, `contains()`, `calledTool('add')`,
 *   `maxTurns(3)`, no cassettes, concurrency 1 / 4;
 * - `cassettes record`: concurrency 1, every case's model calls and tool result recorded into a
 *   temp folder (one JSON file written per case, every round);
 * - `cassettes replay`: concurrency 1, answered from those files (no model call, no tool run —
 *   checked); and the same at concurrency 4 (the default).
 *
 * Every scenario and round runs in a fresh process (the order rotated by the round): `warmup`
 * passes over every case, then one timed pass (one experiment), on a fresh agent after a forced
 * GC. `--in-process` runs everything in one process instead (interleaved rounds; handy under
 * `--cpu-prof`), where the plain loop pays for the JIT state the other scenarios left. The table
 * gives the median over rounds of µs per case and the CPU µs per case (user + system, all
 * threads), the µs added over the plain loop and the ratio to it. Loads the built dist (run
 * `npm run build` first); the temp folder is removed.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DIST, GOLEM } = require('./golem.js');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const CASES = Number(args.cases ?? 100);
const ROUNDS = Number(args.rounds ?? 5);
const WARMUP = Number(args.warmup ?? 20);
const IN_PROCESS = args['in-process'] === 'true';
const SCENARIOS = (args.scenarios ?? 'plain,c1,c4,record,replay,replay4').split(',');

// The environment variable would override every experiment's cassette mode.
delete process.env.GOLEM_EVAL_CASSETTES;

const golem = require(GOLEM);
const load = (...p) => require(path.join(DIST, 'src', ...p, 'index.js'));
const { FunctionModel } = load('testing');
const { defineDataset, runExperiment, contains, calledTool, maxTurns } = load('evals');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toPrecision(3));

/** The instant model's turn: a call of `add` with the prompt's two numbers, then the sum. */
function turn(request) {
  const result = request.messages.find((m) => m.role === 'tool');
  if (result !== undefined) {
    return {
      message: { role: 'assistant', content: `The sum is ${result.content}.` },
      usage: { inputTokens: 9, outputTokens: 3 },
    };
  }
  const prompt = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  const [a, b] = (prompt.match(/-?\d+/g) ?? ['0', '0']).map(Number);
  return {
    message: {
      role: 'assistant',
      toolCalls: [{ id: 'c1', name: 'add', args: JSON.stringify({ a, b }) }],
    },
    usage: { inputTokens: 8, outputTokens: 4 },
  };
}

let modelCalls = 0;
let toolRuns = 0;
const add = golem.defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  schema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: (input) => {
    toolRuns += 1;
    return String(input.a + input.b);
  },
});

/**
 * The agent, built afresh (untimed) before every pass: a `FunctionModel` keeps a deep copy of
 * every request it receives, so one model for the whole process would grow the heap (and the GC's
 * work) from scenario to scenario. Every pass's agent is configured identically.
 */
function freshAgent() {
  const model = new FunctionModel((request) => {
    modelCalls += 1;
    return turn(request);
  });
  return new golem.Agent({ model, tools: [add] });
}

const cases = Array.from({ length: CASES }, (_, i) => ({
  name: `case-${String(i).padStart(4, '0')}`,
  input: `Add ${i} and 6.`,
  expected: String(i + 6),
}));
const dataset = defineDataset({ name: 'bench-add', cases });
const evaluators = [contains(), calledTool('add'), maxTurns(3)];

/** The baseline: the same runs one after another, the same three checks by hand. */
async function plainLoop(agent) {
  let passed = 0;
  for (const c of cases) {
    const result = await agent.run(c.input);
    const answer =
      typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
    const found = answer.includes(c.expected);
    let called = false;
    let turns = 0;
    for (const m of result.messages) {
      if (m.role !== 'assistant') continue;
      turns += 1;
      if (m.toolCalls?.some((call) => call.name === 'add')) called = true;
    }
    if (found && called && turns <= 3) passed += 1;
  }
  if (passed !== cases.length) throw new Error(`plain loop: ${passed}/${cases.length} passed`);
}

/** One experiment; throws unless every case passed (and, on replay, nothing was called). */
function experiment(name, extra, expectReplayed = false) {
  return async (agent) => {
    const calls = modelCalls;
    const tools = toolRuns;
    const report = await runExperiment({ name, dataset, task: agent, evaluators, ...extra });
    const { summary } = report;
    if (summary.passed !== cases.length || summary.errored !== 0) {
      const failed = report.cases.find((c) => c.runs.some((r) => !r.pass));
      throw new Error(
        `${name}: ${summary.passed}/${cases.length} passed; first failure ${JSON.stringify(failed?.runs[0]?.error ?? failed?.runs[0]?.scores)}`,
      );
    }
    if (expectReplayed) {
      if (summary.replayed !== cases.length)
        throw new Error(`${name}: replayed ${summary.replayed}`);
      if (modelCalls !== calls || toolRuns !== tools)
        throw new Error(`${name}: replay called the model or a tool`);
    } else if (summary.replayed !== 0) throw new Error(`${name}: replayed ${summary.replayed}`);
  };
}

/** Times one pass of `once` on a fresh agent (after a forced GC): µs per case, wall and CPU. */
async function timePass(once) {
  const agent = freshAgent();
  if (global.gc) global.gc();
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await once(agent);
  const wall = Number(process.hrtime.bigint() - t0) / 1e3;
  const cpu = process.cpuUsage(cpu0);
  return { wall: wall / CASES, cpu: (cpu.user + cpu.system) / CASES };
}

/**
 * In one process: every scenario `WARMUP` times (record before replay), then `ROUNDS` rounds,
 * each timing one pass of every scenario in an order rotated by the round.
 */
async function measureInProcess(scenarios) {
  for (let i = 0; i < WARMUP; i++) for (const s of scenarios) await s.once(freshAgent());
  const samples = scenarios.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < scenarios.length; k++) {
      const index = (k + r) % scenarios.length;
      samples[index].push(await timePass(scenarios[index].once));
    }
  }
  return samples;
}

/**
 * One fresh process per scenario and round (`ROUNDS` processes per scenario, the order rotated by
 * the round): each warms its scenario up `WARMUP` passes and times one. A process that ran other
 * scenarios first runs the plain loop up to twice as slow (its JIT state is shared), hence this.
 */
function measureInProcesses(scenarios, dir) {
  const { execFileSync } = require('node:child_process');
  const child = (key, warmup) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          ...process.execArgv,
          __filename,
          `--child=${key}`,
          `--dir=${dir}`,
          `--cases=${CASES}`,
          `--warmup=${warmup}`,
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      ),
    );
  // Replay needs the cassettes: one recording pass first.
  if (scenarios.some((s) => s.key.startsWith('replay'))) child('record', 0);
  const samples = scenarios.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < scenarios.length; k++) {
      const index = (k + r) % scenarios.length;
      samples[index].push(child(scenarios[index].key, WARMUP));
    }
  }
  return samples;
}

function scenarioList(dir) {
  const recorded = experiment('record', { concurrency: 1, cassettes: { dir, mode: 'record' } });
  return [
    { key: 'plain', name: 'plain loop + hand checks', once: plainLoop },
    { key: 'c1', name: 'runExperiment, concurrency 1', once: experiment('c1', { concurrency: 1 }) },
    { key: 'c4', name: 'runExperiment, concurrency 4', once: experiment('c4', { concurrency: 4 }) },
    {
      key: 'record',
      name: 'cassettes record (c=1, a file per case)',
      once: async (agent) => {
        await recorded(agent);
        const written = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).length;
        if (written !== CASES) throw new Error(`record: ${written} cassettes, not ${CASES}`);
      },
    },
    {
      key: 'replay',
      name: 'cassettes replay (c=1, no model, no tool)',
      once: experiment('replay', { concurrency: 1, cassettes: { dir, mode: 'replay' } }, true),
    },
    {
      key: 'replay4',
      name: 'cassettes replay, concurrency 4',
      once: experiment('replay4', { concurrency: 4, cassettes: { dir, mode: 'replay' } }, true),
    },
  ];
}

async function main() {
  if (args.child !== undefined) {
    const scenario = scenarioList(args.dir).find((s) => s.key === args.child);
    for (let i = 0; i < WARMUP; i++) await scenario.once(freshAgent());
    process.stdout.write(JSON.stringify(await timePass(scenario.once)));
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-bench-evals-'));
  try {
    const scenarios = scenarioList(dir).filter((s) => SCENARIOS.includes(s.key));
    let samples;
    if (IN_PROCESS) {
      // Replay needs the cassettes: record them once, untimed, when `record` is not measured.
      if (scenarios.some((s) => s.key.startsWith('replay')) && !SCENARIOS.includes('record'))
        await scenarioList(dir)[3].once(freshAgent());
      samples = await measureInProcess(scenarios);
    } else samples = measureInProcesses(scenarios, dir);
    const rows = scenarios.map((s, i) => ({
      name: s.name,
      wall: median(samples[i].map((x) => x.wall)),
      cpu: median(samples[i].map((x) => x.cpu)),
    }));
    const base = rows[0];
    console.log(
      `evals bench — node ${process.version}, ${os.cpus().length} cpus, ${CASES} cases, ${ROUNDS} rounds ${IN_PROCESS ? 'in one process' : '(a process per scenario and round)'}, ${WARMUP} warm-up passes\n`,
    );
    console.log(
      '| scenario | µs per case (median) | CPU µs per case | + µs over plain | × plain |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const m of rows)
      console.log(
        `| ${m.name} | ${fmt(m.wall)} | ${fmt(m.cpu)} | ${fmt(m.wall - base.wall)} | ${fmt(m.wall / base.wall)} |`,
      );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
