import type { Usage } from '../core/index';
import type { CaseComparison } from './report-types';

/**
 * How reports spell numbers, shared by the text, comparison and HTML renderers so all three
 * agree: rates as percentages, scores with two decimals, costs without a currency (the price
 * table's), durations in ms or s, and signed deltas.
 */

/** A 0–1 rate as a percentage: `100%`, `66.7%`. */
export function formatPercent(rate: number): string {
  if (!Number.isFinite(rate)) return '-';
  const value = Math.round(rate * 1000) / 10;
  return `${trimZero(value.toFixed(1))}%`;
}

/** A 0–1 score with two decimals: `0.85`. */
export function formatScore(score: number): string {
  return Number.isFinite(score) ? score.toFixed(2) : '-';
}

/** A cost in the price table's currency; `-` when not priced. */
export function formatCost(cost: number | undefined): string {
  if (cost === undefined || !Number.isFinite(cost)) return '-';
  const size = Math.abs(cost);
  if (size === 0) return '0';
  if (size >= 1) return cost.toFixed(2);
  if (size >= 0.01) return cost.toFixed(4);
  return String(Number(cost.toPrecision(2)));
}

/** A duration: `850ms`, `1.25s`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  if (Math.abs(ms) < 1000) return `${String(Math.round(ms))}ms`;
  return `${(ms / 1000).toFixed(2)}s`;
}

/** A whole count with thousands separators: `12,345`. */
export function formatCount(count: number): string {
  if (!Number.isFinite(count)) return '-';
  return Math.round(count).toLocaleString('en-US');
}

/** Tokens used, input and output: `1,200 in / 80 out`. */
export function formatTokens(usage: Usage): string {
  return `${formatCount(usage.inputTokens)} in / ${formatCount(usage.outputTokens)} out`;
}

/** Total tokens (input + output). */
export function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}

/** A change in a 0–1 rate, in percentage points: `+12.5 pts`, `-50 pts`, `±0 pts`. */
export function formatRateDelta(delta: number): string {
  const points = Math.round(delta * 1000) / 10;
  return `${sign(points)}${trimZero(Math.abs(points).toFixed(1))} pts`;
}

/** A change in a 0–1 score: `+0.05`, `-0.50`, `±0.00`. */
export function formatScoreDelta(delta: number): string {
  const rounded = Math.round(delta * 100) / 100;
  return `${sign(rounded)}${Math.abs(rounded).toFixed(2)}`;
}

/** A change in cost: `+0.0012`; `-` when either side was not priced. */
export function formatCostDelta(delta: number | undefined): string {
  if (delta === undefined || !Number.isFinite(delta)) return '-';
  return `${sign(delta)}${formatCost(Math.abs(delta))}`;
}

/** A change in a duration: `+120ms`, `-1.50s`. */
export function formatMsDelta(delta: number): string {
  const rounded = Math.round(delta);
  return `${sign(rounded)}${formatMs(Math.abs(rounded))}`;
}

function sign(value: number): string {
  if (value > 0) return '+';
  if (value < 0) return '-';
  return '±';
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

/**
 * A compared case's pass rate or mean score as `before → after` (one value when unchanged;
 * `missing` stands for a side without the case).
 */
export function caseMove(
  c: CaseComparison,
  key: 'passRate' | 'meanScore',
  missing: string,
): string {
  const show = key === 'passRate' ? formatPercent : formatScore;
  const before = c.baseline === undefined ? missing : show(c.baseline[key]);
  const after = c.candidate === undefined ? missing : show(c.candidate[key]);
  return before === after ? after : `${before} → ${after}`;
}
