import { SchemaSampleError } from './schema-sample-error';
import { define, has, isSchema, type Schema } from './schema-node';
import { isMultiple } from './schema-sample-number';

const LOWER_BOUNDS = new Set(['minimum', 'minLength', 'minItems', 'minProperties']);
const UPPER_BOUNDS = new Set(['maximum', 'maxLength', 'maxItems', 'maxProperties']);

/** Both schemas at once (an intersection); for unrelated keywords the first schema's value wins. */
export function mergeSchemas(a: unknown, b: unknown, path: string): unknown {
  if (a === true || a === undefined) return b;
  if (b === true || b === undefined) return a;
  if (a === false || b === false) return false;
  if (!isSchema(a) || !isSchema(b))
    throw new SchemaSampleError(path, 'a schema must be an object or a boolean');
  const result: Schema = { ...a };
  for (const key of Object.keys(b)) {
    const bv = b[key];
    if (!has(result, key)) {
      define(result, key, bv);
      continue;
    }
    const av = result[key];
    if (JSON.stringify(av) === JSON.stringify(bv)) continue;
    define(result, key, mergeKeyword(key, av, bv, path));
  }
  return result;
}

function mergeKeyword(key: string, av: unknown, bv: unknown, path: string): unknown {
  const conflict = (): never => {
    throw new SchemaSampleError(path, `allOf branches disagree on "${key}" and cannot be combined`);
  };
  if (LOWER_BOUNDS.has(key) || UPPER_BOUNDS.has(key)) {
    if (typeof av !== 'number' || typeof bv !== 'number') return conflict();
    return LOWER_BOUNDS.has(key) ? Math.max(av, bv) : Math.min(av, bv);
  }
  switch (key) {
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      if (typeof av !== 'number' || typeof bv !== 'number') return conflict();
      return key === 'exclusiveMinimum' ? Math.max(av, bv) : Math.min(av, bv);
    case 'properties': {
      if (!isSchema(av) || !isSchema(bv)) return conflict();
      const merged: Schema = { ...av };
      for (const name of Object.keys(bv)) {
        define(merged, name, has(merged, name) ? { allOf: [merged[name], bv[name]] } : bv[name]);
      }
      return merged;
    }
    case 'required':
      if (!Array.isArray(av) || !Array.isArray(bv)) return conflict();
      return [...new Set([...(av as unknown[]), ...(bv as unknown[])])];
    case 'type': {
      const left = Array.isArray(av) ? (av as unknown[]) : [av];
      const right = Array.isArray(bv) ? (bv as unknown[]) : [bv];
      const both = left.filter(
        (t) => right.includes(t) || (t === 'integer' && right.includes('number')),
      );
      for (const t of right)
        if (t === 'integer' && left.includes('number') && !both.includes(t)) both.push(t);
      return both.length === 0 ? conflict() : both;
    }
    case 'enum': {
      if (!Array.isArray(av) || !Array.isArray(bv)) return conflict();
      const right = new Set(bv.map((v) => JSON.stringify(v)));
      const both = av.filter((v) => right.has(JSON.stringify(v)));
      return both.length === 0 ? conflict() : both;
    }
    case 'multipleOf': {
      if (typeof av !== 'number' || typeof bv !== 'number') return conflict();
      if (isMultiple(av, bv)) return av;
      if (isMultiple(bv, av)) return bv;
      return conflict();
    }
    case 'items':
    case 'additionalProperties':
    case 'additionalItems':
      if (Array.isArray(av) || Array.isArray(bv)) return conflict();
      return mergeSchemas(av, bv, path);
    case 'anyOf':
    case 'oneOf':
    case 'const':
    case 'pattern':
    case 'format':
    case 'prefixItems':
      return conflict();
    default:
      return av;
  }
}
