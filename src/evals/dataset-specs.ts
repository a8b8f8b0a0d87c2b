import { isArrayValue, isRecord } from '../core/kit/guards';
import { describeError, showValue } from '../core/kit/safe-inspect';
import type { JsonSchema, RunEventKind } from '../core/index';
import { EvalError } from './eval-error';
import type { Evaluator } from './evaluator';
import { maxCost, maxLatency, maxRequests, maxTokens, maxTurns } from './evaluators/budgets';
import { contains } from './evaluators/contains';
import { equals } from './evaluators/equals';
import { hasEvent } from './evaluators/events';
import { matchesSchema } from './evaluators/matches-schema';
import { calledTool, neverCalled, toolTrajectory } from './evaluators/tool-trajectory';

/**
 * Builds an evaluator from the value of a file spec (`{ polite: { min: 3 } }` calls the factory
 * registered as `polite` with `{ min: 3 }`; a bare `- polite` calls it with `undefined`). Throw
 * to reject the value: the error is reported with the case and the file.
 */
export type EvaluatorFactory = (arg: unknown) => Evaluator;

/** Where a spec sits, for error messages. */
export interface SpecPlace {
  /** The file, when the dataset came from one. */
  readonly file: string | undefined;
  /** The case, when the spec is a case's (else a dataset-wide spec). */
  readonly caseName: string | undefined;
  /** The spec's position in its list. */
  readonly index: number;
}

/** A value a spec builder rejected: the message says what the spec wants. */
class SpecValueError extends Error {}

type SpecBuilder = (arg: unknown) => Evaluator;

/** The evaluators a dataset file may name without registering them, by spec key. */
const BUILT_IN: Readonly<Record<string, SpecBuilder>> = Object.freeze({
  equals: (arg) => equals(arg),
  contains: containsSpec,
  matchesSchema: (arg) => {
    if (!isRecord(arg)) throw new SpecValueError('takes a JSON Schema object');
    return matchesSchema(arg as JsonSchema);
  },
  calledTool: (arg) => {
    if (typeof arg === 'string' && arg !== '') return calledTool(arg);
    if (isRecord(arg) && typeof arg.name === 'string' && arg.name !== '') {
      checkKeys(arg, ['name', 'args'], '{ name, args? }');
      return arg.args === undefined ? calledTool(arg.name) : calledTool(arg.name, arg.args);
    }
    throw new SpecValueError('takes a tool name, or { name, args? }');
  },
  neverCalled: (arg) => {
    if (typeof arg === 'string' && arg !== '') return neverCalled(arg);
    if (isArrayValue(arg) && arg.length > 0 && arg.every(isName)) {
      return neverCalled(arg);
    }
    throw new SpecValueError('takes a tool name or a non-empty list of tool names');
  },
  toolTrajectory: trajectorySpec,
  maxTurns: (arg) => maxTurns(countArg(arg, 'a number of turns')),
  maxRequests: (arg) => maxRequests(countArg(arg, 'a number of requests')),
  maxLatency: (arg) => maxLatency(countArg(arg, 'a time in milliseconds')),
  maxCost: (arg) => maxCost(countArg(arg, 'an amount')),
  maxTokens: (arg) => {
    if (typeof arg === 'number') return maxTokens(arg);
    if (isRecord(arg) && typeof arg.max === 'number') {
      checkKeys(arg, ['max', 'kind'], "{ max, kind?: 'total' | 'input' | 'output' }");
      const kind = arg.kind;
      if (kind === undefined) return maxTokens(arg.max);
      if (kind === 'total' || kind === 'input' || kind === 'output') {
        return maxTokens(arg.max, { kind });
      }
    }
    throw new SpecValueError(
      "takes a number of tokens, or { max, kind?: 'total' | 'input' | 'output' }",
    );
  },
  hasEvent: (arg) => {
    if (typeof arg === 'string' && arg !== '') return hasEvent(arg as RunEventKind);
    if (isRecord(arg) && typeof arg.kind === 'string' && arg.kind !== '') {
      checkKeys(arg, ['kind', 'min', 'max'], '{ kind, min?, max? }');
      const bounds: { min?: number; max?: number } = {};
      if (arg.min !== undefined) bounds.min = countArg(arg.min, 'min: a number');
      if (arg.max !== undefined) bounds.max = countArg(arg.max, 'max: a number');
      return hasEvent(arg.kind as RunEventKind, undefined, bounds);
    }
    throw new SpecValueError('takes an event kind (e.g. "handoff"), or { kind, min?, max? }');
  },
});

/** The evaluator names a dataset file knows without registration. */
export const BUILT_IN_SPEC_NAMES: readonly string[] = Object.freeze(Object.keys(BUILT_IN));

function containsSpec(arg: unknown): Evaluator {
  if (arg === undefined || arg === null) return contains();
  if (typeof arg === 'string') return contains(arg);
  if (isArrayValue(arg) && arg.every((item) => typeof item === 'string')) {
    return contains(arg);
  }
  if (isRecord(arg)) {
    checkKeys(arg, ['needle', 'caseSensitive', 'all'], '{ needle?, caseSensitive?, all? }');
    const { needle, caseSensitive, all } = arg;
    const needleOk =
      needle === undefined ||
      typeof needle === 'string' ||
      (isArrayValue(needle) && needle.every((item) => typeof item === 'string'));
    if (
      needleOk &&
      (caseSensitive === undefined || typeof caseSensitive === 'boolean') &&
      (all === undefined || typeof all === 'boolean')
    ) {
      const options: { caseSensitive?: boolean; all?: boolean } = {};
      if (caseSensitive !== undefined) options.caseSensitive = caseSensitive;
      if (all !== undefined) options.all = all;
      return contains(needle, options);
    }
  }
  throw new SpecValueError(
    'takes a string, a list of strings, or { needle?, caseSensitive?: boolean, all?: boolean }',
  );
}

type TrajectoryStep = string | { name: string; args?: unknown };

function trajectorySpec(arg: unknown): Evaluator {
  const usage =
    "takes a list of tool names (or { name, args? }), or { tools, order?: 'exact' | 'in-order' | 'any', args?: 'subset' | 'exact' }";
  if (isArrayValue(arg)) return toolTrajectory(stepsArg(arg, usage));
  if (isRecord(arg) && isArrayValue(arg.tools)) {
    checkKeys(arg, ['tools', 'order', 'args'], usage);
    const { order, args } = arg;
    const options: { order?: 'exact' | 'in-order' | 'any'; args?: 'subset' | 'exact' } = {};
    if (order !== undefined) {
      if (order !== 'exact' && order !== 'in-order' && order !== 'any') {
        throw new SpecValueError(usage);
      }
      options.order = order;
    }
    if (args !== undefined) {
      if (args !== 'subset' && args !== 'exact') throw new SpecValueError(usage);
      options.args = args;
    }
    return toolTrajectory(stepsArg(arg.tools, usage), options);
  }
  throw new SpecValueError(usage);
}

function stepsArg(list: readonly unknown[], usage: string): TrajectoryStep[] {
  if (list.length === 0) throw new SpecValueError(usage);
  return list.map((step) => {
    if (isName(step)) return step;
    if (isRecord(step) && isName(step.name)) {
      checkKeys(step, ['name', 'args'], usage);
      return step.args === undefined ? { name: step.name } : { name: step.name, args: step.args };
    }
    throw new SpecValueError(usage);
  });
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function countArg(arg: unknown, what: string): number {
  if (typeof arg !== 'number' || !Number.isFinite(arg) || arg < 0) {
    throw new SpecValueError(`takes ${what} (a finite number ≥ 0)`);
  }
  return arg;
}

function checkKeys(
  value: Record<string, unknown>,
  allowed: readonly string[],
  usage: string,
): void {
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  if (extra !== undefined) throw new SpecValueError(`does not take "${extra}"; it ${usage}`);
}

const specs = new WeakMap<object, unknown>();

/**
 * The file spec an evaluator was built from (a JSON value), or `undefined` for an evaluator made
 * in code: `saveDataset` writes these back.
 * @internal
 */
export function specOf(evaluator: Evaluator): unknown {
  return specs.get(evaluator);
}

/**
 * Turns one file spec into an evaluator: a bare name (`contains`), or an object with one
 * evaluator key and an optional `name` renaming it (`{ maxTurns: 3, name: 'short' }`). Names
 * registered in `custom` take precedence over the built-in ones.
 *
 * Throws `EvalError` (kind `dataset`, with `file` and `caseName`) for an unknown name — the
 * message lists the known ones — a malformed spec, or a value the evaluator rejects.
 * @internal
 */
export function evaluatorFromSpec(
  spec: unknown,
  place: SpecPlace,
  custom: Readonly<Record<string, EvaluatorFactory>> = {},
): Evaluator {
  const at = describePlace(place);
  const fail = (message: string, cause?: unknown): never => {
    throw new EvalError('dataset', `${at}: ${message}`, {
      file: place.file,
      caseName: place.caseName,
      cause,
    });
  };
  let key: string;
  let arg: unknown;
  let rename: string | undefined;
  if (typeof spec === 'string') {
    key = spec;
  } else if (isRecord(spec)) {
    const keys = Object.keys(spec).filter((k) => k !== 'name');
    const name = spec.name;
    if (keys.length !== 1) {
      return fail(
        `an evaluator spec has exactly one evaluator key (plus an optional "name"), got ${showValue(spec)}`,
      );
    }
    if (name !== undefined && (typeof name !== 'string' || name === '')) {
      return fail(`the evaluator's "name" must be a non-empty string, got ${showValue(name)}`);
    }
    key = keys[0] as string;
    arg = spec[key];
    rename = name;
  } else {
    return fail(
      `an evaluator spec is a name or an object such as { contains: "Lagos" }, got ${showValue(spec)}`,
    );
  }
  const builder = Object.hasOwn(custom, key)
    ? custom[key]
    : Object.hasOwn(BUILT_IN, key)
      ? BUILT_IN[key]
      : undefined;
  if (builder === undefined) {
    const known = [
      ...BUILT_IN_SPEC_NAMES,
      ...Object.keys(custom).filter((k) => !Object.hasOwn(BUILT_IN, k)),
    ];
    return fail(
      `unknown evaluator "${key}"; known evaluators: ${known.join(', ')} ` +
        '(register your own with the `evaluators` option: { evaluators: { name: (arg) => evaluator } })',
    );
  }
  let built: Evaluator;
  try {
    built = builder(arg);
  } catch (error) {
    if (error instanceof SpecValueError) return fail(`evaluator "${key}" ${error.message}`);
    return fail(`evaluator "${key}" rejected ${showValue(arg)}: ${describeError(error)}`, error);
  }
  if (!isEvaluatorLike(built)) {
    return fail(
      `the factory registered as "${key}" did not return an evaluator ({ name, evaluate })`,
    );
  }
  const evaluator = rename === undefined ? built : renamed(built, rename);
  if (isJsonSafe(spec)) specs.set(evaluator, spec);
  return evaluator;
}

function renamed(inner: Evaluator, name: string): Evaluator {
  const wrapper: { name: string; threshold?: number; evaluate: Evaluator['evaluate'] } = {
    name,
    evaluate: (ctx) => inner.evaluate(ctx),
  };
  if (inner.threshold !== undefined) wrapper.threshold = inner.threshold;
  return Object.freeze(wrapper);
}

function isEvaluatorLike(value: unknown): value is Evaluator {
  if (typeof value !== 'object' || value === null) return false;
  const { name, evaluate } = value as { name?: unknown; evaluate?: unknown };
  return typeof name === 'string' && typeof evaluate === 'function';
}

function describePlace(place: SpecPlace): string {
  const owner = place.caseName === undefined ? 'the dataset' : `case "${place.caseName}"`;
  const file = place.file === undefined ? '' : ` in ${place.file}`;
  return `${owner}${file}, evaluator ${place.index}`;
}

function isJsonSafe(value: unknown): boolean {
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === 'string';
  } catch {
    return false;
  }
}
