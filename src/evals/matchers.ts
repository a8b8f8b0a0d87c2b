import { isRecord } from '../core/kit/guards';
import { runFailures } from './case-stats';
import { formatPercent } from './report-numbers';
import type { ExperimentReport, Thresholds } from './report-types';
import { checkThresholds } from './thresholds';

/** What a matcher returns to Jest or Vitest. */
export interface EvalMatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
}

/** Failing cases listed in a message at most. */
const MAX_CASES = 10;

/**
 * Matchers for `expect.extend(evalMatchers)` (Jest and Vitest). `expect(report).toPass()` passes
 * when every run passed; `toPass(thresholds)` checks those thresholds instead (see
 * `checkThresholds`). The failure message lists each threshold missed, then the failing cases
 * with the reason of each failure. Declare the matcher's type in a test setup file:
 * `declare global { namespace jest { interface Matchers<R> { toPass(t?: Thresholds): R } } }`.
 */
export const evalMatchers = {
  /** The report meets `thresholds` (default `{ passRate: 1 }`). */
  toPass(received: unknown, thresholds?: Thresholds): EvalMatcherResult {
    if (!isRecord(received) || received.golemEvalReport !== 1 || !isRecord(received.summary))
      return {
        pass: false,
        message: () =>
          'expect(report).toPass() needs an experiment report (what runExperiment() returns); ' +
          `received ${describe(received)}.`,
      };
    const report = received as unknown as ExperimentReport;
    const check = checkThresholds(report, thresholds ?? { passRate: 1 });
    if (check.ok)
      return {
        pass: true,
        message: () =>
          `expected experiment ${report.name} not to pass its thresholds, but it did ` +
          `(pass rate ${formatPercent(report.summary.passRate)}).`,
      };
    return { pass: false, message: () => failureMessage(report, check.failures) };
  },
};

function failureMessage(report: ExperimentReport, failures: readonly string[]): string {
  const lines = [
    `expected experiment ${report.name} to pass its thresholds:`,
    ...failures.map((f) => `  - ${f}`),
  ];
  const failing = report.cases.filter((c) => c.passRate < 1);
  if (failing.length > 0) lines.push('', `Failing cases (${String(failing.length)}):`);
  for (const c of failing.slice(0, MAX_CASES)) {
    lines.push(`  ✗ ${c.name} (${formatPercent(c.passRate)} of runs passed)`);
    for (const f of runFailures(c)) {
      const run = c.runs.length > 1 ? `run ${String(f.run.repeat + 1)} ` : '';
      const what = f.evaluator ?? 'error';
      lines.push(`      ${run}${what}${f.reason === '' ? '' : `: ${oneLine(f.reason)}`}`);
    }
  }
  if (failing.length > MAX_CASES)
    lines.push(`  … and ${String(failing.length - MAX_CASES)} more failing cases`);
  return lines.join('\n');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object that is not a report (no golemEvalReport: 1)';
  return typeof value;
}
