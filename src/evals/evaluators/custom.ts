import type { EvalContext, EvalScore, Evaluator } from '../evaluator';
import { checkThreshold, evaluatorConfigError, evaluatorName } from './options';

/** Options of {@link evaluator}. */
export interface CustomEvaluatorOptions {
  /** The score at which a numeric verdict passes (0–1); default 0.5. */
  readonly threshold?: number;
}

/**
 * A custom evaluator from a function: it returns a boolean, a 0–1 score, or
 * `{ pass?, score?, reason?, label? }` (see `EvalScore`), and may be async. A throw fails the
 * evaluator with the error's message.
 *
 * ```ts
 * const short = evaluator('short', ({ output }) => String(output).length <= 280);
 * ```
 */
export function evaluator<Input = unknown, Output = unknown, Expected = unknown>(
  name: string,
  fn: (ctx: EvalContext<Input, Output, Expected>) => EvalScore | Promise<EvalScore>,
  options: CustomEvaluatorOptions = {},
): Evaluator<Input, Output, Expected> {
  const checked = evaluatorName(name, 'evaluator');
  if (typeof fn !== 'function') {
    throw evaluatorConfigError(`evaluator '${checked}': pass a function (ctx) => EvalScore`, 'fn');
  }
  const threshold = checkThreshold(`evaluator '${checked}'`, options.threshold);
  return {
    name: checked,
    ...(threshold === undefined ? {} : { threshold }),
    evaluate: (ctx) => fn(ctx),
  };
}
