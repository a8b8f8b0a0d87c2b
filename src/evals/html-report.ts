import { caseStats } from './case-stats';
import { escapeHtml, escapeValue } from './html-escape';
import { comparisonSection } from './html-comparison';
import { REPORT_CSS } from './html-styles';
import { CHANGE_BADGE, card, rateBar, statusBadge } from './html-widgets';
import { renderTranscript } from './html-transcript';
import {
  formatCost,
  formatCount,
  formatMs,
  formatPercent,
  formatScore,
  formatTokens,
  totalTokens,
} from './report-numbers';
import type { CaseChange, CaseReport, CaseRun, Comparison, ExperimentReport } from './report-types';

/** What {@link renderHtml} adds to the page. */
export interface RenderHtmlOptions {
  /** A comparison with a baseline: shown as its own section, regressions highlighted. */
  readonly comparison?: Comparison;
  /** The page title; default `Eval: <experiment name>`. */
  readonly title?: string;
}

/**
 * Blocks scripts, network and plugins even if some text escaped its escaping: the page needs
 * nothing but its inline stylesheet.
 */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * A report as one self-contained HTML page: inline CSS, no script, no external URL (it makes no
 * request and works offline and without JavaScript). Summary cards; the comparison with a
 * baseline when given (regressions first and highlighted); a table of cases and one of
 * evaluators; then each case as a `<details>` with its input, expected output, and per run the
 * error, every evaluator's verdict and reason, the output and the transcript (tool calls with
 * their arguments, tool results), tokens, cost and latency. Every text from the report is
 * escaped: model output is untrusted.
 */
export function renderHtml(report: ExperimentReport, options: RenderHtmlOptions = {}): string {
  const title = options.title ?? `Eval: ${report.name}`;
  const comparison = options.comparison;
  const changes = new Map(comparison?.cases.map((c) => [c.name, c.change]) ?? []);
  const metadata = Object.entries(report.metadata);
  const sub = [
    `experiment <b>${escapeHtml(report.name)}</b>`,
    `dataset <b>${escapeHtml(report.dataset)}</b>`,
    `started ${escapeHtml(report.startedAt)}`,
    `took ${formatMs(report.durationMs)}`,
    `${String(report.repeat)} run${report.repeat === 1 ? '' : 's'} per case`,
  ].join(' · ');
  const meta =
    metadata.length === 0
      ? ''
      : `<dl>${metadata
          .map(
            ([key, value]) =>
              `<div><dt>${escapeHtml(key)}</dt><dd>${escapeValue(value)}</dd></div>`,
          )
          .join('')}</dl>`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head><body>',
    `<header class="top"><h1>${escapeHtml(title)}</h1><p class="sub">${sub}</p>${meta}</header>`,
    '<main>',
    summaryCards(report),
    comparison === undefined ? '' : comparisonSection(comparison),
    casesTable(report, changes),
    evaluatorsTable(report),
    `<section id="case-details"><h2>Case details</h2>${report.cases
      .map((c, index) => caseDetails(c, index, changes.get(c.name)))
      .join('')}</section>`,
    `<footer>golem eval report · format ${String(report.golemEvalReport)}</footer>`,
    '</main></body></html>',
    '',
  ].join('\n');
}

function summaryCards(report: ExperimentReport): string {
  const s = report.summary;
  const judged = totalTokens(s.evaluatorUsage) > 0 || s.evaluatorCost !== undefined;
  const cards = [
    card(
      'Pass rate',
      formatPercent(s.passRate),
      `${String(s.passed)} of ${String(s.runs)} runs passed`,
      s.failed === 0 ? 'ok' : 'bad',
    ),
    card(
      'Runs',
      String(s.runs),
      `${String(s.cases)} cases × ${String(report.repeat)} · ${String(s.failed)} failed · ${String(s.errored)} errored`,
      s.errored === 0 ? undefined : 'bad',
    ),
    card('Mean score', formatScore(s.meanScore), 'mean of the cases’ mean scores'),
    card('Tokens', formatCount(totalTokens(s.usage)), formatTokens(s.usage)),
    card('Cost', formatCost(s.cost), s.cost === undefined ? 'not priced' : 'task cost, all runs'),
    card(
      'Latency p50',
      formatMs(s.latency.p50),
      `p90 ${formatMs(s.latency.p90)} · p99 ${formatMs(s.latency.p99)} · max ${formatMs(s.latency.max)}`,
    ),
    card('Replayed', `${String(s.replayed)}/${String(s.runs)}`, 'runs served from cassettes'),
  ];
  if (judged)
    cards.push(
      card(
        'Judges',
        formatCount(totalTokens(s.evaluatorUsage)),
        s.evaluatorCost === undefined
          ? 'tokens (not priced)'
          : `tokens · cost ${formatCost(s.evaluatorCost)}`,
      ),
    );
  return `<section class="cards" id="summary" aria-label="Summary">${cards.join('')}</section>`;
}

function casesTable(report: ExperimentReport, changes: ReadonlyMap<string, CaseChange>): string {
  if (report.cases.length === 0)
    return '<section id="cases"><h2>Cases</h2><p class="muted">No cases.</p></section>';
  const compared = changes.size > 0;
  const rows = report.cases.map((c, index) => {
    const stats = caseStats(c);
    const chips = stats.evaluators.map((e) => {
      const ok = e.passed === e.count;
      const label = `${ok ? '✓' : '✗'} ${e.name}`;
      return `<span class="chip ${ok ? 'pass' : 'fail'}" title="${escapeHtml(label)}">${escapeHtml(label)}</span>`;
    });
    if (stats.errored > 0)
      chips.unshift(`<span class="chip fail">${String(stats.errored)} errored</span>`);
    const change = changes.get(c.name);
    return (
      `<tr><td>${statusBadge(c.passRate)}</td>` +
      `<td class="name"><a href="#case-${String(index)}-body">${escapeHtml(c.name)}</a></td>` +
      `<td class="num">${rateBar(c.passRate)}${formatPercent(c.passRate)}</td>` +
      `<td class="num">${formatScore(c.meanScore)}</td>` +
      `<td><div class="chips">${chips.join('')}</div></td>` +
      `<td class="num">${formatCount(totalTokens(stats.usage))}</td>` +
      `<td class="num">${formatCost(stats.cost)}</td>` +
      `<td class="num">${formatMs(stats.meanDurationMs)}</td>` +
      (compared ? `<td>${change === undefined ? '' : CHANGE_BADGE[change]}</td>` : '') +
      '</tr>'
    );
  });
  return (
    '<section id="cases"><h2>Cases</h2><div class="scroll"><table><thead><tr>' +
    '<th>Status</th><th>Case</th><th class="num">Pass rate</th><th class="num">Score</th>' +
    '<th>Evaluators</th><th class="num">Tokens</th><th class="num">Cost</th><th class="num">Latency</th>' +
    (compared ? '<th>vs baseline</th>' : '') +
    `</tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`
  );
}

function evaluatorsTable(report: ExperimentReport): string {
  const evaluators = report.summary.evaluators;
  if (evaluators.length === 0) return '';
  const rows = evaluators.map(
    (e) =>
      `<tr><td class="name">${escapeHtml(e.name)}</td><td class="num">${String(e.count)}</td>` +
      `<td class="num">${rateBar(e.passRate)}${formatPercent(e.passRate)}</td>` +
      `<td class="num">${formatScore(e.meanScore)}</td>` +
      `<td class="num">${e.errors === 0 ? '0' : `<span class="badge fail">${String(e.errors)}</span>`}</td></tr>`,
  );
  return (
    '<section id="evaluators"><h2>Evaluators</h2><div class="scroll"><table><thead><tr>' +
    '<th>Evaluator</th><th class="num">Runs</th><th class="num">Pass rate</th><th class="num">Mean score</th>' +
    `<th class="num">Errors</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`
  );
}

function caseDetails(c: CaseReport, index: number, change: CaseChange | undefined): string {
  const stats = caseStats(c);
  const failed = c.passRate < 1;
  const facts = [
    `${formatPercent(c.passRate)} passed`,
    `score ${formatScore(c.meanScore)}`,
    ...(c.runs.length > 1 ? [`σ ${formatScore(c.scoreStdDev)}`] : []),
    formatMs(stats.meanDurationMs),
  ].join(' · ');
  const io = [
    `<div><h4>Input</h4><pre>${escapeValue(c.input)}</pre></div>`,
    ...(c.expected === undefined
      ? []
      : [`<div><h4>Expected</h4><pre>${escapeValue(c.expected)}</pre></div>`]),
    ...(c.metadata === undefined || Object.keys(c.metadata).length === 0
      ? []
      : [`<div><h4>Metadata</h4><pre>${escapeValue(c.metadata)}</pre></div>`]),
  ];
  return (
    `<details class="case${failed ? ' fail' : ''}" id="case-${String(index)}" data-case="${escapeHtml(c.name)}">` +
    `<summary>${statusBadge(c.passRate)} <span class="case-name">${escapeHtml(c.name)}</span> ` +
    `<span class="muted">${facts}</span>${change === undefined ? '' : ` ${CHANGE_BADGE[change]}`}</summary>` +
    `<div class="case-body" id="case-${String(index)}-body"><div class="io">${io.join('')}</div>` +
    c.runs.map((run) => runSection(run, c.runs.length > 1)).join('') +
    '</div></details>'
  );
}

function runSection(run: CaseRun, numbered: boolean): string {
  const facts = [
    formatMs(run.durationMs),
    `${formatTokens(run.usage)} tokens`,
    ...(run.cost === undefined ? [] : [`cost ${formatCost(run.cost)}`]),
    `${String(run.requests)} request${run.requests === 1 ? '' : 's'}`,
    `${String(run.turns)} turn${run.turns === 1 ? '' : 's'}`,
    ...(run.attempts > 1 ? [`${String(run.attempts)} attempts`] : []),
    ...(run.replayed ? ['replayed from cassette'] : []),
  ].join(' · ');
  const heading = `${numbered ? `Run ${String(run.repeat + 1)} · ` : ''}${run.pass ? 'passed' : 'failed'}`;
  const error =
    run.error === undefined
      ? ''
      : `<div class="error"><b>${escapeHtml(run.error.name)}${
          run.error.stage === undefined ? '' : ` [${escapeHtml(run.error.stage)}]`
        }</b>: ${escapeHtml(run.error.message)}</div>`;
  const verdicts =
    run.scores.length === 0
      ? ''
      : '<div class="scroll evals"><table><thead><tr><th>Verdict</th><th>Evaluator</th>' +
        '<th class="num">Score</th><th>Reason</th></tr></thead><tbody>' +
        run.scores
          .map((score) => {
            const verdict = score.pass
              ? '<span class="badge pass">✓ pass</span>'
              : `<span class="badge fail">✗ ${score.error === undefined ? 'fail' : 'error'}</span>`;
            const label =
              score.label === undefined
                ? ''
                : `<span class="badge neutral">${escapeHtml(score.label)}</span> `;
            const spent =
              score.usage === undefined
                ? ''
                : ` <span class="muted">(${formatTokens(score.usage)}${score.cost === undefined ? '' : `, cost ${formatCost(score.cost)}`})</span>`;
            const reason =
              score.error === undefined
                ? escapeHtml(score.reason ?? '')
                : `<span class="error-text">threw: ${escapeHtml(score.error)}</span>`;
            return (
              `<tr><td>${verdict}</td><td class="name">${escapeHtml(score.name)}</td>` +
              `<td class="num">${formatScore(score.score)}</td><td class="reason">${label}${reason}${spent}</td></tr>`
            );
          })
          .join('') +
        '</tbody></table></div>';
  const output =
    run.output === undefined
      ? ''
      : `<h4>Output</h4><pre class="output">${escapeValue(run.output)}</pre>`;
  return (
    `<section class="run ${run.pass ? 'pass' : 'fail'}"><h3>${heading}</h3><p class="run-facts">${facts}</p>` +
    `${error}${verdicts}${output}<h4 style="margin-top:12px">Transcript</h4>${renderTranscript(run.messages)}</section>`
  );
}
