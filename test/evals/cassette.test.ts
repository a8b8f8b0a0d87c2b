import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  Agent,
  ModelRetry,
  defineTool,
  type Delta,
  type Model,
  type ModelResponse,
  type StreamingModel,
  type Tool,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import type { Dataset, EvalCase } from '../../src/evals/case';
import { cassettePath, safeCaseName, type CassetteFile } from '../../src/evals/cassette';
import { evalCassette } from '../../src/evals/cassette-context';
import { CASSETTE_MODE_ENV } from '../../src/evals/cassette-options';
import type { Evaluator } from '../../src/evals/evaluator';
import { runExperiment } from '../../src/evals/experiment';
import type { CassetteOptions, TaskContext } from '../../src/evals/experiment-types';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-cassettes-'));
  delete process.env.GOLEM_EVAL_CASSETTES;
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.GOLEM_EVAL_CASSETTES;
});

function dataset<I>(cases: EvalCase<I>[]): Dataset<I> {
  return { name: 'ds', cases, evaluators: [] };
}

const sunny: Evaluator = {
  name: 'sunny',
  evaluate: (ctx) => ({ score: String(ctx.output).includes('Sunny') ? 0.9 : 0.1 }),
};

/** A model that must not be called: it counts the attempts and throws. */
function forbiddenModel(): StreamingModel & { calls: number } {
  const model = {
    name: 'forbidden',
    calls: 0,
    generate(): Promise<ModelResponse> {
      model.calls += 1;
      return Promise.reject(new Error('the model was called during replay'));
    },
    stream(): Promise<ModelResponse> {
      model.calls += 1;
      return Promise.reject(new Error('the model was called during replay'));
    },
  };
  return model;
}

interface Counted {
  tool: Tool;
  calls: () => number;
}

function weatherTool(run: (city: string) => string | Promise<string>): Counted {
  let calls = 0;
  const tool = defineTool({
    name: 'weather',
    description: 'the weather of a city',
    schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: (args) => {
      calls += 1;
      return run((args as { city: string }).city);
    },
  });
  return { tool: tool, calls: () => calls };
}

function liveAgent(instructions = 'You report the weather.'): {
  agent: Agent;
  model: ScriptedModel;
  weather: Counted;
} {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'weather', args: { city: 'Lagos' } }], {
      inputTokens: 10,
      outputTokens: 3,
    }),
    textResponse('Sunny in Lagos', { inputTokens: 20, outputTokens: 4 }),
  ]);
  const weather = weatherTool((city) => `sunny, 31C in ${city}`);
  return { agent: new Agent({ model, instructions, tools: [weather.tool] }), model, weather };
}

function replayAgent(
  instructions = 'You report the weather.',
  model: Model = forbiddenModel(),
): { agent: Agent; weather: Counted } {
  const weather = weatherTool(() => {
    throw new Error('the tool ran during replay');
  });
  return { agent: new Agent({ model, instructions, tools: [weather.tool] }), weather };
}

function cassettes(
  mode: CassetteOptions['mode'],
  extra: Partial<CassetteOptions> = {},
): CassetteOptions {
  return { dir, mode, ...extra };
}

const lagos = [{ name: 'lagos', input: 'Weather in Lagos?' }];

function readFile(caseName: string, repeat = 0): CassetteFile {
  return JSON.parse(fs.readFileSync(cassettePath(dir, caseName, repeat), 'utf8')) as CassetteFile;
}

describe('record and replay', () => {
  it('records a case run, then replays it without the model or the tools', async () => {
    const live = liveAgent();
    const recorded = await runExperiment({
      name: 'record',
      dataset: dataset(lagos),
      task: live.agent,
      evaluators: [sunny],
      cassettes: cassettes('record'),
    });
    expect(live.model.requests).toHaveLength(2);
    expect(live.weather.calls()).toBe(1);
    const file = readFile('lagos');
    expect(file).toMatchObject({ golemCassette: 1, case: 'lagos', repeat: 0 });
    expect(file.calls.map((c) => c.type)).toEqual(['model', 'tool', 'model']);
    expect(file.calls[1]).toMatchObject({
      tool: 'weather',
      callId: 'call-1',
      args: { city: 'Lagos' },
      result: 'sunny, 31C in Lagos',
    });
    expect(recorded.cases[0]?.runs[0]?.replayed).toBe(false);

    fs.writeFileSync(
      cassettePath(dir, 'lagos', 0),
      JSON.stringify({ ...file, durationMs: 1234 }),
      'utf8',
    );
    const model = forbiddenModel();
    const replay = replayAgent(undefined, model);
    const replayed = await runExperiment({
      name: 'replay',
      dataset: dataset(lagos),
      task: replay.agent,
      evaluators: [sunny],
      cassettes: cassettes('replay'),
    });
    const before = recorded.cases[0]?.runs[0];
    const after = replayed.cases[0]?.runs[0];
    expect(after?.error).toBeUndefined();
    expect(model.calls).toBe(0);
    expect(replay.weather.calls()).toBe(0);
    expect(after?.output).toBe('Sunny in Lagos');
    expect(after?.output).toEqual(before?.output);
    expect(after?.scores).toEqual(before?.scores);
    expect(after?.toolCalls).toEqual(before?.toolCalls);
    expect(after?.usage).toEqual({ inputTokens: 30, outputTokens: 7 });
    expect(after?.durationMs).toBe(1234);
    expect(after?.replayed).toBe(true);
    expect(replayed.summary.replayed).toBe(1);
    expect(replayed.summary.latency.max).toBe(1234);
  });

  it('fails a strict replay whose request changed, naming the case', async () => {
    await runExperiment({
      name: 'record',
      dataset: dataset(lagos),
      task: liveAgent().agent,
      cassettes: cassettes('record'),
    });
    const report = await runExperiment({
      name: 'replay',
      dataset: dataset(lagos),
      task: replayAgent('You report the weather, briefly.').agent,
      cassettes: cassettes('replay'),
    });
    const error = report.cases[0]?.runs[0]?.error;
    expect(error).toMatchObject({ name: 'EvalError', stage: 'cassette-mismatch' });
    expect(error?.message).toContain('case "lagos"');
    expect(error?.message).toContain('model call 1');
    expect(error?.message).toContain("mode 'record'");
  });

  it("replays by position with match 'order'", async () => {
    await runExperiment({
      name: 'record',
      dataset: dataset(lagos),
      task: liveAgent().agent,
      cassettes: cassettes('record'),
    });
    const report = await runExperiment({
      name: 'replay',
      dataset: dataset(lagos),
      task: replayAgent('Different instructions.').agent,
      cassettes: cassettes('replay', { match: 'order' }),
    });
    expect(report.cases[0]?.runs[0]).toMatchObject({ output: 'Sunny in Lagos', replayed: true });
  });

  it('fails a replay without a cassette as cassette-missing', async () => {
    const report = await runExperiment({
      name: 'replay',
      dataset: dataset(lagos),
      task: replayAgent().agent,
      cassettes: cassettes('replay'),
    });
    const error = report.cases[0]?.runs[0]?.error;
    expect(error).toMatchObject({ name: 'EvalError', stage: 'cassette-missing' });
    expect(error?.message).toContain('case "lagos"');
  });

  it('fails when the run asks for more model calls than were recorded', async () => {
    fs.writeFileSync(
      cassettePath(dir, 'lagos', 0),
      JSON.stringify({
        golemCassette: 1,
        case: 'lagos',
        repeat: 0,
        recordedAt: '2026-01-01T00:00:00.000Z',
        durationMs: 5,
        calls: [],
      }),
    );
    const report = await runExperiment({
      name: 'replay',
      dataset: dataset(lagos),
      task: replayAgent().agent,
      cassettes: cassettes('replay'),
    });
    expect(report.cases[0]?.runs[0]?.error?.stage).toBe('cassette-missing');
  });

  it('records in auto mode when there is no cassette, and replays once there is', async () => {
    const live = liveAgent();
    const first = await runExperiment({
      name: 'auto',
      dataset: dataset(lagos),
      task: live.agent,
      cassettes: dir,
    });
    expect(first.cases[0]?.runs[0]?.replayed).toBe(false);
    const second = await runExperiment({
      name: 'auto',
      dataset: dataset(lagos),
      task: live.agent,
      cassettes: dir,
    });
    expect(second.cases[0]?.runs[0]).toMatchObject({ replayed: true, output: 'Sunny in Lagos' });
    expect(live.model.requests).toHaveLength(2);
  });

  it('replays a recorded tool error as the same correction', async () => {
    let attempts = 0;
    const flaky = (live: boolean): Tool =>
      defineTool({
        name: 'weather',
        description: 'the weather of a city',
        schema: { type: 'object' },
        execute: () => {
          if (!live) throw new Error('the tool ran during replay');
          attempts += 1;
          if (attempts === 1) throw new ModelRetry('city is required');
          return 'sunny';
        },
      });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'weather' }]),
      toolCallResponse([{ id: 'c2', name: 'weather' }]),
      textResponse('Sunny'),
    ]);
    const options = { toolRetries: 1 };
    const run = (agent: Agent, mode: CassetteOptions['mode']) =>
      runExperiment({
        name: 'tool-error',
        dataset: dataset(lagos),
        task: agent,
        cassettes: cassettes(mode),
      });
    const recorded = await run(new Agent({ model, tools: [flaky(true)], ...options }), 'record');
    expect(readFile('lagos').calls[1]).toMatchObject({
      type: 'tool',
      callId: 'c1',
      error: { name: 'ModelRetry', message: 'city is required' },
    });
    const replayed = await run(
      new Agent({ model: forbiddenModel(), tools: [flaky(false)], ...options }),
      'replay',
    );
    expect(replayed.cases[0]?.runs[0]?.error).toBeUndefined();
    expect(replayed.cases[0]?.runs[0]?.messages).toEqual(recorded.cases[0]?.runs[0]?.messages);
    expect(attempts).toBe(2);
  });

  it('writes nothing for a failing attempt', async () => {
    const live = liveAgent();
    const report = await runExperiment({
      name: 'record',
      dataset: dataset(lagos),
      task: async (input: string, ctx: TaskContext) => {
        await live.agent.run(input, { ...ctx.runOptions });
        throw new Error('task failed after the run');
      },
      cassettes: cassettes('record'),
    });
    expect(report.cases[0]?.runs[0]?.error?.message).toBe('task failed after the run');
    expect(fs.existsSync(cassettePath(dir, 'lagos', 0))).toBe(false);
  });

  it('records one file per repeat', async () => {
    const model = new ScriptedModel([textResponse('one'), textResponse('two')]);
    const agent = new Agent({ model });
    const report = await runExperiment({
      name: 'repeat',
      dataset: dataset([{ name: 'r', input: 'go' }]),
      task: agent,
      repeat: 2,
      concurrency: 1,
      cassettes: cassettes('record'),
    });
    expect(report.cases[0]?.runs.map((r) => r.output)).toEqual(['one', 'two']);
    expect(fs.readdirSync(dir).sort()).toEqual(['r.json', 'r.r1.json']);
    const replayed = await runExperiment({
      name: 'repeat',
      dataset: dataset([{ name: 'r', input: 'go' }]),
      task: new Agent({ model: forbiddenModel() }),
      repeat: 2,
      cassettes: cassettes('replay'),
    });
    expect(replayed.cases[0]?.runs.map((r) => r.output)).toEqual(['one', 'two']);
  });
});

describe('streams, ambient cassettes and parallel tools', () => {
  it('replays a streamed run’s fragments in order', async () => {
    const streamTask =
      (agent: Agent) =>
      async (input: string, ctx: TaskContext): Promise<unknown> => {
        const deltas: Delta[] = [];
        const stream = agent.runStream(input, { ...ctx.runOptions });
        for await (const delta of stream) deltas.push(delta);
        const result = await stream.result;
        return { ...result, output: { text: result.output, deltas } };
      };
    const live = liveAgent();
    const recorded = await runExperiment({
      name: 'stream',
      dataset: dataset(lagos),
      task: streamTask(live.agent),
      cassettes: cassettes('record'),
    });
    const recordedOutput = recorded.cases[0]?.runs[0]?.output as unknown as { deltas: Delta[] };
    expect(recordedOutput.deltas.length).toBeGreaterThan(1);
    const file = readFile('lagos');
    const models = file.calls.filter((c) => c.type === 'model');
    expect(models.every((c) => Array.isArray(c.deltas))).toBe(true);

    const model = forbiddenModel();
    const replayed = await runExperiment({
      name: 'stream',
      dataset: dataset(lagos),
      task: streamTask(replayAgent(undefined, model).agent),
      cassettes: cassettes('replay'),
    });
    const run = replayed.cases[0]?.runs[0];
    expect(run?.error).toBeUndefined();
    expect(model.calls).toBe(0);
    expect(run?.output).toEqual(recorded.cases[0]?.runs[0]?.output);
  });

  it('follows GOLEM_EVAL_CASSETTES over the configured mode', async () => {
    process.env[CASSETTE_MODE_ENV] = 'replay';
    const report = await runExperiment({
      name: 'env',
      dataset: dataset(lagos),
      task: liveAgent().agent,
      cassettes: cassettes('record'),
    });
    expect(report.cases[0]?.runs[0]?.error?.stage).toBe('cassette-missing');

    process.env[CASSETTE_MODE_ENV] = 'off';
    const live = liveAgent();
    const off = await runExperiment({
      name: 'env',
      dataset: dataset(lagos),
      task: live.agent,
      cassettes: cassettes('record'),
    });
    expect(off.cases[0]?.runs[0]?.output).toBe('Sunny in Lagos');
    expect(fs.readdirSync(dir)).toEqual([]);

    process.env[CASSETTE_MODE_ENV] = 'sometimes';
    await expect(
      runExperiment({
        name: 'env',
        dataset: dataset(lagos),
        task: live.agent,
        cassettes: dir,
      }),
    ).rejects.toMatchObject({ name: 'ConfigError', option: CASSETTE_MODE_ENV });
  });

  it('records and replays an agent that carries evalCassette() itself', async () => {
    const model = new ScriptedModel([textResponse('Sunny in Lagos')]);
    const agent = new Agent({ model, middleware: [evalCassette()] });
    const task = (a: Agent) => async (input: string) => (await a.run(input)).output;
    await runExperiment({
      name: 'ambient',
      dataset: dataset(lagos),
      task: task(agent),
      cassettes: cassettes('record'),
    });
    expect(readFile('lagos').calls.map((c) => c.type)).toEqual(['model']);

    const forbidden = forbiddenModel();
    const replayed = await runExperiment({
      name: 'ambient',
      dataset: dataset(lagos),
      task: task(new Agent({ model: forbidden, middleware: [evalCassette()] })),
      cassettes: cassettes('replay'),
    });
    expect(replayed.cases[0]?.runs[0]).toMatchObject({ output: 'Sunny in Lagos', replayed: true });
    expect(forbidden.calls).toBe(0);
  });

  it('records once when the run options and the agent both carry the cassette', async () => {
    const live = liveAgent();
    const agent = new Agent({
      model: live.model,
      instructions: 'You report the weather.',
      tools: [live.weather.tool],
      middleware: [evalCassette()],
    });
    await runExperiment({
      name: 'both',
      dataset: dataset(lagos),
      task: (input: string, ctx: TaskContext) => agent.run(input, { ...ctx.runOptions }),
      cassettes: cassettes('record'),
    });
    expect(readFile('lagos').calls.map((c) => c.type)).toEqual(['model', 'tool', 'model']);
  });

  it('passes every call through outside an experiment', async () => {
    const model = new ScriptedModel([textResponse('plain')]);
    const agent = new Agent({ model, middleware: [evalCassette()] });
    expect((await agent.run('hi')).output).toBe('plain');
  });

  it('replays parallel tool calls by call id', async () => {
    let releaseA: () => void = () => undefined;
    const aWaits = new Promise<void>((resolve) => {
      releaseA = resolve;
    });
    const tools = (live: boolean): Tool[] => [
      defineTool({
        name: 'a',
        description: 'tool a',
        schema: { type: 'object' },
        execute: async () => {
          if (!live) throw new Error('tool a ran during replay');
          await aWaits;
          return 'result of a';
        },
      }),
      defineTool({
        name: 'b',
        description: 'tool b',
        schema: { type: 'object' },
        execute: () => {
          if (!live) throw new Error('tool b ran during replay');
          releaseA();
          return 'result of b';
        },
      }),
    ];
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'id-a', name: 'a' },
        { id: 'id-b', name: 'b' },
      ]),
      textResponse('both done'),
    ]);
    const options = { parallelToolCalls: true };
    const run = (agent: Agent, mode: CassetteOptions['mode']) =>
      runExperiment({
        name: 'parallel',
        dataset: dataset([{ name: 'par', input: 'do both' }]),
        task: agent,
        cassettes: cassettes(mode),
      });
    await run(new Agent({ model, tools: tools(true), ...options }), 'record');
    const toolCalls = readFile('par').calls.filter((c) => c.type === 'tool');
    expect(toolCalls.map((c) => c.callId)).toEqual(['id-b', 'id-a']);

    const replayed = await run(
      new Agent({ model: forbiddenModel(), tools: tools(false), ...options }),
      'replay',
    );
    const result = replayed.cases[0]?.runs[0];
    expect(result?.error).toBeUndefined();
    expect(result?.toolCalls).toEqual([
      { name: 'a', id: 'id-a', args: {}, result: 'result of a' },
      { name: 'b', id: 'id-b', args: {}, result: 'result of b' },
    ]);
  });
});

describe('cassette files', () => {
  it('fails a corrupt cassette as cassette-corrupt', async () => {
    fs.writeFileSync(cassettePath(dir, 'lagos', 0), '{"golemCassette": 1, "calls": [', 'utf8');
    const report = await runExperiment({
      name: 'corrupt',
      dataset: dataset(lagos),
      task: replayAgent().agent,
      cassettes: dir,
    });
    const error = report.cases[0]?.runs[0]?.error;
    expect(error).toMatchObject({ name: 'EvalError', stage: 'cassette-corrupt' });
    expect(error?.message).toContain('lagos');

    fs.writeFileSync(
      cassettePath(dir, 'lagos', 0),
      JSON.stringify({
        golemCassette: 1,
        case: 'lagos',
        repeat: 0,
        durationMs: 1,
        calls: [{ type: 'x' }],
      }),
    );
    const shape = await runExperiment({
      name: 'corrupt',
      dataset: dataset(lagos),
      task: replayAgent().agent,
      cassettes: cassettes('replay'),
    });
    expect(shape.cases[0]?.runs[0]?.error?.stage).toBe('cassette-corrupt');
  });

  it('gives odd case names safe and distinct file names', () => {
    const names = ['a/b', 'a?b', 'a_b', 'x.r1', '..', '', 'CON', 'ünï cödé', 'a'.repeat(300)];
    const stems = names.map(safeCaseName);
    expect(new Set(stems).size).toBe(names.length);
    for (const stem of stems) {
      expect(stem).toMatch(/^[A-Za-z0-9._-]+$/);
      expect(stem.startsWith('.')).toBe(false);
      expect(stem.length).toBeLessThanOrEqual(100);
    }
    expect(safeCaseName('plain-name_1.v2')).toBe('plain-name_1.v2');
    expect(cassettePath(dir, 'x', 1)).not.toBe(cassettePath(dir, 'x.r1', 0));
    expect(path.dirname(cassettePath(dir, '../escape', 0))).toBe(dir);
  });

  it('records odd case names into separate files', async () => {
    const model = new ScriptedModel([textResponse('one'), textResponse('two')]);
    await runExperiment({
      name: 'names',
      dataset: dataset([
        { name: 'a/b', input: 'x' },
        { name: 'a?b', input: 'y' },
      ]),
      task: new Agent({ model }),
      concurrency: 1,
      cassettes: cassettes('record'),
    });
    expect(fs.readdirSync(dir)).toHaveLength(2);
    expect(readFile('a/b').case).toBe('a/b');
    expect(readFile('a?b').case).toBe('a?b');
  });
});
