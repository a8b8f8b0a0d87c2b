import type { ValidationError } from 'class-validator';
import { clipMessage, pathJoin } from '../../src/core/kit/problem-text';

/** Most problems listed in one rejection; the rest are counted. */
export const MAX_PROBLEMS = 10;

/** One problem with a value: where (`days[0].high`, `''` for the value itself) and what. */
export interface Problem {
  readonly path: string;
  readonly message: string;
}

/**
 * class-validator's error tree as problems for the model: `city: must be a string`,
 * `days[0].high: must be an integer`, `extra: is not an allowed property`.
 */
export function problemsOf(errors: readonly ValidationError[], path = ''): Problem[] {
  const problems: Problem[] = [];
  for (const error of errors) {
    const here = pathJoin(path, error.property);
    for (const [name, message] of relevant(error.constraints ?? {})) {
      problems.push({ path: here, message: clipMessage(rephrase(name, message, error.property)) });
    }
    if (error.children !== undefined && error.children.length > 0) {
      problems.push(...problemsOf(error.children, here));
    }
  }
  return problems;
}

/**
 * The rejection reason: `path: message` lines joined by `; `, at most {@link MAX_PROBLEMS} of
 * them.
 */
export function reasonOf(problems: readonly Problem[]): string {
  const lines = problems
    .slice(0, MAX_PROBLEMS)
    .map(({ path, message }) => (path === '' ? message : `${path}: ${message}`));
  const more = problems.length - MAX_PROBLEMS;
  return more > 0 ? `${lines.join('; ')}; and ${more} more` : lines.join('; ');
}

/** Whether `path` is `ancestor` or lies inside it (`a` covers `a`, `a.b` and `a[0]`). */
export function isWithin(path: string, ancestor: string): boolean {
  if (!path.startsWith(ancestor)) return false;
  const next = path.charAt(ancestor.length);
  return next === '' || next === '.' || next === '[' || ancestor === '';
}

/**
 * Validators that check what kind of value it is. When one fails, the bounds and formats that
 * also failed say nothing useful ("3" fails `max` too), so only the kind is reported.
 */
const KIND_CONSTRAINTS: ReadonlySet<string> = new Set([
  'whitelistValidation',
  'unknownValue',
  'nestedValidation',
  'isDefined',
  'isString',
  'isNumber',
  'isInt',
  'isBoolean',
  'isDate',
  'isArray',
  'isObject',
  'isEnum',
  'isIn',
]);

function relevant(constraints: Record<string, string>): Array<[string, string]> {
  const entries = Object.entries(constraints);
  const kind = entries.find(([name]) => KIND_CONSTRAINTS.has(name));
  return kind === undefined ? entries : [kind];
}

function rephrase(name: string, message: string, property: string): string {
  if (name === 'whitelistValidation') return 'is not an allowed property';
  if (name === 'nestedValidation') return 'must be an object';
  if (name === 'unknownValue') return 'is not a valid object';
  const each = `each value in ${property} `;
  if (message.startsWith(each)) return `each value ${message.slice(each.length)}`;
  if (message.startsWith(`${property} `)) return message.slice(property.length + 1);
  return message;
}
