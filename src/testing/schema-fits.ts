import { isRecord } from '../core/kit/guards';
import { has, isSchema, type Schema } from './schema-node';

/** Keywords that say nothing about validity. */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  '$defs',
  'definitions',
  'title',
  'description',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'nullable',
]);

/** Keywords {@link fitsSchema} checks; any other keyword makes it answer `false`. */
const CHECKED: ReadonlySet<string> = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
]);

const MAX_DEPTH = 32;

/**
 * Whether `value` is provably valid against `schema` (`root` resolves local `$ref`s). Conservative:
 * a keyword it does not check (`format`, `not`, `patternProperties`, …), a remote or unresolvable
 * reference, or an invalid `pattern` gives `false`, so only values known to fit are accepted.
 */
export function fitsSchema(value: unknown, schema: unknown, root: unknown, depth = 0): boolean {
  if (schema === true) return true;
  if (!isSchema(schema) || depth > MAX_DEPTH) return false;
  for (const key of Object.keys(schema)) {
    if (!ANNOTATIONS.has(key) && !CHECKED.has(key)) return false;
  }
  const fits = (v: unknown, s: unknown): boolean => fitsSchema(v, s, root, depth + 1);
  if (has(schema, '$ref') && !fits(value, resolveLocal(schema.$ref, root))) return false;
  if (value === null && schema.nullable === true && !has(schema, 'enum') && !has(schema, 'const'))
    return true;
  if (has(schema, 'type') && !typeMatches(value, schema.type)) return false;
  if (has(schema, 'const') && !sameJson(value, schema.const)) return false;
  if (has(schema, 'enum')) {
    if (!Array.isArray(schema.enum) || !schema.enum.some((member) => sameJson(value, member)))
      return false;
  }
  if (has(schema, 'allOf') && !every(schema.allOf, (branch) => fits(value, branch))) return false;
  if (has(schema, 'anyOf') && !some(schema.anyOf, (branch) => fits(value, branch), 1)) return false;
  if (has(schema, 'oneOf') && !some(schema.oneOf, (branch) => fits(value, branch), 1, true))
    return false;
  if (typeof value === 'number') return numberFits(value, schema);
  if (typeof value === 'string') return stringFits(value, schema);
  if (Array.isArray(value)) return arrayFits(value, schema, fits);
  if (isRecord(value)) return objectFits(value, schema, fits);
  return true;
}

function typeMatches(value: unknown, type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((name) => {
    switch (name) {
      case 'null':
        return value === null;
      case 'boolean':
        return typeof value === 'boolean';
      case 'string':
        return typeof value === 'string';
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'integer':
        return typeof value === 'number' && Number.isInteger(value);
      case 'array':
        return Array.isArray(value);
      case 'object':
        return isRecord(value);
      default:
        return false;
    }
  });
}

function numberFits(value: number, schema: Schema): boolean {
  const bound = (key: string): number | undefined =>
    typeof schema[key] === 'number' ? schema[key] : undefined;
  const min = bound('minimum');
  const max = bound('maximum');
  if (min !== undefined && value < min) return false;
  if (max !== undefined && value > max) return false;
  const exclusive = (key: string, limit: number | undefined, below: boolean): boolean => {
    const raw = schema[key];
    if (raw === undefined) return true;
    const edge = typeof raw === 'number' ? raw : raw === true ? limit : undefined;
    if (edge === undefined) return raw === false;
    return below ? value > edge : value < edge;
  };
  if (!exclusive('exclusiveMinimum', min, true) || !exclusive('exclusiveMaximum', max, false))
    return false;
  const step = bound('multipleOf');
  if (step !== undefined && (step <= 0 || !Number.isInteger(value / step))) return false;
  return true;
}

function stringFits(value: string, schema: Schema): boolean {
  let length = 0; // in code points, as JSON Schema counts
  for (const _ of value) length++;
  if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
  if (has(schema, 'pattern')) {
    if (typeof schema.pattern !== 'string') return false;
    try {
      return new RegExp(schema.pattern, 'u').test(value);
    } catch {
      return false;
    }
  }
  return true;
}

type Fits = (value: unknown, schema: unknown) => boolean;

function arrayFits(value: unknown[], schema: Schema, fits: Fits): boolean {
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) return false;
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return false;
  if (has(schema, 'items') && !value.every((item) => fits(item, schema.items))) return false;
  if (schema.uniqueItems === true) {
    const seen = new Set(value.map((item) => JSON.stringify(item)));
    if (seen.size !== value.length) return false;
  }
  return true;
}

function objectFits(value: Record<string, unknown>, schema: Schema, fits: Fits): boolean {
  const properties = has(schema, 'properties') ? schema.properties : {};
  if (!isSchema(properties)) return false;
  if (has(schema, 'required')) {
    if (!Array.isArray(schema.required)) return false;
    if (!schema.required.every((key) => typeof key === 'string' && has(value, key))) return false;
  }
  const extra = has(schema, 'additionalProperties') ? schema.additionalProperties : true;
  return Object.keys(value).every((key) =>
    has(properties, key) ? fits(value[key], properties[key]) : fits(value[key], extra),
  );
}

function every(branches: unknown, test: (branch: unknown) => boolean): boolean {
  return Array.isArray(branches) && branches.every(test);
}

function some(
  branches: unknown,
  test: (branch: unknown) => boolean,
  atLeast: number,
  exactly = false,
): boolean {
  if (!Array.isArray(branches)) return false;
  const count = branches.filter(test).length;
  return exactly ? count === atLeast : count >= atLeast;
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** The target of a local JSON Pointer reference (`#`, `#/$defs/Name`), or `false`. */
function resolveLocal(ref: unknown, root: unknown): unknown {
  if (typeof ref !== 'string' || (ref !== '#' && !ref.startsWith('#/'))) return false;
  let node: unknown = root;
  for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (isSchema(node) && has(node, token)) node = node[token];
    else if (Array.isArray(node) && /^\d+$/.test(token)) node = node[Number(token)];
    else return false;
  }
  return node;
}
