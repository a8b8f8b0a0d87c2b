import { addUsage, emptyUsage, type Usage } from '../core/index';
import type { CaseReport, CaseRun } from './report-types';

/**
 * Per-case aggregates the renderers and the comparison share: what a case's runs spent, how
 * long they took, and how each evaluator did over them.
 */

/** One evaluator over the runs of one case. */
export interface CaseEvaluatorStats {
  readonly name: string;
  /** Runs it judged. */
  readonly count: number;
  readonly passed: number;
  readonly passRate: number;
  readonly meanScore: number;
  /** Runs where it threw. */
  readonly errors: number;
}

/** What one case's runs add up to. */
export interface CaseStats {
  readonly usage: Usage;
  /** Sum of the priced runs' cost; absent when no run was priced. */
  readonly cost: number | undefined;
  /** Mean wall time of the runs in ms (0 without runs). */
  readonly meanDurationMs: number;
  /** Runs whose task failed before the evaluators. */
  readonly errored: number;
  /** Each evaluator, in first-seen order. */
  readonly evaluators: readonly CaseEvaluatorStats[];
}

/** The aggregates of `report`'s runs. */
export function caseStats(report: CaseReport): CaseStats {
  let usage = emptyUsage();
  let cost: number | undefined;
  let duration = 0;
  let errored = 0;
  const byName = new Map<
    string,
    { count: number; passed: number; score: number; errors: number }
  >();
  for (const run of report.runs) {
    usage = addUsage(usage, run.usage);
    if (run.cost !== undefined) cost = (cost ?? 0) + run.cost;
    duration += run.durationMs;
    if (run.error !== undefined) errored += 1;
    for (const score of run.scores) {
      const entry = byName.get(score.name) ?? { count: 0, passed: 0, score: 0, errors: 0 };
      entry.count += 1;
      if (score.pass) entry.passed += 1;
      entry.score += Number.isFinite(score.score) ? score.score : 0;
      if (score.error !== undefined) entry.errors += 1;
      byName.set(score.name, entry);
    }
  }
  const evaluators = [...byName].map(([name, e]) => ({
    name,
    count: e.count,
    passed: e.passed,
    passRate: e.count === 0 ? 0 : e.passed / e.count,
    meanScore: e.count === 0 ? 0 : e.score / e.count,
    errors: e.errors,
  }));
  const runs = report.runs.length;
  return { usage, cost, meanDurationMs: runs === 0 ? 0 : duration / runs, errored, evaluators };
}

/** One reason a run failed: its task error, or one evaluator that did not pass. */
export interface RunFailure {
  readonly run: CaseRun;
  /** The evaluator's name; absent for a task error. */
  readonly evaluator?: string;
  /** The error's or evaluator's explanation (may be empty). */
  readonly reason: string;
}

/** Why each failed run of `report` failed, run by run, in order. */
export function runFailures(report: CaseReport): RunFailure[] {
  const failures: RunFailure[] = [];
  for (const run of report.runs) {
    if (run.pass) continue;
    if (run.error !== undefined) {
      const stage = run.error.stage === undefined ? '' : ` [${run.error.stage}]`;
      failures.push({ run, reason: `${run.error.name}${stage}: ${run.error.message}` });
      continue;
    }
    for (const score of run.scores) {
      if (score.pass) continue;
      const reason = score.error === undefined ? (score.reason ?? '') : `threw: ${score.error}`;
      failures.push({ run, evaluator: score.name, reason });
    }
  }
  return failures;
}
