import type { EvalContext, Evaluator } from '../evaluator';
import { preview } from './preview';
import { checkLimit, evaluatorConfigError, evaluatorName, type NamedOptions } from './options';

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** An evaluator passing when `measure(ctx) <= limit`; the reason says both. */
function budget(
  owner: string,
  limit: number,
  option: string,
  options: NamedOptions,
  measure: (ctx: EvalContext) => number,
  show: (value: number) => string,
): Evaluator {
  const checked = checkLimit(owner, limit, option);
  const name = evaluatorName(options.name, owner);
  return {
    name,
    evaluate: (ctx) => {
      const value = measure(ctx);
      const pass = value <= checked;
      return {
        pass,
        reason: `${pass ? 'used' : 'expected at most'} ${pass ? show(value) : show(checked)}${
          pass ? ` (limit ${show(checked)})` : `, found ${show(value)}`
        }`,
      };
    },
  };
}

/** Passes when the run took at most `n` model turns (assistant messages). */
export function maxTurns(n: number, options: NamedOptions = {}): Evaluator {
  return budget(
    'maxTurns',
    n,
    'n',
    options,
    (ctx) => ctx.turns,
    (v) => plural(v, 'turn'),
  );
}

/** Passes when the run made at most `n` model requests (retried attempts included). */
export function maxRequests(n: number, options: NamedOptions = {}): Evaluator {
  return budget(
    'maxRequests',
    n,
    'n',
    options,
    (ctx) => ctx.requests,
    (v) => plural(v, 'request'),
  );
}

/** Passes when the task took at most `ms` milliseconds (on replay: the recorded time). */
export function maxLatency(ms: number, options: NamedOptions = {}): Evaluator {
  return budget(
    'maxLatency',
    ms,
    'ms',
    options,
    (ctx) => ctx.durationMs,
    (v) => `${v} ms`,
  );
}

/** Which tokens {@link maxTokens} counts. */
export type TokenKind = 'total' | 'input' | 'output';

/** Options of {@link maxTokens}. */
export interface MaxTokensOptions extends NamedOptions {
  /** `'total'` (default: input + output), `'input'` or `'output'`. */
  readonly kind?: TokenKind;
}

/** Passes when the run used at most `n` tokens of `kind` (default: input + output). */
export function maxTokens(n: number, options: MaxTokensOptions = {}): Evaluator {
  const kind: unknown = options.kind ?? 'total';
  if (kind !== 'total' && kind !== 'input' && kind !== 'output') {
    throw evaluatorConfigError(
      `maxTokens: kind ${preview(kind)} is unknown; use 'total', 'input' or 'output'`,
      'kind',
    );
  }
  const unit = kind === 'total' ? 'token' : `${kind} token`;
  return budget(
    'maxTokens',
    n,
    'n',
    options,
    ({ usage }) =>
      kind === 'input'
        ? usage.inputTokens
        : kind === 'output'
          ? usage.outputTokens
          : usage.inputTokens + usage.outputTokens,
    (v) => plural(v, unit),
  );
}

/**
 * Passes when the run's priced cost is at most `amount` (in the price table's currency). An
 * unpriced run (no `prices` on the agent, or an unknown model) fails with the reason "not priced".
 */
export function maxCost(amount: number, options: NamedOptions = {}): Evaluator {
  const limit = checkLimit('maxCost', amount, 'amount');
  const name = evaluatorName(options.name, 'maxCost');
  return {
    name,
    evaluate: ({ cost }) => {
      if (cost === undefined) {
        return {
          pass: false,
          reason: `expected a cost of at most ${limit}, but the run is not priced (give the agent prices)`,
        };
      }
      const pass = cost <= limit;
      // Three significant digits: a sum of prices is rarely a round number (2.0549999e-5).
      const shown = String(Number(cost.toPrecision(3)));
      return {
        pass,
        reason: pass
          ? `cost ${shown} (limit ${limit})`
          : `expected a cost of at most ${limit}, found ${shown}`,
      };
    },
  };
}
