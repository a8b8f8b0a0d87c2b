/**
 * Hand-built experiment reports for the report tests (formatting, comparison, thresholds, HTML,
 * files). `report()` derives each case's and the summary's aggregates from the runs given, the
 * way the runner does, so a fixture changes in one place.
 */
import type { JsonValue, Usage } from 'golem';
import type { EvaluatorResult } from '../../src/evals/evaluator';
import type {
  CaseReport,
  CaseRun,
  EvaluatorSummary,
  ExperimentReport,
} from '../../src/evals/report-types';

/** A verdict: passing with score 1 unless told otherwise. */
export function verdict(
  name: string,
  pass: boolean,
  extra: Partial<Omit<EvaluatorResult, 'name' | 'pass'>> = {},
): EvaluatorResult {
  return { name, pass, score: pass ? 1 : 0, ...extra };
}

/** One run; `pass` follows the verdicts and the error unless given. */
export function run(
  init: Partial<CaseRun> & { scores?: readonly EvaluatorResult[] } = {},
): CaseRun {
  const scores = init.scores ?? [];
  const usage: Usage = init.usage ?? { inputTokens: 100, outputTokens: 20 };
  return {
    repeat: 0,
    pass: init.error === undefined && scores.every((s) => s.pass),
    messages: [],
    toolCalls: [],
    requests: 1,
    turns: 1,
    durationMs: 100,
    attempts: 1,
    replayed: false,
    ...init,
    scores,
    usage,
  };
}

/** A case over its runs (repeats renumbered), pass rate and mean score derived. */
export function caseOf(
  name: string,
  runs: readonly CaseRun[],
  extra: { input?: JsonValue; expected?: JsonValue; metadata?: Record<string, JsonValue> } = {},
): CaseReport {
  const numbered = runs.map((r, repeat) => ({ ...r, repeat }));
  const perRun = numbered.map((r) =>
    r.error !== undefined || r.scores.length === 0
      ? r.error === undefined
        ? 1
        : 0
      : r.scores.reduce((sum, s) => sum + s.score, 0) / r.scores.length,
  );
  const mean = perRun.reduce((a, b) => a + b, 0) / Math.max(1, perRun.length);
  const variance = perRun.reduce((sum, x) => sum + (x - mean) ** 2, 0) / Math.max(1, perRun.length);
  return {
    name,
    input: extra.input ?? `question for ${name}`,
    ...(extra.expected === undefined ? {} : { expected: extra.expected }),
    ...(extra.metadata === undefined ? {} : { metadata: extra.metadata }),
    runs: numbered,
    passRate: numbered.filter((r) => r.pass).length / Math.max(1, numbered.length),
    meanScore: mean,
    scoreStdDev: Math.sqrt(variance),
  };
}

/** A case whose runs all pass or all fail, with one `contains` verdict at `score`. */
export function simpleCase(name: string, pass: boolean, score = pass ? 1 : 0): CaseReport {
  return caseOf(name, [
    run({ output: `answer ${name}`, scores: [verdict('contains', pass, { score })] }),
  ]);
}

function nearestRank(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index] ?? 0;
}

/** A report over `cases`, summary derived. */
export function report(
  cases: readonly CaseReport[],
  extra: Partial<Pick<ExperimentReport, 'name' | 'dataset' | 'metadata' | 'repeat'>> = {},
): ExperimentReport {
  const runs = cases.flatMap((c) => c.runs);
  const passed = runs.filter((r) => r.pass).length;
  const durations = runs.map((r) => r.durationMs).sort((a, b) => a - b);
  const byName = new Map<
    string,
    { count: number; passed: number; score: number; errors: number }
  >();
  let evaluatorUsage: Usage = { inputTokens: 0, outputTokens: 0 };
  let evaluatorCost: number | undefined;
  for (const r of runs)
    for (const s of r.scores) {
      const e = byName.get(s.name) ?? { count: 0, passed: 0, score: 0, errors: 0 };
      e.count += 1;
      e.passed += s.pass ? 1 : 0;
      e.score += s.score;
      e.errors += s.error === undefined ? 0 : 1;
      byName.set(s.name, e);
      if (s.usage !== undefined)
        evaluatorUsage = {
          inputTokens: evaluatorUsage.inputTokens + s.usage.inputTokens,
          outputTokens: evaluatorUsage.outputTokens + s.usage.outputTokens,
        };
      if (s.cost !== undefined) evaluatorCost = (evaluatorCost ?? 0) + s.cost;
    }
  const evaluators: EvaluatorSummary[] = [...byName].map(([name, e]) => ({
    name,
    count: e.count,
    passRate: e.passed / e.count,
    meanScore: e.score / e.count,
    errors: e.errors,
  }));
  const priced = runs.filter((r) => r.cost !== undefined);
  return {
    golemEvalReport: 1,
    name: extra.name ?? 'weather-agent',
    dataset: extra.dataset ?? 'weather',
    startedAt: '2026-12-06T10:00:00.000Z',
    durationMs: 1234,
    repeat: extra.repeat ?? Math.max(1, ...cases.map((c) => c.runs.length)),
    metadata: extra.metadata ?? { model: 'test-model', commit: 'abc123' },
    cases,
    summary: {
      cases: cases.length,
      runs: runs.length,
      passed,
      failed: runs.length - passed,
      errored: runs.filter((r) => r.error !== undefined).length,
      passRate: runs.length === 0 ? 0 : passed / runs.length,
      meanScore: cases.reduce((sum, c) => sum + c.meanScore, 0) / Math.max(1, cases.length),
      evaluators,
      usage: runs.reduce<Usage>(
        (sum, r) => ({
          inputTokens: sum.inputTokens + r.usage.inputTokens,
          outputTokens: sum.outputTokens + r.usage.outputTokens,
        }),
        { inputTokens: 0, outputTokens: 0 },
      ),
      ...(priced.length === 0 ? {} : { cost: priced.reduce((sum, r) => sum + (r.cost ?? 0), 0) }),
      evaluatorUsage,
      ...(evaluatorCost === undefined ? {} : { evaluatorCost }),
      latency: {
        p50: nearestRank(durations, 0.5),
        p90: nearestRank(durations, 0.9),
        p99: nearestRank(durations, 0.99),
        mean: durations.reduce((a, b) => a + b, 0) / Math.max(1, durations.length),
        max: durations[durations.length - 1] ?? 0,
      },
      replayed: runs.filter((r) => r.replayed).length,
    },
  };
}

/** What an injected script sets when it runs. */
export const INJECTED_FLAG = '__golemInjected';
/** A model output that tries to run script in the HTML report. */
export const SCRIPT_OUTPUT = `Sure! <script>window.${INJECTED_FLAG} = true</script><img src=x onerror="window.${INJECTED_FLAG}=1">`;
/** A case name that tries to break out of an attribute. */
export const ATTRIBUTE_NAME = `bad" onmouseover="window.${INJECTED_FLAG}=1" x="`;

/** The weather transcript of the Lagos case: a tool call, its result, the answer. */
export const LAGOS_MESSAGES: JsonValue[] = [
  { role: 'system', content: 'You answer weather questions.' },
  { role: 'user', content: 'Weather in Lagos?' },
  {
    role: 'assistant',
    toolCalls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Lagos', unit: 'celsius' } }],
  },
  {
    role: 'tool',
    content: '{"temp":31,"sky":"sunny"}',
    toolCallId: 'call_1',
    toolName: 'get_weather',
  },
  { role: 'assistant', content: 'It is sunny in Lagos, 31 °C.' },
];

/**
 * The main fixture: Lagos passes (a tool call, priced, replayed), Paris fails an evaluator and
 * its output carries a script, Tokyo's task errored, and a flaky case passes one run of two.
 */
export function weatherReport(): ExperimentReport {
  return report(
    [
      caseOf(
        'lagos',
        [
          run({
            output: 'It is sunny in Lagos, 31 °C.',
            messages: LAGOS_MESSAGES,
            toolCalls: [
              { name: 'get_weather', id: 'call_1', args: { city: 'Lagos' }, result: '{"temp":31}' },
            ],
            scores: [
              verdict('contains', true, { reason: 'found "Lagos"' }),
              verdict('calledTool(get_weather)', true),
            ],
            cost: 0.0021,
            requests: 2,
            turns: 2,
            durationMs: 850,
            replayed: true,
            usage: { inputTokens: 1200, outputTokens: 80 },
          }),
        ],
        { input: 'Weather in Lagos?', expected: 'Lagos' },
      ),
      caseOf(
        'paris',
        [
          run({
            output: SCRIPT_OUTPUT,
            messages: [
              { role: 'user', content: 'Weather in Paris?' },
              { role: 'assistant', content: SCRIPT_OUTPUT },
            ],
            scores: [
              verdict('contains', false, { reason: 'expected "Paris" not found in the output' }),
              verdict('calledTool(get_weather)', false, { reason: 'get_weather was never called' }),
            ],
            cost: 0.0009,
            durationMs: 420,
          }),
        ],
        { input: 'Weather in Paris?', expected: 'Paris' },
      ),
      caseOf('tokyo', [
        run({
          error: { name: 'RunError', message: 'HTTP 500 from the provider', stage: 'model' },
          durationMs: 3000,
          usage: { inputTokens: 0, outputTokens: 0 },
        }),
      ]),
      caseOf(ATTRIBUTE_NAME, [
        run({
          output: 'fine',
          scores: [
            verdict('judge', true, {
              score: 0.9,
              reason: 'polite <b>and</b> correct',
              usage: { inputTokens: 300, outputTokens: 40 },
              cost: 0.0004,
            }),
          ],
        }),
        run({
          output: 'rude',
          scores: [
            verdict('judge', false, {
              score: 0.2,
              reason: 'rude',
              usage: { inputTokens: 300, outputTokens: 40 },
              cost: 0.0004,
            }),
          ],
        }),
      ]),
    ],
    { repeat: 2 },
  );
}
