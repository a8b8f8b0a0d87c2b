import type { Evaluator } from '../evaluator';
import { firstDifference } from './deep-equal';
import { evaluatorName, type NamedOptions } from './options';
import { preview } from './preview';

/**
 * Passes when the output deep-equals `value` (when given) or else the case's `expected`. The
 * comparison is JSON-structural: class instances compare by their own enumerable properties,
 * `undefined` properties count as absent, dates by their ISO text. The reason names the first
 * differing path (`$.days[1].high`) with the expected and found values.
 */
export function equals(value?: unknown, options: NamedOptions = {}): Evaluator {
  const name = evaluatorName(options.name, 'equals');
  const explicit = value !== undefined;
  return {
    name,
    evaluate: (ctx) => {
      const expected = explicit ? value : ctx.expected;
      if (!explicit && expected === undefined) {
        throw new Error(
          `equals: case '${ctx.case.name}' has no expected value; set the case's expected or pass equals(value)`,
        );
      }
      const diff = firstDifference(expected, ctx.output);
      if (diff === undefined) return { pass: true, reason: 'output equals the expected value' };
      const where = diff.path === '$' ? 'output' : `output at ${diff.path}`;
      return {
        pass: false,
        reason: `${where}: expected ${preview(diff.expected)}, found ${preview(diff.found)}`,
      };
    },
  };
}
