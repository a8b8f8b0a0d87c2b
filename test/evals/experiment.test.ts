import { AsyncLocalStorage } from 'node:async_hooks';
import { Agent, ConfigError, ModelHTTPError, defineTool, type Usage } from 'golem';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import type { Dataset, EvalCase } from '../../src/evals/case';
import { defineExperiment } from '../../src/evals/define-experiment';
import type { EvalContext, Evaluator } from '../../src/evals/evaluator';
import { runExperiment } from '../../src/evals/experiment';
import type {
  CaseRunInfo,
  CaseRunOutcome,
  ExperimentInstrumentation,
  ExperimentProgress,
  TaskContext,
} from '../../src/evals/experiment-types';
import { progressLine, progressReporter } from '../../src/evals/progress';
import { percentile, stdDev } from '../../src/evals/report-build';

function dataset<I>(cases: EvalCase<I>[], evaluators: Evaluator[] = []): Dataset<I> {
  return { name: 'ds', cases, evaluators };
}

function check(name: string, fn: (ctx: EvalContext) => boolean | number): Evaluator {
  return { name, evaluate: fn };
}

const usage = (inputTokens: number, outputTokens: number): Usage => ({ inputTokens, outputTokens });

describe('runExperiment with an agent task', () => {
  it('runs the agent on the prompt and gives its tool calls, turns and usage as evidence', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'weather', args: { city: 'Lagos' } }], usage(10, 2)),
      textResponse('Sunny in Lagos', usage(20, 5)),
    ]);
    const weather = defineTool({
      name: 'weather',
      description: 'weather of a city',
      schema: { type: 'object', properties: { city: { type: 'string' } } },
      execute: (args) => `sunny in ${(args as { city: string }).city}`,
    });
    const agent = new Agent({ model, tools: [weather] });
    let seen: EvalContext | undefined;
    const report = await runExperiment({
      name: 'agent',
      dataset: dataset([{ name: 'lagos', input: 'Weather in Lagos?' }]),
      task: agent,
      evaluators: [
        check('sunny', (ctx) => {
          seen = ctx;
          return String(ctx.output).includes('Sunny');
        }),
      ],
    });
    const run = report.cases[0]?.runs[0];
    expect(run?.error).toBeUndefined();
    expect(run?.pass).toBe(true);
    expect(run?.output).toBe('Sunny in Lagos');
    expect(run?.toolCalls).toEqual([
      { name: 'weather', id: 'c1', args: { city: 'Lagos' }, result: 'sunny in Lagos' },
    ]);
    expect(run?.turns).toBe(2);
    expect(run?.requests).toBe(2);
    expect(run?.usage).toEqual(usage(30, 7));
    expect(run?.messages.length).toBe(4);
    expect(seen?.events.some((e) => e.kind === 'tool_start')).toBe(true);
    expect(seen?.input).toBe('Weather in Lagos?');
    expect(model.requests[0]?.messages.at(-1)?.content).toBe('Weather in Lagos?');
  });

  it('passes deps and history from an object input', async () => {
    const model = new FunctionModel((request) =>
      textResponse(`${request.messages.length} messages`),
    );
    const agent = new Agent<{ who: string }>({
      model,
      instructions: (ctx) => `help ${ctx.deps.who}`,
    });
    const report = await runExperiment({
      name: 'deps',
      dataset: dataset([
        {
          name: 'one',
          input: {
            prompt: 'hi',
            deps: { who: 'Ada' },
            history: [
              { role: 'user' as const, content: 'before' },
              { role: 'assistant' as const, content: 'ok' },
            ],
          },
        },
      ]),
      task: agent,
    });
    expect(report.cases[0]?.runs[0]?.output).toBe('4 messages');
    expect(model.requests[0]?.messages[0]?.content).toBe('help Ada');
  });

  it('fails a case whose input is not a prompt, naming the case', async () => {
    const agent = new Agent({ model: new ScriptedModel([]) });
    const report = await runExperiment({
      name: 'bad',
      dataset: dataset<unknown>([{ name: 'numeric', input: 42 }]),
      task: agent,
    });
    const error = report.cases[0]?.runs[0]?.error;
    expect(error?.name).toBe('EvalError');
    expect(error?.message).toContain('case "numeric"');
    expect(error?.message).toContain('string prompt');
  });

  it('reports a paused run as a case error', async () => {
    const model = new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'book' }])]);
    const book = defineTool({
      name: 'book',
      description: 'books',
      schema: { type: 'object' },
      approval: true,
      execute: () => 'booked',
    });
    const agent = new Agent({ model, tools: [book], deferredTools: true });
    const report = await runExperiment({
      name: 'paused',
      dataset: dataset([{ name: 'p', input: 'book it' }]),
      task: agent,
    });
    const run = report.cases[0]?.runs[0];
    expect(run?.pass).toBe(false);
    expect(run?.error?.stage).toBe('paused');
    expect(run?.error?.message).toContain('book');
  });
});

describe('runExperiment with a function task', () => {
  it('takes a plain return value as the output', async () => {
    const report = await runExperiment({
      name: 'fn',
      dataset: dataset([{ name: 'a', input: 2, expected: 4 }]),
      task: (n: number) => n * 2,
      evaluators: [check('eq', (ctx) => ctx.output === ctx.expected)],
    });
    const run = report.cases[0]?.runs[0];
    expect(run).toMatchObject({ output: 4, pass: true, turns: 0, requests: 0, messages: [] });
    expect(report.cases[0]?.expected).toBe(4);
  });

  it('takes a golem Result as evidence', async () => {
    const model = new ScriptedModel([textResponse('hello', usage(3, 4))]);
    const agent = new Agent({ model });
    const report = await runExperiment({
      name: 'fn-result',
      dataset: dataset([{ name: 'a', input: 'hi' }]),
      task: (input: string, ctx: TaskContext) => agent.run(input, { ...ctx.runOptions }),
      evaluators: [check('events', (ctx) => ctx.events.length > 0)],
    });
    const run = report.cases[0]?.runs[0];
    expect(run?.output).toBe('hello');
    expect(run?.usage).toEqual(usage(3, 4));
    expect(run?.turns).toBe(1);
    expect(run?.requests).toBe(1);
    expect(run?.scores[0]?.pass).toBe(true);
  });

  it('serialises class instances and drops undefined fields in the output', async () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number | undefined,
      ) {}
    }
    const report = await runExperiment({
      name: 'json',
      dataset: dataset([{ name: 'a', input: null }]),
      task: () => ({ p: new Point(1, undefined), big: 10n, when: new Date(0) }),
    });
    expect(report.cases[0]?.runs[0]?.output).toEqual({
      p: { x: 1 },
      big: '10',
      when: '1970-01-01T00:00:00.000Z',
    });
  });
});

describe('evaluators', () => {
  it('runs the dataset’s, then the experiment’s, then the case’s, numbering duplicates', async () => {
    const order: string[] = [];
    const named = (name: string, tag: string): Evaluator => ({
      name,
      evaluate: () => {
        order.push(tag);
        return true;
      },
    });
    const report = await runExperiment({
      name: 'order',
      dataset: dataset(
        [{ name: 'a', input: 1, evaluators: [named('x', 'case')] }],
        [named('x', 'dataset')],
      ),
      task: (n: unknown) => n,
      evaluators: [named('x', 'experiment'), named('y', 'experiment2')],
    });
    expect(order).toEqual(['dataset', 'experiment', 'experiment2', 'case']);
    expect(report.cases[0]?.runs[0]?.scores.map((s) => s.name)).toEqual(['x', 'x#2', 'y', 'x#3']);
  });

  it('fails the run when one evaluator fails or throws, and keeps the error', async () => {
    const report = await runExperiment({
      name: 'fail',
      dataset: dataset([{ name: 'a', input: 1 }]),
      task: (n: number) => n,
      evaluators: [
        check('ok', () => true),
        {
          name: 'boom',
          evaluate: () => {
            throw new Error('judge down');
          },
        },
      ],
    });
    const run = report.cases[0]?.runs[0];
    expect(run?.pass).toBe(false);
    expect(run?.scores[1]).toMatchObject({ name: 'boom', pass: false, error: 'judge down' });
    expect(report.summary.evaluators.find((e) => e.name === 'boom')?.errors).toBe(1);
  });
});

describe('repeat and concurrency', () => {
  it('runs each case N times in repeat order with the score spread', async () => {
    const report = await runExperiment({
      name: 'repeat',
      dataset: dataset([{ name: 'a', input: 0 }]),
      repeat: 4,
      concurrency: 1,
      task: (_: number, ctx: TaskContext) => ctx.repeat,
      evaluators: [check('even', (ctx) => (ctx.repeat % 2 === 0 ? 1 : 0))],
    });
    const c = report.cases[0];
    expect(c?.runs.map((r) => r.repeat)).toEqual([0, 1, 2, 3]);
    expect(c?.runs.map((r) => r.output)).toEqual([0, 1, 2, 3]);
    expect(c?.passRate).toBe(0.5);
    expect(c?.meanScore).toBe(0.5);
    expect(c?.scoreStdDev).toBe(0.5);
    expect(report.repeat).toBe(4);
    expect(report.summary.runs).toBe(4);
  });

  it('never has more case runs in flight than the concurrency', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let waiting: (() => void)[] = [];
    const task = async (): Promise<string> => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length === 2) {
          const release = waiting;
          waiting = [];
          for (const r of release) r();
        }
      });
      inFlight -= 1;
      return 'done';
    };
    const cases = Array.from({ length: 6 }, (_, i) => ({ name: `c${i}`, input: i }));
    const report = await runExperiment({
      name: 'pool',
      dataset: dataset(cases),
      task,
      concurrency: 2,
    });
    expect(maxInFlight).toBe(2);
    expect(report.cases.map((c) => c.name)).toEqual(cases.map((c) => c.name));
    expect(report.summary.passed).toBe(6);
  });
});

describe('retries and timeouts', () => {
  it('retries a retryable error with the doubling wait', async () => {
    const waits: number[] = [];
    let calls = 0;
    const report = await runExperiment({
      name: 'retry',
      dataset: dataset([{ name: 'a', input: 1 }]),
      retries: 3,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
      task: (_: number, ctx: TaskContext) => {
        calls += 1;
        if (ctx.attempt < 3)
          throw new ModelHTTPError({ status: ctx.attempt === 1 ? 429 : 503, provider: 'test' });
        return 'ok';
      },
    });
    const run = report.cases[0]?.runs[0];
    expect(run?.pass).toBe(true);
    expect(run?.attempts).toBe(3);
    expect(calls).toBe(3);
    expect(waits).toEqual([250, 500]);
  });

  it('retries an agent run that failed on a retryable provider error', async () => {
    const model = new ScriptedModel([
      new ModelHTTPError({ status: 429, provider: 'test' }),
      textResponse('second time lucky'),
    ]);
    const report = await runExperiment({
      name: 'agent-retry',
      dataset: dataset([{ name: 'a', input: 'hi' }]),
      task: new Agent({ model }),
      retries: 1,
      sleep: () => Promise.resolve(),
    });
    expect(report.cases[0]?.runs[0]).toMatchObject({
      attempts: 2,
      pass: true,
      output: 'second time lucky',
    });
  });

  it('does not retry a non-retryable error', async () => {
    const waits: number[] = [];
    const report = await runExperiment({
      name: 'no-retry',
      dataset: dataset([{ name: 'a', input: 1 }]),
      retries: 3,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
      task: () => {
        throw new ModelHTTPError({ status: 400, provider: 'test', message: 'bad request' });
      },
    });
    const run = report.cases[0]?.runs[0];
    expect(run?.attempts).toBe(1);
    expect(run?.error).toMatchObject({ name: 'ModelHTTPError' });
    expect(run?.error?.message).toContain('bad request');
    expect(waits).toEqual([]);
  });

  it('gives up after the retries, reporting the last error', async () => {
    const report = await runExperiment({
      name: 'exhausted',
      dataset: dataset([{ name: 'a', input: 1 }]),
      retries: 1,
      sleep: () => Promise.resolve(),
      task: () => {
        throw new ModelHTTPError({ status: 503, provider: 'test' });
      },
    });
    expect(report.cases[0]?.runs[0]).toMatchObject({ attempts: 2, pass: false });
    expect(report.summary.errored).toBe(1);
  });

  it('fails a case that passes its timeout', async () => {
    const report = await runExperiment({
      name: 'timeout',
      dataset: dataset([
        { name: 'slow', input: 1 },
        { name: 'deaf', input: 2 },
      ]),
      timeout: 5,
      task: (n: number, ctx: TaskContext) =>
        n === 1
          ? new Promise((_, reject) => {
              ctx.signal.addEventListener('abort', () => {
                reject(ctx.signal.reason as Error);
              });
            })
          : new Promise(() => undefined),
    });
    for (const c of report.cases) {
      const error = c.runs[0]?.error;
      expect(error?.name).toBe('DeadlineExceededError');
      expect(error?.message).toContain(`case "${c.name}" exceeded its timeout of 5 ms`);
    }
  });
});

describe('progress and instrumentation', () => {
  it('calls the progress function after each case run', async () => {
    const seen: ExperimentProgress[] = [];
    await runExperiment({
      name: 'progress',
      dataset: dataset([
        { name: 'a', input: 1 },
        { name: 'b', input: 2 },
      ]),
      concurrency: 1,
      task: (n: number) => n,
      evaluators: [check('one', (ctx) => ctx.output === 1)],
      progress: (p) => seen.push(p),
    });
    expect(seen).toEqual([
      { done: 1, total: 2, passed: 1, failed: 0, caseName: 'a', repeat: 0 },
      { done: 2, total: 2, passed: 1, failed: 1, caseName: 'b', repeat: 0 },
    ]);
  });

  it('draws a bar on a terminal stream only', () => {
    const progress = {
      done: 1,
      total: 4,
      passed: 1,
      failed: 0,
      caseName: 'a',
      repeat: 0,
    };
    const written: string[] = [];
    const pipe = progressReporter(true, { isTTY: false, write: (t: string) => written.push(t) });
    pipe.update(progress);
    pipe.finish();
    expect(written).toEqual([]);
    const tty = progressReporter(true, { isTTY: true, write: (t: string) => written.push(t) });
    tty.update(progress);
    tty.finish();
    expect(written).toHaveLength(2);
    expect(written[0]).toContain(progressLine(progress));
    expect(progressLine(progress)).toBe(
      `[${'#'.repeat(6)}${'-'.repeat(18)}] 1/4 passed 1 failed 0 a`,
    );
    expect(written[1]).toBe('\n');
  });

  it('wraps the experiment and nests each case run inside it', async () => {
    const log: string[] = [];
    const outcomes: CaseRunOutcome[] = [];
    const scope = new AsyncLocalStorage<string>();
    const instrumentation: ExperimentInstrumentation = {
      async experiment(info, fn) {
        log.push(`start ${info.name} ${info.dataset} ${info.cases}x${info.repeat}`);
        const result = await scope.run('experiment', fn);
        log.push('end');
        return result;
      },
      caseRun(info: CaseRunInfo, fn) {
        log.push(`case ${info.caseName}#${info.repeat} in ${scope.getStore() ?? 'none'}`);
        return scope.run(`case ${info.caseName}`, () => fn((o) => outcomes.push(o)));
      },
    };
    const report = await runExperiment({
      name: 'inst',
      dataset: dataset([{ name: 'a', input: 1 }]),
      repeat: 2,
      concurrency: 1,
      task: () => scope.getStore(),
      instrumentation,
      evaluators: [check('ok', () => 0.75)],
    });
    expect(log).toEqual([
      'start inst ds 1x2',
      'case a#0 in experiment',
      'case a#1 in experiment',
      'end',
    ]);
    expect(report.cases[0]?.runs[0]?.output).toBe('case a');
    expect(outcomes[0]).toMatchObject({
      pass: true,
      replayed: false,
      scores: [{ name: 'ok', score: 0.75, pass: true }],
    });
    expect(outcomes[0]?.error).toBeUndefined();
  });
});

describe('the report', () => {
  it('sums runs exactly', async () => {
    const report = await runExperiment({
      name: 'sums',
      dataset: dataset<number>([
        { name: 'a', input: 1, metadata: { tag: 'x', gone: undefined } },
        { name: 'b', input: 2 },
        { name: 'c', input: 3 },
      ]),
      metadata: { model: 'm1' },
      task: (n: number) => {
        if (n === 3) throw new Error('broken');
        return { output: n, messages: [], usage: usage(n * 10, n), cost: { total: n / 4 } };
      },
      evaluators: [
        {
          name: 'judge',
          evaluate: (ctx) => ({
            score: ctx.output === 1 ? 1 : 0.25,
            usage: usage(5, 1),
            cost: 0.125,
          }),
        },
      ],
    });
    const { summary } = report;
    expect(summary).toMatchObject({
      cases: 3,
      runs: 3,
      passed: 1,
      failed: 2,
      errored: 1,
      usage: usage(30, 3),
      cost: 0.75,
      evaluatorUsage: usage(10, 2),
      evaluatorCost: 0.25,
      replayed: 0,
    });
    expect(summary.passRate).toBeCloseTo(1 / 3, 12);
    expect(summary.meanScore).toBeCloseTo((1 + 0.25 + 0) / 3, 12);
    expect(summary.evaluators).toEqual([
      { name: 'judge', count: 2, passRate: 0.5, meanScore: 0.625, errors: 0 },
    ]);
    expect(report.cases[0]?.metadata).toEqual({ tag: 'x' });
    expect(report.cases[2]?.runs[0]?.error).toEqual({ name: 'Error', message: 'broken' });
    expect(report.metadata).toEqual({ model: 'm1' });
    expect(report.golemEvalReport).toBe(1);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('leaves cost out when nothing is priced', async () => {
    const report = await runExperiment({
      name: 'unpriced',
      dataset: dataset([{ name: 'a', input: 1 }]),
      task: (n: number) => n,
    });
    expect('cost' in report.summary).toBe(false);
    expect('evaluatorCost' in report.summary).toBe(false);
  });

  it('computes nearest-rank percentiles and the population deviation', () => {
    const values = [15, 20, 35, 40, 50];
    expect(percentile(values, 30)).toBe(20);
    expect(percentile(values, 40)).toBe(20);
    expect(percentile(values, 50)).toBe(35);
    expect(percentile(values, 100)).toBe(50);
    expect(percentile(values, 0)).toBe(15);
    expect(percentile([], 50)).toBe(0);
    expect(stdDev([2, 4, 4, 4, 5, 5, 7, 9])).toBe(2);
    expect(stdDev([3])).toBe(0);
  });
});

describe('options', () => {
  it.each([
    ['name', { name: '' }],
    ['concurrency', { concurrency: 0 }],
    ['repeat', { repeat: 1.5 }],
    ['retries', { retries: -1 }],
    ['timeout', { timeout: 0 }],
    ['task', { task: 42 }],
    ['cassettes.mode', { cassettes: { dir: 'x', mode: 'sometimes' } }],
  ])('rejects a bad %s with ConfigError', async (option, patch) => {
    const options = {
      name: 'ok',
      dataset: dataset([{ name: 'a', input: 1 }]),
      task: (n: number) => n,
      ...patch,
    } as Parameters<typeof runExperiment>[0];
    await expect(runExperiment(options)).rejects.toMatchObject({
      name: 'ConfigError',
      component: 'evals',
      option,
    });
    expect(() => defineExperiment(options)).toThrow(ConfigError);
  });

  it('defineExperiment keeps thresholds and runs with overrides', async () => {
    const experiment = defineExperiment({
      name: 'def',
      dataset: dataset([{ name: 'a', input: 1 }]),
      task: (n: number, ctx: TaskContext) => n + ctx.repeat,
      thresholds: { passRate: 0.9 },
    });
    expect(experiment.thresholds).toEqual({ passRate: 0.9 });
    expect('thresholds' in experiment.options).toBe(false);
    const report = await experiment.run({ repeat: 2 });
    expect(report.cases[0]?.runs.map((r) => r.output)).toEqual([1, 2]);
    expect(() => defineExperiment({ ...experiment.options, thresholds: { passRate: 2 } })).toThrow(
      /thresholds.passRate/,
    );
  });

  it('rejects with the cancellation when the signal aborts', async () => {
    const controller = new AbortController();
    const run = runExperiment({
      name: 'abort',
      dataset: dataset([
        { name: 'a', input: 1 },
        { name: 'b', input: 2 },
      ]),
      concurrency: 1,
      signal: controller.signal,
      task: (n: number) => {
        controller.abort();
        return n;
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'CancelledError' });
  });
});

describe('turns', () => {
  test('count the run’s own model turns: history given to the case does not count, a retried call counts once', async () => {
    let calls = 0;
    const model = new FunctionModel(() => {
      calls += 1;
      if (calls === 1) throw new ModelHTTPError({ status: 503, message: 'busy', provider: 'test' });
      return textResponse('Still sunny.');
    });
    const agent = new Agent({ model, maxAttempts: 2, retryBackoff: () => 0 });
    const seen: number[] = [];
    const report = await runExperiment({
      name: 'turns',
      dataset: {
        name: 'd',
        cases: [
          {
            name: 'follow-up',
            input: {
              prompt: 'And tomorrow?',
              history: [
                { role: 'user', content: 'Weather?' },
                { role: 'assistant', content: 'Sunny.' },
                { role: 'user', content: 'Sure?' },
                { role: 'assistant', content: 'Yes.' },
              ],
            },
          },
        ],
        evaluators: [
          {
            name: 'turns',
            evaluate: (ctx: EvalContext) => {
              seen.push(ctx.turns);
              return true;
            },
          },
        ],
      },
      task: agent,
    });
    expect(report.cases[0]?.runs[0]?.error).toBeUndefined();
    expect(seen).toEqual([1]);
    expect(report.cases[0]?.runs[0]?.turns).toBe(1);
    expect(report.cases[0]?.runs[0]?.requests).toBe(2);
  });
});
