import type { CaseChange } from './report-types';

/** Small pieces of the HTML report shared by its sections. Callers escape what they pass in. */

/** A summary card: an upper-case label, a big value and a detail line, with an optional tone. */
export function card(label: string, value: string, detail: string, tone?: 'ok' | 'bad'): string {
  return (
    `<div class="card${tone === undefined ? '' : ` ${tone}`}"><div class="label">${label}</div>` +
    // A long value (a tiny cost, a delta) gets a smaller size instead of breaking mid-number.
    `<div class="value${value.length > 7 ? ' long' : ''}">${value}</div>` +
    `<div class="detail">${detail}</div></div>`
  );
}

/** The badge of each way a case moved against a baseline. */
export const CHANGE_BADGE: Readonly<Record<CaseChange, string>> = {
  regressed: '<span class="badge fail">regressed</span>',
  improved: '<span class="badge pass">improved</span>',
  unchanged: '<span class="badge neutral">unchanged</span>',
  added: '<span class="badge warn">added</span>',
  removed: '<span class="badge warn">removed</span>',
};

/** A case's status badge: pass (every run), fail (none) or flaky (some). */
export function statusBadge(passRate: number): string {
  if (passRate >= 1) return '<span class="badge pass">✓ pass</span>';
  if (passRate <= 0) return '<span class="badge fail">✗ fail</span>';
  return '<span class="badge warn">◐ flaky</span>';
}

/** A small bar showing a 0–1 rate (decorative: the number is printed beside it). */
export function rateBar(rate: number): string {
  const width = Math.round(Math.min(1, Math.max(0, Number.isFinite(rate) ? rate : 0)) * 100);
  return `<span class="bar" aria-hidden="true"><span style="width:${String(width)}%"></span></span>`;
}
