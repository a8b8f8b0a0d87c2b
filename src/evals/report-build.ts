import { addUsage, emptyUsage } from '../core/index';
import type { JsonValue } from '../core/index';
import type { EvalCase } from './case';
import { toJsonValue } from './evidence';
import type {
  CaseReport,
  CaseRun,
  EvaluatorSummary,
  LatencySummary,
  ReportSummary,
} from './report-types';

/**
 * A run's score: the mean of its evaluator scores; 0 for a run whose task failed; 1 or 0 (its
 * pass) for a run without evaluators.
 */
export function runScore(run: CaseRun): number {
  if (run.error !== undefined) return 0;
  if (run.scores.length === 0) return run.pass ? 1 : 0;
  return mean(run.scores.map((s) => s.score));
}

/** The arithmetic mean; 0 for no values. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** The population standard deviation; 0 for fewer than two values. */
export function stdDev(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(mean(values.map((v) => (v - m) ** 2)));
}

/**
 * The nearest-rank percentile `p` (0–100) of `values`: the smallest value with at least `p`% of
 * the values at or below it; 0 for no values.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? 0;
}

/**
 * The report of one case from its runs: pass rate, mean of the runs' scores (see
 * {@link runScore}) and their standard deviation across repeats; input, expected and metadata
 * as JSON.
 */
export function buildCaseReport(evalCase: EvalCase, runs: readonly CaseRun[]): CaseReport {
  const scores = runs.map(runScore);
  const report: {
    -readonly [K in keyof CaseReport]: CaseReport[K];
  } = {
    name: evalCase.name,
    input: toJsonValue(evalCase.input),
    runs,
    passRate: runs.length === 0 ? 0 : runs.filter((r) => r.pass).length / runs.length,
    meanScore: mean(scores),
    scoreStdDev: stdDev(scores),
  };
  if (evalCase.expected !== undefined) report.expected = toJsonValue(evalCase.expected);
  if (evalCase.metadata !== undefined) {
    const metadata: Record<string, JsonValue> = {};
    for (const [key, value] of Object.entries(evalCase.metadata)) {
      if (value !== undefined) metadata[key] = toJsonValue(value);
    }
    report.metadata = metadata;
  }
  return report;
}

/**
 * The summary of a report's cases: run counts and pass rate, the mean of the cases' mean scores,
 * each evaluator (first-seen order), the tasks' and the evaluators' usage and cost (cost absent
 * when nothing was priced), nearest-rank latency percentiles and the replayed runs.
 */
export function buildSummary(cases: readonly CaseReport[]): ReportSummary {
  const runs = cases.flatMap((c) => c.runs);
  const passed = runs.filter((r) => r.pass).length;
  let usage = emptyUsage();
  let cost: number | undefined;
  let evaluatorUsage = emptyUsage();
  let evaluatorCost: number | undefined;
  for (const run of runs) {
    usage = addUsage(usage, run.usage);
    if (run.cost !== undefined) cost = (cost ?? 0) + run.cost;
    for (const score of run.scores) {
      if (score.usage !== undefined) evaluatorUsage = addUsage(evaluatorUsage, score.usage);
      if (score.cost !== undefined) evaluatorCost = (evaluatorCost ?? 0) + score.cost;
    }
  }
  const summary: { -readonly [K in keyof ReportSummary]: ReportSummary[K] } = {
    cases: cases.length,
    runs: runs.length,
    passed,
    failed: runs.length - passed,
    errored: runs.filter((r) => r.error !== undefined).length,
    passRate: runs.length === 0 ? 0 : passed / runs.length,
    meanScore: mean(cases.map((c) => c.meanScore)),
    evaluators: evaluatorSummaries(runs),
    usage,
    evaluatorUsage,
    latency: latencyOf(runs.map((r) => r.durationMs)),
    replayed: runs.filter((r) => r.replayed).length,
  };
  if (cost !== undefined) summary.cost = cost;
  if (evaluatorCost !== undefined) summary.evaluatorCost = evaluatorCost;
  return summary;
}

function evaluatorSummaries(runs: readonly CaseRun[]): EvaluatorSummary[] {
  const byName = new Map<
    string,
    { count: number; passed: number; total: number; errors: number }
  >();
  for (const run of runs) {
    for (const score of run.scores) {
      const entry = byName.get(score.name) ?? { count: 0, passed: 0, total: 0, errors: 0 };
      entry.count += 1;
      if (score.pass) entry.passed += 1;
      entry.total += score.score;
      if (score.error !== undefined) entry.errors += 1;
      byName.set(score.name, entry);
    }
  }
  return [...byName].map(([name, e]) => ({
    name,
    count: e.count,
    passRate: e.passed / e.count,
    meanScore: e.total / e.count,
    errors: e.errors,
  }));
}

function latencyOf(durations: readonly number[]): LatencySummary {
  return {
    p50: percentile(durations, 50),
    p90: percentile(durations, 90),
    p99: percentile(durations, 99),
    mean: mean(durations),
    max: durations.length === 0 ? 0 : Math.max(...durations),
  };
}
