import { describeError, type Usage } from '../core/index';
import type { EvalContext, EvalScore, Evaluator, EvaluatorResult } from './evaluator';

/** The score at which a numeric verdict passes when the evaluator sets no `threshold`. */
const DEFAULT_THRESHOLD = 0.5;

function errorResult(
  name: string,
  error: string,
  extra?: Partial<EvaluatorResult>,
): EvaluatorResult {
  return { ...extra, name, pass: false, score: 0, error };
}

function clamp(score: number): number {
  return score < 0 ? 0 : score > 1 ? 1 : score;
}

function describeRaw(raw: unknown): string {
  if (typeof raw === 'number') return String(raw);
  if (raw === null) return 'null';
  return typeof raw;
}

/**
 * Turns what an evaluator returned into an {@link EvaluatorResult}: a boolean scores 1 or 0; a
 * number is clamped to 0–1 and passes at `threshold` (default 0.5); an object keeps its `pass`
 * (else derived from its score) and its `score` (else 1 or 0 from its pass), with its reason,
 * label, usage and cost. Anything else — NaN, an infinite number, an object with neither `pass`
 * nor `score`, a string — gives an error result (`pass: false`, `score: 0`, `error` says why).
 */
export function normaliseScore(
  name: string,
  threshold: number | undefined,
  returned: EvalScore,
): EvaluatorResult {
  // Checked as unknown: a JavaScript evaluator can return anything.
  const raw: unknown = returned;
  const limit = threshold ?? DEFAULT_THRESHOLD;
  if (typeof limit !== 'number' || !Number.isFinite(limit)) {
    return errorResult(
      name,
      `evaluator '${name}' has threshold ${String(limit)}: set a number between 0 and 1`,
    );
  }
  if (typeof raw === 'boolean') return { name, pass: raw, score: raw ? 1 : 0 };
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) {
      return errorResult(name, `evaluator '${name}' returned ${describeRaw(raw)}, not a score`);
    }
    const score = clamp(raw);
    return { name, pass: score >= limit, score };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return errorResult(
      name,
      `evaluator '${name}' returned ${describeRaw(raw)}: return a boolean, a number 0–1 or { pass?, score?, reason? }`,
    );
  }
  const extra: {
    reason?: string;
    label?: string;
    usage?: Usage;
    cost?: number;
  } = {};
  const verdict = raw as Record<string, unknown>;
  if (typeof verdict.reason === 'string') extra.reason = verdict.reason;
  if (typeof verdict.label === 'string') extra.label = verdict.label;
  if (typeof verdict.usage === 'object' && verdict.usage !== null) {
    extra.usage = verdict.usage as Usage;
  }
  if (typeof verdict.cost === 'number' && Number.isFinite(verdict.cost)) extra.cost = verdict.cost;
  const givenPass = verdict.pass;
  const givenScore = verdict.score;
  if (givenPass !== undefined && typeof givenPass !== 'boolean') {
    return errorResult(
      name,
      `evaluator '${name}' returned pass ${describeRaw(givenPass)}, not a boolean`,
      extra,
    );
  }
  if (
    givenScore !== undefined &&
    (typeof givenScore !== 'number' || !Number.isFinite(givenScore))
  ) {
    return errorResult(
      name,
      `evaluator '${name}' returned score ${describeRaw(givenScore)}, not a number 0–1`,
      extra,
    );
  }
  if (givenPass === undefined && givenScore === undefined) {
    return errorResult(name, `evaluator '${name}' returned neither pass nor score`, extra);
  }
  const score = givenScore !== undefined ? clamp(givenScore) : givenPass ? 1 : 0;
  const pass = givenPass ?? score >= limit;
  return { ...extra, name, pass, score };
}

/**
 * Runs one evaluator on one case run and normalises its verdict (see {@link normaliseScore}). A
 * throw (or rejection) becomes `{ pass: false, score: 0, error: <message> }`: it never escapes.
 * `name` overrides the evaluator's own (for de-duplicated names such as `equals#2`).
 */
export async function runEvaluator(
  evaluator: Evaluator,
  ctx: EvalContext,
  name?: string,
): Promise<EvaluatorResult> {
  const label = name ?? evaluator.name;
  try {
    const raw = await evaluator.evaluate(ctx);
    return normaliseScore(label, evaluator.threshold, raw);
  } catch (error) {
    return errorResult(label, describeError(error));
  }
}
