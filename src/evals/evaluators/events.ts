import type { RunEvent, RunEventKind } from '../../core/index';
import type { EvalScore, Evaluator } from '../evaluator';
import { checkLimit, evaluatorConfigError, evaluatorName, type NamedOptions } from './options';

/** The run event of one kind. */
export type RunEventOf<K extends RunEventKind> = Extract<RunEvent, { kind: K }>;

/** Options of {@link eventCheck}. */
export interface EventCheckOptions {
  /** The score at which a numeric verdict passes (0–1); default 0.5. */
  readonly threshold?: number;
}

/** Options of {@link hasEvent}. */
export interface HasEventOptions extends NamedOptions {
  /** The fewest matching events that pass; default 1 (0 when `max` is 0). */
  readonly min?: number;
  /** The most matching events that pass; default no limit. */
  readonly max?: number;
}

const NO_EVENTS = ' (no events observed: pass ctx.runOptions to the runs the task makes)';

/**
 * A check over the run's observed events (model calls, tool executions, guardrails, handoffs,
 * compactions…, in order): `check` returns a boolean, a score or a verdict object. Events are
 * empty unless the task's runs received the experiment's observer (an `Agent` task always does;
 * a function task passes `ctx.runOptions`).
 */
export function eventCheck(
  name: string,
  check: (events: readonly RunEvent[]) => EvalScore | Promise<EvalScore>,
  options: EventCheckOptions = {},
): Evaluator {
  const checked = evaluatorName(name, 'eventCheck');
  if (typeof check !== 'function') {
    throw evaluatorConfigError(
      `eventCheck '${checked}': pass a function (events) => EvalScore`,
      'check',
    );
  }
  const threshold = options.threshold;
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) {
    throw evaluatorConfigError(
      `eventCheck '${checked}': threshold must be a number between 0 and 1`,
      'threshold',
    );
  }
  return {
    name: checked,
    ...(threshold === undefined ? {} : { threshold }),
    evaluate: (ctx) => check(ctx.events),
  };
}

/**
 * Passes when the run emitted between `min` (default 1) and `max` (default no limit) events of
 * `kind` that satisfy `where` (when given): `hasEvent('handoff')`,
 * `hasEvent('tool_end', (e) => e.error !== undefined, { max: 0 })`. Named `hasEvent(<kind>)` by
 * default.
 */
export function hasEvent<K extends RunEventKind>(
  kind: K,
  where?: (event: RunEventOf<K>) => boolean,
  options: HasEventOptions = {},
): Evaluator {
  const given: unknown = kind;
  if (typeof given !== 'string' || given === '') {
    throw evaluatorConfigError('hasEvent: pass an event kind such as "handoff"', 'kind');
  }
  if (where !== undefined && typeof where !== 'function') {
    throw evaluatorConfigError('hasEvent: where must be a function (event) => boolean', 'where');
  }
  const max =
    options.max === undefined
      ? Number.POSITIVE_INFINITY
      : checkLimit('hasEvent', options.max, 'max');
  const min = checkLimit('hasEvent', options.min ?? Math.min(1, max), 'min');
  if (min > max) {
    throw evaluatorConfigError(`hasEvent: min ${min} is above max ${max}`, 'min');
  }
  const name = evaluatorName(options.name, `hasEvent(${kind})`);
  const what = `'${kind}' event${where === undefined ? '' : 's matching the filter'}`;
  const range =
    max === 0
      ? 'no'
      : max === Number.POSITIVE_INFINITY
        ? `at least ${min}`
        : min === max
          ? `exactly ${min}`
          : min === 0
            ? `at most ${max}`
            : `${min} to ${max}`;
  return {
    name,
    evaluate: (ctx) => {
      const count = ctx.events.filter(
        (event) => event.kind === kind && (where === undefined || where(event as RunEventOf<K>)),
      ).length;
      const pass = count >= min && count <= max;
      const hint = ctx.events.length === 0 && !pass ? NO_EVENTS : '';
      return {
        pass,
        reason: `expected ${range} ${what}, found ${count}${hint}`,
      };
    },
  };
}
