import type { ValidationError } from 'class-validator';

/** Most problems listed in one rejection; the rest are counted. */
export const MAX_PROBLEMS = 10;
const MAX_MESSAGE = 200;

/**
 * class-validator's error tree as `path: message` lines for the model: `city: must be a string`,
 * `days[0].high: must be an integer`, `extra: is not an allowed property`.
 */
export function problemsOf(errors: readonly ValidationError[], path = ''): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const here = join(path, error.property);
    for (const [name, message] of relevant(error.constraints ?? {})) {
      lines.push(`${here}: ${clip(rephrase(name, message, error.property))}`);
    }
    if (error.children !== undefined && error.children.length > 0) {
      lines.push(...problemsOf(error.children, here));
    }
  }
  return lines;
}

/** The rejection reason: problems joined by `; `, at most {@link MAX_PROBLEMS} of them. */
export function reasonOf(problems: readonly string[]): string {
  const shown = problems.slice(0, MAX_PROBLEMS).join('; ');
  const more = problems.length - MAX_PROBLEMS;
  return more > 0 ? `${shown}; and ${more} more` : shown;
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

function join(path: string, property: string): string {
  if (path === '') return property;
  return /^\d+$/.test(property) ? `${path}[${property}]` : `${path}.${property}`;
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

function clip(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}
