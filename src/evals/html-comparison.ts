import { escapeHtml } from './html-escape';
import { CHANGE_BADGE, card } from './html-widgets';
import {
  caseMove,
  formatCostDelta,
  formatMsDelta,
  formatPercent,
  formatRateDelta,
  formatScoreDelta,
} from './report-numbers';
import type { CaseChange, CaseComparison, Comparison } from './report-types';

const CHANGE_ORDER: readonly CaseChange[] = [
  'regressed',
  'improved',
  'added',
  'removed',
  'unchanged',
];

/**
 * The comparison section of the HTML report: delta cards (regressions, pass rate, mean score,
 * cost, p50 latency) and the cases by change, regressions first in highlighted rows, with the
 * evaluators that moved and a pairwise judge's verdict when there is one. Every text is escaped.
 */
export function comparisonSection(comparison: Comparison): string {
  const d = comparison.delta;
  const tone = (delta: number, better: 'up' | 'down'): 'ok' | 'bad' | undefined =>
    delta === 0 ? undefined : delta > 0 === (better === 'up') ? 'ok' : 'bad';
  const cards = [
    card(
      'Regressions',
      String(comparison.regressions),
      `${String(comparison.improvements)} improved`,
      comparison.regressions > 0 ? 'bad' : 'ok',
    ),
    card('Pass rate', formatRateDelta(d.passRate), 'candidate − baseline', tone(d.passRate, 'up')),
    card(
      'Mean score',
      formatScoreDelta(d.meanScore),
      'candidate − baseline',
      tone(d.meanScore, 'up'),
    ),
    card(
      'Cost',
      formatCostDelta(d.cost),
      d.cost === undefined ? 'a side is not priced' : 'candidate − baseline',
      d.cost === undefined ? undefined : tone(d.cost, 'down'),
    ),
    card(
      'Latency p50',
      formatMsDelta(d.p50LatencyMs),
      'candidate − baseline',
      tone(d.p50LatencyMs, 'down'),
    ),
  ];
  const sorted = [...comparison.cases].sort(
    (a, b) => CHANGE_ORDER.indexOf(a.change) - CHANGE_ORDER.indexOf(b.change),
  );
  const judged = sorted.some((c) => c.preferred !== undefined || c.reason !== undefined);
  const rows = sorted.map(
    (c) =>
      `<tr class="${c.change}"><td>${CHANGE_BADGE[c.change]}</td><td class="name">${escapeHtml(c.name)}</td>` +
      `<td class="num">${caseMove(c, 'passRate', '–')}</td><td class="num">${caseMove(c, 'meanScore', '–')}</td>` +
      `<td>${evaluatorMoves(c)}</td><td>${c.outputChanged ? 'changed' : ''}</td>` +
      (judged ? `<td class="reason">${judgeCell(c)}</td>` : '') +
      '</tr>',
  );
  return (
    `<section id="comparison"><h2>Compared with ${escapeHtml(comparison.baseline)}</h2>` +
    `<p class="muted">Baseline <b>${escapeHtml(comparison.baseline)}</b> → candidate ` +
    `<b>${escapeHtml(comparison.candidate)}</b> (this report).</p>` +
    `<div class="cards">${cards.join('')}</div>` +
    (rows.length === 0
      ? ''
      : `<h3 style="margin-top:16px">Cases by change</h3><div class="scroll"><table><thead><tr><th>Change</th><th>Case</th>` +
        '<th class="num">Pass rate</th><th class="num">Score</th><th>Evaluators moved</th><th>Output</th>' +
        (judged ? '<th>Judge</th>' : '') +
        `</tr></thead><tbody>${rows.join('')}</tbody></table></div>`) +
    '</section>'
  );
}

function evaluatorMoves(c: CaseComparison): string {
  if (c.evaluators.length === 0) return '';
  const chips = c.evaluators.map((e) => {
    const before = e.baseline?.passRate;
    const after = e.candidate?.passRate;
    const worse = after === undefined || (before !== undefined && after < before);
    const text =
      `${e.name} ${before === undefined ? 'new' : formatPercent(before)} → ` +
      (after === undefined ? 'gone' : formatPercent(after));
    return `<span class="chip wrap ${worse ? 'fail' : 'pass'}" title="${escapeHtml(text)}">${escapeHtml(text)}</span>`;
  });
  return `<div class="chips">${chips.join('')}</div>`;
}

function judgeCell(c: CaseComparison): string {
  const badge =
    c.preferred === undefined
      ? ''
      : `<span class="badge ${c.preferred === 'candidate' ? 'pass' : c.preferred === 'baseline' ? 'fail' : 'neutral'}">prefers ${c.preferred}</span> `;
  return badge + escapeHtml(c.reason ?? '');
}
