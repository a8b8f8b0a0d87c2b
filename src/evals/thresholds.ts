import { ConfigError } from '../core/index';
import { isRecord } from '../core/kit/guards';
import { EvalError } from './eval-error';
import { formatCost, formatMs, formatPercent, formatScore } from './report-numbers';
import type { Comparison, ExperimentReport, ThresholdCheck, Thresholds } from './report-types';

/**
 * Whether `report` meets `thresholds`: pass rate, mean score, each named evaluator's pass rate,
 * total task cost (an unpriced report fails `maxCost`: it cannot show it is under), p90 latency,
 * and — only when a `comparison` is given — the number of regressions. `failures` has one
 * sentence per threshold missed, naming the value and the threshold. Thresholds out of range (a
 * pass rate of 90 for 90%) throw a `ConfigError`.
 */
export function checkThresholds(
  report: ExperimentReport,
  thresholds: Thresholds,
  comparison?: Comparison,
): ThresholdCheck {
  const given: unknown = report;
  if (!isRecord(given) || given.golemEvalReport !== 1)
    throw new ConfigError(
      'checkThresholds: the first argument is not an experiment report: pass what ' +
        'runExperiment() returned or what readReport() read.',
      { component: 'evals', option: 'report' },
    );
  checkShape(thresholds);
  const s = report.summary;
  const failures: string[] = [];
  if (thresholds.passRate !== undefined && below(s.passRate, thresholds.passRate))
    failures.push(
      `Pass rate ${formatPercent(s.passRate)} is below the threshold ` +
        `${formatPercent(thresholds.passRate)} (${String(s.passed)} of ${String(s.runs)} runs passed).`,
    );
  if (thresholds.meanScore !== undefined && below(s.meanScore, thresholds.meanScore))
    failures.push(
      `Mean score ${formatScore(s.meanScore)} is below the threshold ` +
        `${formatScore(thresholds.meanScore)}.`,
    );
  for (const [name, least] of Object.entries(thresholds.evaluators ?? {})) {
    const found = s.evaluators.find((e) => e.name === name);
    if (found === undefined) {
      const known = s.evaluators.map((e) => e.name).join(', ');
      failures.push(
        `Evaluator ${name} did not run, so its pass rate cannot reach ${formatPercent(least)} ` +
          `(evaluators that ran: ${known === '' ? 'none' : known}).`,
      );
    } else if (below(found.passRate, least))
      failures.push(
        `Evaluator ${name} passed ${formatPercent(found.passRate)} of its runs, below the ` +
          `threshold ${formatPercent(least)}.`,
      );
  }
  if (thresholds.maxCost !== undefined) {
    if (s.cost === undefined)
      failures.push(
        `Cost is unknown (no run was priced), so it cannot be shown under maxCost ` +
          `${formatCost(thresholds.maxCost)}: give the model a price table or drop maxCost.`,
      );
    else if (s.cost > thresholds.maxCost)
      failures.push(
        `Cost ${formatCost(s.cost)} is above maxCost ${formatCost(thresholds.maxCost)}.`,
      );
  }
  if (thresholds.maxP90LatencyMs !== undefined && s.latency.p90 > thresholds.maxP90LatencyMs)
    failures.push(
      `p90 latency ${formatMs(s.latency.p90)} is above maxP90LatencyMs ` +
        `${formatMs(thresholds.maxP90LatencyMs)}.`,
    );
  if (
    thresholds.maxRegressions !== undefined &&
    comparison !== undefined &&
    comparison.regressions > thresholds.maxRegressions
  ) {
    const names = comparison.cases
      .filter((c) => c.change === 'regressed')
      .map((c) => c.name)
      .join(', ');
    failures.push(
      `${String(comparison.regressions)} cases regressed against ${comparison.baseline}, more than ` +
        `maxRegressions ${String(thresholds.maxRegressions)}: ${names}.`,
    );
  }
  return { ok: failures.length === 0, failures };
}

/**
 * {@link checkThresholds}, throwing an `EvalError` of kind `threshold` when any threshold is
 * missed: its message lists them and `failures` holds each one.
 */
export function assertThresholds(
  report: ExperimentReport,
  thresholds: Thresholds,
  comparison?: Comparison,
): void {
  const check = checkThresholds(report, thresholds, comparison);
  if (check.ok) return;
  const count = check.failures.length;
  throw new EvalError(
    'threshold',
    `Experiment ${report.name} missed ${String(count)} threshold${count === 1 ? '' : 's'}:\n` +
      check.failures.map((f) => `  - ${f}`).join('\n'),
    { failures: check.failures },
  );
}

/** Scores and rates are ratios of counts: a hair under the threshold from rounding passes. */
function below(value: number, least: number): boolean {
  return value < least - 1e-9;
}

function checkShape(thresholds: unknown): void {
  if (!isRecord(thresholds))
    throw new ConfigError(
      'checkThresholds: thresholds must be an object such as { passRate: 0.9 }.',
      { component: 'evals', option: 'thresholds' },
    );
  const unit = (key: string, value: unknown): void => {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      const hint =
        typeof value === 'number' && value > 1 && value <= 100
          ? `; write ${String(value / 100)} for ${String(value)}%`
          : '';
      throw new ConfigError(
        `Threshold ${key} must be a number between 0 and 1 (got ${show(value)})${hint}.`,
        { component: 'evals', option: key },
      );
    }
  };
  const amount = (key: string, value: unknown, whole: boolean): void => {
    if (value === undefined) return;
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      value < 0 ||
      (whole && !Number.isInteger(value))
    )
      throw new ConfigError(
        `Threshold ${key} must be a ${whole ? 'whole number' : 'number'} of at least 0 ` +
          `(got ${show(value)}).`,
        { component: 'evals', option: key },
      );
  };
  unit('passRate', thresholds.passRate);
  unit('meanScore', thresholds.meanScore);
  amount('maxCost', thresholds.maxCost, false);
  amount('maxP90LatencyMs', thresholds.maxP90LatencyMs, false);
  amount('maxRegressions', thresholds.maxRegressions, true);
  const evaluators = thresholds.evaluators;
  if (evaluators === undefined) return;
  if (!isRecord(evaluators))
    throw new ConfigError(
      'Threshold evaluators must map evaluator names to pass rates, such as { contains: 0.9 }.',
      { component: 'evals', option: 'evaluators' },
    );
  for (const [name, value] of Object.entries(evaluators)) unit(`evaluators.${name}`, value);
}

function show(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol')
    return typeof value;
  return JSON.stringify(value);
}
