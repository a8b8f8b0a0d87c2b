import { SpanStatusCode } from '@opentelemetry/api';
import { Agent } from 'golem';
import { evalTracing, EVAL_ATTR, otelInstrumentation } from 'golem/otel';
import { ScriptedModel, textResponse } from 'golem/testing';
import { defineDataset, evaluator, runExperiment } from 'golem/evals';
import { named, otelHarness, spanTree, type OtelHarness } from './harness';

// evalTracing(): an experiment span, a child span per case run with its outcome, and the agent's
// own spans (otelInstrumentation) nested under the case span — with the real SDK.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

function tracing() {
  return evalTracing({ tracer: otel.tracerProvider.getTracer('eval-test') });
}

function agentAnswering(...answers: string[]) {
  return new Agent({
    name: 'echo',
    model: new ScriptedModel(
      answers.map((answer) => textResponse(answer)),
      { name: 'test-model' },
    ),
    instrumentation: otelInstrumentation({
      tracerProvider: otel.tracerProvider,
      metrics: false,
    }),
  });
}

describe('evalTracing hooks', () => {
  test('an experiment span with its attributes, a case span under it, and the agent spans under that', async () => {
    const instrumentation = tracing();
    const agent = agentAnswering('Lagos');
    const result = await instrumentation.experiment(
      { name: 'baseline', dataset: 'cities', cases: 1, repeat: 1 },
      () =>
        instrumentation.caseRun(
          { experiment: 'baseline', caseName: 'capital', repeat: 0 },
          async (report) => {
            const run = await agent.run('Capital of Nigeria?');
            report({
              pass: true,
              scores: [
                { name: 'contains', score: 1, pass: true },
                { name: 'polite', score: 0.75, pass: true },
              ],
              replayed: false,
              durationMs: 12,
            });
            return run.output;
          },
        ),
    );
    expect(result).toBe('Lagos');
    const spans = otel.spans();
    expect(spanTree(spans)).toBe(
      [
        'eval baseline',
        '  eval.case capital',
        '    invoke_agent echo',
        '      chat test-model',
      ].join('\n'),
    );
    const [experiment] = named(spans, 'eval baseline');
    const [caseSpan] = named(spans, 'eval.case capital');
    expect(experiment?.attributes).toEqual({
      'golem.eval.experiment': 'baseline',
      'golem.eval.dataset': 'cities',
      'golem.eval.cases': 1,
      'golem.eval.repeat': 1,
      'golem.eval.passed': 1,
      'golem.eval.failed': 0,
      'golem.eval.pass_rate': 1,
    });
    expect(caseSpan?.attributes).toEqual({
      'golem.eval.experiment': 'baseline',
      'golem.eval.case': 'capital',
      'golem.eval.repeat': 0,
      'golem.eval.pass': true,
      'golem.eval.replayed': false,
      'golem.eval.duration_ms': 12,
      'golem.eval.score.contains': 1,
      'golem.eval.score.polite': 0.75,
    });
    expect(caseSpan?.status.code).toBe(SpanStatusCode.UNSET);
    expect(experiment?.status.code).toBe(SpanStatusCode.UNSET);
  });

  test('a failed case run is an ERROR span naming its error, or the evaluators that failed', async () => {
    const instrumentation = tracing();
    await instrumentation.experiment({ name: 'x', dataset: 'd', cases: 2, repeat: 1 }, async () => {
      await instrumentation.caseRun(
        { experiment: 'x', caseName: 'errored', repeat: 0 },
        (report) => {
          report({
            pass: false,
            scores: [],
            error: 'RunError: the model failed',
            replayed: true,
            durationMs: 3,
          });
          return Promise.resolve();
        },
      );
      await instrumentation.caseRun({ experiment: 'x', caseName: 'wrong', repeat: 0 }, (report) => {
        report({
          pass: false,
          scores: [
            { name: 'equals', score: 0, pass: false },
            { name: 'maxTurns', score: 1, pass: true },
            { name: 'contains', score: 0.2, pass: false },
          ],
          replayed: false,
          durationMs: 3,
        });
        return Promise.resolve();
      });
    });
    const [errored] = named(otel.spans(), 'eval.case errored');
    const [wrong] = named(otel.spans(), 'eval.case wrong');
    expect(errored?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'RunError: the model failed',
    });
    expect(errored?.attributes[EVAL_ATTR.replayed]).toBe(true);
    expect(errored?.attributes[EVAL_ATTR.pass]).toBe(false);
    expect(wrong?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'failed: equals, contains',
    });
    const [experiment] = named(otel.spans(), 'eval x');
    expect(experiment?.attributes).toMatchObject({
      [EVAL_ATTR.passed]: 0,
      [EVAL_ATTR.failed]: 2,
      [EVAL_ATTR.passRate]: 0,
    });
    expect(experiment?.status.code).toBe(SpanStatusCode.UNSET);
  });

  test('a hook whose function throws records the exception, ends the span and rethrows', async () => {
    const instrumentation = tracing();
    const boom = new TypeError('broken task');
    await expect(
      instrumentation.experiment({ name: 'x', dataset: 'd', cases: 1, repeat: 1 }, () =>
        instrumentation.caseRun({ experiment: 'x', caseName: 'c', repeat: 2 }, () =>
          Promise.reject(boom),
        ),
      ),
    ).rejects.toBe(boom);
    const [caseSpan] = named(otel.spans(), 'eval.case c');
    const [experiment] = named(otel.spans(), 'eval x');
    for (const span of [caseSpan, experiment]) {
      expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'broken task' });
      expect(span?.attributes['error.type']).toBe('TypeError');
      expect(span?.events.map((event) => event.name)).toEqual(['exception']);
    }
    expect(caseSpan?.attributes[EVAL_ATTR.repeat]).toBe(2);
  });

  test('a case run started outside the experiment context still nests under the open experiment', async () => {
    const instrumentation = tracing();
    let finish!: () => void;
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const experiment = instrumentation.experiment(
      { name: 'detached', dataset: 'd', cases: 1, repeat: 1 },
      () => done,
    );
    // This caseRun runs in the test's context, not the experiment's.
    await instrumentation.caseRun(
      { experiment: 'detached', caseName: 'c', repeat: 0 },
      (report) => {
        report({ pass: true, scores: [], replayed: false, durationMs: 1 });
        return Promise.resolve();
      },
    );
    finish();
    await experiment;
    expect(spanTree(otel.spans())).toBe(['eval detached', '  eval.case c'].join('\n'));
  });

  test('without a tracer it uses the global provider under the golem scope', async () => {
    const { trace } = await import('@opentelemetry/api');
    trace.setGlobalTracerProvider(otel.tracerProvider);
    const instrumentation = evalTracing();
    await instrumentation.experiment({ name: 'g', dataset: 'd', cases: 0, repeat: 1 }, () =>
      Promise.resolve(),
    );
    const [span] = named(otel.spans(), 'eval g');
    expect(span?.instrumentationScope.name).toBe('golem');
  });

  test('a tracer that is not one is a ConfigError of golem/otel', () => {
    expect(() => evalTracing({ tracer: {} as never })).toThrow(
      expect.objectContaining({ name: 'ConfigError', component: 'otel' }) as Error,
    );
  });
});

describe('evalTracing in runExperiment', () => {
  test('every case run is a span under the experiment, with the agent run under its case', async () => {
    const dataset = defineDataset({
      name: 'cities',
      cases: [
        { name: 'nigeria', input: 'Capital of Nigeria?', expected: 'Abuja' },
        { name: 'ghana', input: 'Capital of Ghana?', expected: 'Accra' },
      ],
    });
    const report = await runExperiment({
      name: 'capitals',
      dataset,
      task: agentAnswering('Abuja', 'Kumasi'),
      concurrency: 1,
      evaluators: [evaluator('exact', (ctx) => ctx.output === ctx.expected)],
      instrumentation: tracing(),
    });
    expect(report.summary.passed).toBe(1);
    const spans = otel.spans();
    expect(spanTree(spans)).toBe(
      [
        'eval capitals',
        '  eval.case nigeria',
        '    invoke_agent echo',
        '      chat test-model',
        '  eval.case ghana',
        '    invoke_agent echo',
        '      chat test-model',
      ].join('\n'),
    );
    const [experiment] = named(spans, 'eval capitals');
    expect(experiment?.attributes).toMatchObject({
      [EVAL_ATTR.dataset]: 'cities',
      [EVAL_ATTR.cases]: 2,
      [EVAL_ATTR.repeat]: 1,
      [EVAL_ATTR.passRate]: 0.5,
    });
    const [nigeria] = named(spans, 'eval.case nigeria');
    const [ghana] = named(spans, 'eval.case ghana');
    expect(nigeria?.attributes).toMatchObject({
      [EVAL_ATTR.pass]: true,
      'golem.eval.score.exact': 1,
    });
    expect(ghana?.attributes).toMatchObject({
      [EVAL_ATTR.pass]: false,
      'golem.eval.score.exact': 0,
    });
    expect(ghana?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'failed: exact' });
  });

  test('a task that throws makes an ERROR case span with the error', async () => {
    const dataset = defineDataset({ name: 'd', cases: [{ name: 'boom', input: 1 }] });
    await runExperiment({
      name: 'throwing',
      dataset,
      task: () => {
        throw new Error('the task broke');
      },
      instrumentation: tracing(),
    });
    const [boom] = named(otel.spans(), 'eval.case boom');
    expect(boom?.status.code).toBe(SpanStatusCode.ERROR);
    expect(boom?.status.message).toMatch(/the task broke/);
    expect(boom?.attributes[EVAL_ATTR.pass]).toBe(false);
  });
});
