import { ConfigError } from '../core/index';
import { isRecord } from '../core/kit/guards';
import { caseStats } from './case-stats';
import type { PairwiseJudge } from './evaluators/pairwise-judge';
import type {
  CaseChange,
  CaseComparison,
  CaseReport,
  Comparison,
  EvaluatorDiff,
  ExperimentReport,
} from './report-types';

/** How {@link compareReports} decides what moved. */
export interface CompareOptions {
  /**
   * How much a mean score may drop (or rise) at an equal pass rate before the case counts as
   * regressed (or improved), 0–1; default 0: any move counts. Pass-rate moves always count.
   */
  readonly tolerance?: number;
}

/** How {@link comparePairwise} runs its judge. */
export interface ComparePairwiseOptions extends CompareOptions {
  /** Cancels the judging. */
  readonly signal?: AbortSignal;
  /** Judge calls at once; default 4. */
  readonly concurrency?: number;
}

/** Rates closer than this are equal (they are ratios of small counts). */
const EPSILON = 1e-9;

/**
 * Compares a candidate report with a baseline, case by case (matched by name). A case
 * `regressed` when its pass rate fell, or, at an equal pass rate, its mean score fell by more
 * than `tolerance`; `improved` is the mirror; `added` and `removed` are cases on one side only.
 * Each case lists the evaluators whose pass rate or score moved, and whether the first run's
 * output changed. Cases come in the candidate's order, removed ones last. `delta` is candidate
 * minus baseline (cost only when both sides were priced).
 */
export function compareReports(
  baseline: ExperimentReport,
  candidate: ExperimentReport,
  options: CompareOptions = {},
): Comparison {
  checkReport(baseline, 'baseline');
  checkReport(candidate, 'candidate');
  const tolerance = checkTolerance(options.tolerance);
  const before = new Map(baseline.cases.map((c) => [c.name, c]));
  const after = new Set(candidate.cases.map((c) => c.name));
  const cases: CaseComparison[] = candidate.cases.map((c) => {
    const old = before.get(c.name);
    return old === undefined ? oneSided(c, 'added') : compareCase(old, c, tolerance);
  });
  for (const c of baseline.cases) if (!after.has(c.name)) cases.push(oneSided(c, 'removed'));
  const b = baseline.summary;
  const k = candidate.summary;
  return {
    golemEvalComparison: 1,
    baseline: baseline.name,
    candidate: candidate.name,
    cases,
    regressions: cases.filter((c) => c.change === 'regressed').length,
    improvements: cases.filter((c) => c.change === 'improved').length,
    delta: {
      passRate: k.passRate - b.passRate,
      meanScore: k.meanScore - b.meanScore,
      ...(b.cost !== undefined && k.cost !== undefined ? { cost: k.cost - b.cost } : {}),
      p50LatencyMs: k.latency.p50 - b.latency.p50,
    },
  };
}

/**
 * {@link compareReports}, then a pairwise judge's verdict for every case on both sides: the
 * judge sees the case's input and expected output and the first run's output of each side, and
 * says which it prefers (`preferred`, `reason`). Identical outputs are a `tie` without asking;
 * a case where either side has no output (its task failed) is not judged. The verdict does not
 * change a case's `change` (that follows the evaluators). A judge that throws leaves the case
 * without `preferred` and puts the error in `reason`; a cancelled `signal` rejects.
 */
export async function comparePairwise(
  baseline: ExperimentReport,
  candidate: ExperimentReport,
  judge: PairwiseJudge,
  options: ComparePairwiseOptions = {},
): Promise<Comparison> {
  if (typeof judge !== 'object' || typeof judge.compare !== 'function')
    throw new ConfigError(
      'comparePairwise needs a judge with a compare() method: pass pairwiseJudge({ model, rubric }).',
      { component: 'evals', option: 'judge' },
    );
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new ConfigError(
      `comparePairwise: concurrency must be a whole number of at least 1 (got ${String(concurrency)}).`,
      { component: 'evals', option: 'concurrency' },
    );
  const comparison = compareReports(baseline, candidate, options);
  const before = new Map(baseline.cases.map((c) => [c.name, c]));
  const after = new Map(candidate.cases.map((c) => [c.name, c]));
  const cases = [...comparison.cases];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const index = next;
      next += 1;
      const entry = cases[index];
      if (entry === undefined) continue;
      const old = before.get(entry.name);
      const now = after.get(entry.name);
      if (old === undefined || now === undefined) continue;
      cases[index] = await judgeCase(entry, old, now, judge, options.signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, cases.length) }, worker));
  return { ...comparison, cases };
}

async function judgeCase(
  entry: CaseComparison,
  baseline: CaseReport,
  candidate: CaseReport,
  judge: PairwiseJudge,
  signal: AbortSignal | undefined,
): Promise<CaseComparison> {
  const left = baseline.runs[0]?.output;
  const right = candidate.runs[0]?.output;
  if (left === undefined || right === undefined) return entry;
  if (!entry.outputChanged)
    return { ...entry, preferred: 'tie', reason: 'The outputs are identical.' };
  signal?.throwIfAborted();
  try {
    const verdict = await judge.compare(candidate.input, left, right, {
      ...(candidate.expected === undefined ? {} : { expected: candidate.expected }),
      ...(signal === undefined ? {} : { signal }),
    });
    return { ...entry, preferred: verdict.preferred, reason: verdict.reason };
  } catch (error) {
    if (signal?.aborted === true) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { ...entry, reason: `The judge ${judge.name} failed: ${message}` };
  }
}

function compareCase(
  baseline: CaseReport,
  candidate: CaseReport,
  tolerance: number,
): CaseComparison {
  const b = { passRate: baseline.passRate, meanScore: baseline.meanScore };
  const k = { passRate: candidate.passRate, meanScore: candidate.meanScore };
  let change: CaseChange = 'unchanged';
  const passMove = k.passRate - b.passRate;
  const scoreMove = k.meanScore - b.meanScore;
  if (passMove < -EPSILON) change = 'regressed';
  else if (passMove > EPSILON) change = 'improved';
  else if (scoreMove < -(tolerance + EPSILON)) change = 'regressed';
  else if (scoreMove > tolerance + EPSILON) change = 'improved';
  return {
    name: candidate.name,
    change,
    baseline: b,
    candidate: k,
    evaluators: evaluatorDiffs(baseline, candidate),
    outputChanged: canonical(baseline.runs[0]?.output) !== canonical(candidate.runs[0]?.output),
  };
}

function oneSided(report: CaseReport, change: 'added' | 'removed'): CaseComparison {
  const side = { passRate: report.passRate, meanScore: report.meanScore };
  return {
    name: report.name,
    change,
    ...(change === 'added' ? { candidate: side } : { baseline: side }),
    evaluators: [],
    outputChanged: false,
  };
}

/** The evaluators of one case whose pass rate or score moved, or that ran on one side only. */
function evaluatorDiffs(baseline: CaseReport, candidate: CaseReport): EvaluatorDiff[] {
  const before = new Map(caseStats(baseline).evaluators.map((e) => [e.name, e]));
  const after = caseStats(candidate).evaluators;
  const diffs: EvaluatorDiff[] = [];
  const side = (e: { passRate: number; meanScore: number }) => ({
    passRate: e.passRate,
    meanScore: e.meanScore,
  });
  for (const e of after) {
    const old = before.get(e.name);
    before.delete(e.name);
    if (old === undefined) {
      diffs.push({ name: e.name, candidate: side(e) });
      continue;
    }
    const moved =
      Math.abs(e.passRate - old.passRate) > EPSILON ||
      Math.abs(e.meanScore - old.meanScore) > EPSILON;
    if (moved) diffs.push({ name: e.name, baseline: side(old), candidate: side(e) });
  }
  for (const old of before.values()) diffs.push({ name: old.name, baseline: side(old) });
  return diffs;
}

/** JSON with object keys sorted, so key order does not count as a change. */
function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : v,
  );
}

function checkReport(value: unknown, which: string): void {
  if (!isRecord(value) || value.golemEvalReport !== 1 || !Array.isArray(value.cases))
    throw new ConfigError(
      `compareReports: the ${which} is not an experiment report: pass what runExperiment() ` +
        'returned or what readReport() read.',
      { component: 'evals', option: which },
    );
}

function checkTolerance(tolerance: number | undefined): number {
  if (tolerance === undefined) return 0;
  if (
    typeof tolerance !== 'number' ||
    !Number.isFinite(tolerance) ||
    tolerance < 0 ||
    tolerance > 1
  )
    throw new ConfigError(
      `compareReports: tolerance must be a score difference between 0 and 1 (got ${String(tolerance)}).`,
      { component: 'evals', option: 'tolerance' },
    );
  return tolerance;
}
