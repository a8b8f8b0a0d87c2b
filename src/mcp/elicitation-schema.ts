import { isRecord } from '../core/kit/guards';

/** Enum values named in a problem, at most this many (the rest as `…`). */
const MAX_LISTED = 8;

/**
 * What is wrong with an accepted form answer, checked against the server's `requestedSchema` —
 * the protocol's restricted JSON Schema: a flat object whose properties are strings (`minLength`,
 * `maxLength`, `format`: `email`, `uri`, `date`, `date-time`), numbers and integers (`minimum`,
 * `maximum`), booleans, single-select enums (`enum`, or `oneOf` of `{ const, title }`) and
 * multi-select enums (`type: 'array'` with `items.enum` or `items.anyOf`, `minItems`, `maxItems`),
 * plus `required`. A field the schema does not define is a problem too (nothing unasked is sent).
 * Returns one line per problem, naming the field and the rule but never the value (answers can
 * be personal); an empty array when the answer fits. A handler can call it to ask the user again.
 */
export function elicitationProblems(schema: unknown, content: Record<string, unknown>): string[] {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const problems: string[] = [];
  const required = isRecord(schema) && Array.isArray(schema.required) ? schema.required : [];
  for (const name of required) {
    if (typeof name === 'string' && content[name] === undefined)
      problems.push(`field ${JSON.stringify(name)} is required`);
  }
  for (const [name, value] of Object.entries(content)) {
    if (value === undefined) continue;
    const field = `field ${JSON.stringify(name)}`;
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!isRecord(property)) {
      problems.push(`${field} is not in the requested schema`);
      continue;
    }
    const problem = propertyProblem(property, value);
    if (problem !== undefined) problems.push(`${field} ${problem}`);
  }
  return problems;
}

function propertyProblem(schema: Record<string, unknown>, value: unknown): string | undefined {
  switch (schema.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'number':
    case 'integer':
      return numberProblem(schema, value);
    case 'string':
      return stringProblem(schema, value);
    case 'array':
      return selectionProblem(schema, value);
    default:
      return 'has a type this client does not support (the schema is not an elicitation schema)';
  }
}

function numberProblem(schema: Record<string, unknown>, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  if (schema.type === 'integer' && !Number.isInteger(value)) return 'must be an integer';
  if (typeof schema.minimum === 'number' && value < schema.minimum)
    return `must be at least ${schema.minimum}`;
  if (typeof schema.maximum === 'number' && value > schema.maximum)
    return `must be at most ${schema.maximum}`;
  return undefined;
}

function stringProblem(schema: Record<string, unknown>, value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  const choices = singleChoices(schema);
  if (choices !== undefined)
    return choices.includes(value) ? undefined : `must be one of ${listed(choices)}`;
  // JSON Schema counts characters (code points): a surrogate pair is one.
  const length = value.length - (value.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
  if (typeof schema.minLength === 'number' && length < schema.minLength)
    return `must have at least ${schema.minLength} characters`;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength)
    return `must have at most ${schema.maxLength} characters`;
  if (typeof schema.format === 'string' && !FORMATS[schema.format]?.(value))
    return `must be ${FORMAT_NAMES[schema.format] ?? `in format ${schema.format}`}`;
  return undefined;
}

function selectionProblem(schema: Record<string, unknown>, value: unknown): string | undefined {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    return 'must be an array of strings';
  const items = isRecord(schema.items) ? schema.items : {};
  const choices = Array.isArray(items.enum) ? strings(items.enum) : constants(items.anyOf);
  if (choices !== undefined) {
    const outside = value.some((item) => !choices.includes(item));
    if (outside) return `must hold only ${listed(choices)}`;
  }
  if (typeof schema.minItems === 'number' && value.length < schema.minItems)
    return `must hold at least ${schema.minItems} items`;
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
    return `must hold at most ${schema.maxItems} items`;
  return undefined;
}

/** The allowed values of a single-select enum (`enum`, or `oneOf` of `{ const }`). */
function singleChoices(schema: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(schema.enum)) return strings(schema.enum);
  return constants(schema.oneOf);
}

function constants(options: unknown): string[] | undefined {
  if (!Array.isArray(options)) return undefined;
  return strings(options.map((option) => (isRecord(option) ? option.const : undefined)));
}

function strings(values: readonly unknown[]): string[] {
  return values.filter((value): value is string => typeof value === 'string');
}

function listed(choices: readonly string[]): string {
  const shown = choices.slice(0, MAX_LISTED).map((choice) => JSON.stringify(choice));
  return `${shown.join(', ')}${choices.length > MAX_LISTED ? ', …' : ''}`;
}

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  email: 'an email address',
  uri: 'an absolute URI',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date-time (RFC 3339, e.g. 2025-01-31T09:30:00Z)',
};

const FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  email: (value) => /^[^\s@]+@[^\s@]+$/.test(value),
  uri: (value) => /^[a-z][a-z\d+.-]*:\S+$/i.test(value) && URL.canParse(value),
  date: (value) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    return match !== null && realDate(match[1], match[2], match[3]);
  },
  'date-time': (value) => {
    const match =
      /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/.exec(
        value,
      );
    if (match === null || !realDate(match[1], match[2], match[3])) return false;
    const [hour, minute, second, offsetHour, offsetMinute] = [4, 5, 6, 7, 8].map((i) =>
      Number(match[i] ?? 0),
    ) as [number, number, number, number, number];
    return hour < 24 && minute < 60 && second <= 60 && offsetHour < 24 && offsetMinute < 60;
  },
};

function realDate(year?: string, month?: string, day?: string): boolean {
  const [y, m, d] = [year, month, day].map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
