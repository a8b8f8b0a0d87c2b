import {
  caseMove,
  formatCostDelta,
  formatMsDelta,
  formatPercent,
  formatRateDelta,
  formatScore,
  formatScoreDelta,
} from './report-numbers';
import type { CaseChange, CaseComparison, Comparison } from './report-types';
import { painter, terminalText, textTable, truncate } from './text-table';

/** How {@link formatComparison} lays out its text. */
export interface FormatComparisonOptions {
  /** ANSI colours (regressions red, improvements green); default `false`: plain text. */
  readonly color?: boolean;
  /** Terminal width in columns; default 100. */
  readonly width?: number;
}

const MARKS: Readonly<Record<CaseChange, string>> = {
  regressed: '✗ REGRESSED',
  improved: '✓ improved',
  unchanged: '= unchanged',
  added: '+ added',
  removed: '- removed',
};

/** Regressions first, then improvements, added, removed, unchanged. */
const ORDER: readonly CaseChange[] = ['regressed', 'improved', 'added', 'removed', 'unchanged'];

/**
 * A comparison as text: the deltas (pass rate, mean score, cost, p50 latency), the counts, and a
 * table of cases — regressions first, flagged `✗ REGRESSED` — with pass rate and score on each
 * side, the evaluators that moved and a pairwise judge's verdict when there is one.
 */
export function formatComparison(
  comparison: Comparison,
  options: FormatComparisonOptions = {},
): string {
  const width = Math.max(40, options.width ?? 100);
  const paint = painter(options.color === true);
  const d = comparison.delta;
  const count = (change: CaseChange): number =>
    comparison.cases.filter((c) => c.change === change).length;
  const lines = [
    paint.bold(
      `Comparison ${terminalText(comparison.baseline)} → ${terminalText(comparison.candidate)}`,
    ),
    `Pass rate ${formatRateDelta(d.passRate)}  mean score ${formatScoreDelta(d.meanScore)}  ` +
      `cost ${formatCostDelta(d.cost)}  p50 latency ${formatMsDelta(d.p50LatencyMs)}`,
    (comparison.regressions > 0 ? paint.red : (text: string) => text)(
      `Regressions ${String(comparison.regressions)}`,
    ) +
      `  improvements ${String(comparison.improvements)}  added ${String(count('added'))}  ` +
      `removed ${String(count('removed'))}  unchanged ${String(count('unchanged'))}`,
  ];
  const sorted = [...comparison.cases].sort(
    (a, b) => ORDER.indexOf(a.change) - ORDER.indexOf(b.change),
  );
  if (sorted.length > 0) {
    const judged = sorted.some((c) => c.preferred !== undefined || c.reason !== undefined);
    const rows = sorted.map((c) => {
      const mark = MARKS[c.change];
      const coloured =
        c.change === 'regressed'
          ? paint.red(mark)
          : c.change === 'improved'
            ? paint.green(mark)
            : mark;
      const row = [
        terminalText(c.name),
        coloured,
        caseMove(c, 'passRate', '-'),
        caseMove(c, 'meanScore', '-'),
        truncate(evaluatorMoves(c), 40),
        c.outputChanged ? 'yes' : '',
      ];
      if (judged) row.push(judgeText(c));
      return row;
    });
    lines.push(
      '',
      textTable(
        [
          { header: 'case' },
          { header: 'change' },
          { header: 'pass rate' },
          { header: 'score' },
          { header: 'evaluators moved' },
          { header: 'output changed' },
          ...(judged ? [{ header: 'judge' }] : []),
        ],
        rows,
        {
          width,
          shrink: [
            [4, 28],
            [0, 16],
            [4, 8],
            [0, 8],
          ],
        },
      ),
    );
  }
  return lines.join('\n');
}

function evaluatorMoves(c: CaseComparison): string {
  return c.evaluators
    .map((e) => {
      const before = e.baseline === undefined ? 'new' : formatPercent(e.baseline.passRate);
      const after = e.candidate === undefined ? 'gone' : formatPercent(e.candidate.passRate);
      const score =
        e.baseline !== undefined &&
        e.candidate !== undefined &&
        e.baseline.passRate === e.candidate.passRate
          ? ` (${formatScore(e.baseline.meanScore)}→${formatScore(e.candidate.meanScore)})`
          : '';
      return `${terminalText(e.name)} ${before}→${after}${score}`;
    })
    .join(', ');
}

function judgeText(c: CaseComparison): string {
  const reason = c.reason === undefined ? '' : terminalText(c.reason, 60);
  if (c.preferred === undefined) return reason;
  return reason === '' ? c.preferred : `${c.preferred}: ${reason}`;
}
