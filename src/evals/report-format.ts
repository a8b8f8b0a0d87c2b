import { caseStats, runFailures } from './case-stats';
import {
  formatCost,
  formatCount,
  formatMs,
  formatPercent,
  formatScore,
  formatTokens,
  totalTokens,
} from './report-numbers';
import type { ExperimentReport } from './report-types';
import { painter, terminalText, textTable, truncate } from './text-table';

/** How {@link formatReport} lays out its text. */
export interface FormatReportOptions {
  /** ANSI colours (green passes, red failures, bold headings); default `false`: plain text. */
  readonly color?: boolean;
  /** Terminal width in columns: long evaluator lists, then case names, are shortened to fit; default 100. */
  readonly width?: number;
  /** Print when the experiment started and how long it took; default `true` (`false` for stable output). */
  readonly timing?: boolean;
}

/** Failures listed at most; the rest are counted. */
const MAX_FAILURES = 50;

/**
 * A report as text for a terminal or a CI log: a header (experiment, dataset, runs, pass rate,
 * mean score, tokens, cost, p50/p90/p99 latency, replayed runs), a table of cases (pass rate,
 * mean score, evaluators passed, tokens, cost, mean latency), a table of evaluators (pass rate,
 * mean score, errors) and every failure with its reason. Plain text unless `color` is true; model
 * text is stripped of control characters so it cannot drive the terminal.
 */
export function formatReport(report: ExperimentReport, options: FormatReportOptions = {}): string {
  const width = Math.max(40, options.width ?? 100);
  const paint = painter(options.color === true);
  const s = report.summary;
  const lines: string[] = [];
  lines.push(
    paint.bold(`Experiment ${terminalText(report.name)}`) +
      `  dataset ${terminalText(report.dataset)}` +
      (options.timing === false
        ? ''
        : `  started ${terminalText(report.startedAt)}  took ${formatMs(report.durationMs)}`),
  );
  const verdict = s.failed === 0 ? paint.green : paint.red;
  lines.push(
    `Runs ${String(s.runs)} (${String(s.cases)} cases × ${String(report.repeat)})  ` +
      verdict(`passed ${String(s.passed)}  failed ${String(s.failed)}`) +
      `  errored ${String(s.errored)}  pass rate ${verdict(formatPercent(s.passRate))}  ` +
      `mean score ${formatScore(s.meanScore)}`,
  );
  const judge =
    totalTokens(s.evaluatorUsage) > 0 || s.evaluatorCost !== undefined
      ? `  judges ${formatTokens(s.evaluatorUsage)}` +
        (s.evaluatorCost === undefined ? '' : `, cost ${formatCost(s.evaluatorCost)}`)
      : '';
  lines.push(`Tokens ${formatTokens(s.usage)}  cost ${formatCost(s.cost)}${judge}`);
  lines.push(
    `Latency p50 ${formatMs(s.latency.p50)}  p90 ${formatMs(s.latency.p90)}  ` +
      `p99 ${formatMs(s.latency.p99)}  max ${formatMs(s.latency.max)}  ` +
      `replayed ${String(s.replayed)}/${String(s.runs)}`,
  );

  if (report.cases.length > 0) {
    lines.push('', paint.bold('Cases'));
    const rows = report.cases.map((c) => {
      const stats = caseStats(c);
      const failing = stats.evaluators.filter((e) => e.passed < e.count).map((e) => e.name);
      const passedEvaluators = stats.evaluators.length - failing.length;
      const evaluators =
        stats.evaluators.length === 0
          ? '-'
          : `${String(passedEvaluators)}/${String(stats.evaluators.length)}` +
            (failing.length === 0
              ? ` ${paint.green('✓')}`
              : ` ${paint.red('✗')} ${truncate(failing.map((n) => terminalText(n)).join(', '), 40)}`);
      const status = c.passRate === 1 ? paint.green('✓') : paint.red('✗');
      return [
        terminalText(c.name),
        status,
        formatPercent(c.passRate),
        formatScore(c.meanScore),
        stats.errored > 0 ? `${evaluators} (${String(stats.errored)} errored)` : evaluators,
        formatCount(totalTokens(stats.usage)),
        formatCost(stats.cost),
        formatMs(stats.meanDurationMs),
      ];
    });
    lines.push(
      textTable(
        [
          { header: 'case' },
          { header: '' },
          { header: 'pass', align: 'right' },
          { header: 'score', align: 'right' },
          { header: 'evaluators' },
          { header: 'tokens', align: 'right' },
          { header: 'cost', align: 'right' },
          { header: 'latency', align: 'right' },
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

  if (s.evaluators.length > 0) {
    lines.push('', paint.bold('Evaluators'));
    lines.push(
      textTable(
        [
          { header: 'evaluator' },
          { header: 'runs', align: 'right' },
          { header: 'pass', align: 'right' },
          { header: 'score', align: 'right' },
          { header: 'errors', align: 'right' },
        ],
        s.evaluators.map((e) => [
          terminalText(e.name),
          String(e.count),
          e.passRate === 1 ? formatPercent(e.passRate) : paint.red(formatPercent(e.passRate)),
          formatScore(e.meanScore),
          e.errors === 0 ? '0' : paint.red(String(e.errors)),
        ]),
        { width },
      ),
    );
  }

  const failures = report.cases.flatMap((c) =>
    runFailures(c).map((f) => {
      const run = c.runs.length > 1 ? ` (run ${String(f.run.repeat + 1)})` : '';
      const what = f.evaluator === undefined ? 'error' : terminalText(f.evaluator);
      const head = `${paint.red('✗')} ${terminalText(c.name)}${run} · ${what}`;
      const reason = terminalText(f.reason, Math.max(20, width - 6));
      return reason === '' ? `  ${head}` : `  ${head}\n      ${paint.dim(reason)}`;
    }),
  );
  if (failures.length > 0) {
    lines.push('', paint.bold(`Failures (${String(failures.length)})`));
    lines.push(...failures.slice(0, MAX_FAILURES));
    if (failures.length > MAX_FAILURES)
      lines.push(`  … and ${String(failures.length - MAX_FAILURES)} more`);
  }
  return lines.join('\n');
}
