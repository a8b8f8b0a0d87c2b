import type { JsonSchema, JsonValue } from '../model/json';
import { GolemError, hasKind } from '../model/error-base';
import { deepCopy } from './deep-copy';
import { sampleFromPattern } from './pattern-sample';

/** Options of {@link sampleFromSchema}. */
export interface SampleOptions {
  /** Include optional object properties (not in `required`); default true. */
  includeOptional?: boolean;
}

/**
 * A schema (or part of it) that {@link sampleFromSchema} cannot produce a value for: an unsupported
 * keyword, a contradiction, or a construct outside the supported subset.
 */
export class SchemaSampleError extends GolemError {
  /** JSON Pointer (URI fragment form, e.g. `#/properties/city`) of the offending schema. */
  readonly path: string;
  /** Why no value could be produced. */
  readonly reason: string;

  constructor(path: string, reason: string) {
    super('SchemaSampleError', `cannot sample schema at ${path}: ${reason}`);
    this.path = path;
    this.reason = reason;
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is SchemaSampleError {
    return hasKind(value, 'SchemaSampleError');
  }
}

/** A `$ref` re-entered while it is being expanded; callers with an alternative recover from it. */
class RecursiveRefError extends SchemaSampleError {}

/**
 * A deterministic value valid against `schema`, for tests and the {@link TestModel}. Same schema,
 * same value.
 *
 * Precedence at each schema: `$ref`, `allOf` (merged), `anyOf`/`oneOf` (first branch that can be
 * sampled; for `oneOf` the value is not checked against the other branches), `const`, `enum`
 * (first), `default`, `examples` (first), then by `type` (a type array takes its first non-null
 * type; without `type` the kind is inferred from the keywords, and an unconstrained schema gives
 * `null`):
 * - strings: `"a"` padded to `minLength`; `format` `date-time`, `date`, `time`, `email`, `uri`
 *   (and `url`, `uri-reference`, `iri`), `uuid`, `hostname`, `ipv4`, `ipv6` get a fixed sample,
 *   other formats are ignored (they are annotations); `pattern` is honoured for simple regular
 *   expressions only (literals, classes, groups, first alternative, quantifiers) and a pattern
 *   beyond that is a {@link SchemaSampleError} — add an `examples` entry to the schema instead;
 * - numbers and integers: `0`, or the smallest value allowed by `minimum`/`exclusiveMinimum`
 *   (both draft forms), or the largest allowed by a negative `maximum`, respecting `multipleOf`;
 * - booleans `false`; `null` for `type: "null"`; `nullable` is accepted and ignored;
 * - objects: every required property, plus the optional ones unless `includeOptional` is false
 *   (dropped to honour `maxProperties`, extra `extraN` keys added for `minProperties` when
 *   `additionalProperties` allows); required names missing from `properties` are sampled from
 *   `additionalProperties`; `patternProperties` is ignored;
 * - arrays: the `prefixItems` (or draft-4 tuple `items`) in order, then `items` up to `minItems`
 *   (one item when no minimum is set and `items` is a schema), capped by `maxItems`; `uniqueItems`
 *   makes items vary (distinct strings, numbers, enum members).
 *
 * `$ref` resolves local JSON Pointers (`#/$defs/…`, `#/definitions/…`, `#`); a reference
 * re-entered while it is expanded ends the recursion where the schema allows it (an optional
 * property is left out, an array stops at `minItems`, a nullable type or another `anyOf` branch
 * is used, a nullable target gives `null`). `not`, `if`, `contains`, the `dependent*` keywords,
 * dynamic and remote references, `propertyNames` on a non-empty object, and contradictions throw
 * a {@link SchemaSampleError} naming the schema path.
 */
export function sampleFromSchema(
  schema: JsonSchema | boolean,
  options: SampleOptions = {},
): JsonValue {
  const ctx: Context = { root: schema, includeOptional: options.includeOptional ?? true, refs: [] };
  return sample(ctx, schema, '#', 0);
}

interface Context {
  readonly root: unknown;
  readonly includeOptional: boolean;
  /** References being expanded, innermost last. */
  readonly refs: string[];
}

type Schema = Record<string, unknown>;

const UNSUPPORTED = [
  'not',
  'if',
  'contains',
  'dependentSchemas',
  'dependentRequired',
  'dependencies',
  '$dynamicRef',
  '$recursiveRef',
] as const;

const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'] as const;
type TypeName = (typeof TYPES)[number];

function sample(ctx: Context, schema: unknown, path: string, variant: number): JsonValue {
  if (schema === true) return null;
  if (schema === false) throw new SchemaSampleError(path, 'the schema `false` accepts no value');
  if (!isSchema(schema))
    throw new SchemaSampleError(path, 'a schema must be an object or a boolean');
  if (has(schema, '$ref')) return sampleRef(ctx, schema, path, variant);
  for (const keyword of UNSUPPORTED) {
    if (has(schema, keyword)) throw new SchemaSampleError(path, `unsupported keyword "${keyword}"`);
  }
  if (has(schema, 'allOf')) return sample(ctx, flattenAllOf(ctx, schema, path, []), path, variant);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (has(schema, keyword)) return sampleBranches(ctx, schema, keyword, path, variant);
  }
  if (has(schema, 'const')) return copyJson(schema.const);
  if (has(schema, 'enum')) {
    const members = schema.enum;
    if (!Array.isArray(members) || members.length === 0) {
      throw new SchemaSampleError(path, '"enum" must be a non-empty array');
    }
    return copyJson(members[variant % members.length]);
  }
  if (variant === 0 && has(schema, 'default')) return copyJson(schema.default);
  const examples = schema.examples;
  if (Array.isArray(examples) && variant < examples.length) return copyJson(examples[variant]);
  return sampleTyped(ctx, schema, path, variant);
}

function sampleTyped(ctx: Context, schema: Schema, path: string, variant: number): JsonValue {
  const types = typesOf(schema, path);
  const chosen = types.find((t) => t !== 'null') ?? (types.length > 0 ? 'null' : inferType(schema));
  const nullable = types.includes('null') || schema.nullable === true;
  try {
    return sampleType(ctx, schema, chosen, path, variant);
  } catch (error) {
    if (nullable && error instanceof RecursiveRefError) return null;
    throw error;
  }
}

function sampleType(
  ctx: Context,
  schema: Schema,
  type: TypeName | undefined,
  path: string,
  variant: number,
): JsonValue {
  switch (type) {
    case undefined:
    case 'null':
      return null;
    case 'boolean':
      return variant % 2 === 1;
    case 'string':
      return sampleString(schema, path, variant);
    case 'number':
    case 'integer':
      return sampleNumber(schema, path, type === 'integer', variant);
    case 'object':
      return sampleObject(ctx, schema, path, variant);
    case 'array':
      return sampleArray(ctx, schema, path, variant);
  }
}

function typesOf(schema: Schema, path: string): TypeName[] {
  if (!has(schema, 'type')) return [];
  const raw = schema.type;
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) throw new SchemaSampleError(path, '"type" is an empty list');
  return list.map((t) => {
    if (typeof t !== 'string' || !(TYPES as readonly string[]).includes(t)) {
      throw new SchemaSampleError(path, `unsupported type ${describeJson(t)}`);
    }
    return t as TypeName;
  });
}

/** Whether a schema says outright that `null` is valid (`type` includes it, or `nullable`). */
function acceptsNull(schema: unknown): boolean {
  if (!isSchema(schema)) return schema === true;
  const type = schema.type;
  return (
    schema.nullable === true || type === 'null' || (Array.isArray(type) && type.includes('null'))
  );
}

function inferType(schema: Schema): TypeName | undefined {
  const hints: Array<[TypeName, readonly string[]]> = [
    [
      'object',
      ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties'],
    ],
    ['array', ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems']],
    ['string', ['minLength', 'maxLength', 'pattern', 'format']],
    ['number', ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']],
  ];
  return hints.find(([, keywords]) => keywords.some((k) => has(schema, k)))?.[0];
}

// ---------------------------------------------------------------------------------------------
// References and combinators

function sampleRef(ctx: Context, schema: Schema, path: string, variant: number): JsonValue {
  const ref = schema.$ref;
  const target = resolveRef(ctx, ref, path);
  const refPath = ref as string;
  if (ctx.refs.includes(refPath)) {
    if (acceptsNull(target)) return null;
    throw new RecursiveRefError(path, `recursive $ref "${refPath}" has no finite value here`);
  }
  const siblings = withoutKeys(schema, ['$ref']);
  const effective =
    Object.keys(siblings).length === 0 ? target : mergeSchemas(siblings, target, path);
  ctx.refs.push(refPath);
  try {
    return sample(ctx, effective, refPath, variant);
  } finally {
    ctx.refs.pop();
  }
}

function resolveRef(ctx: Context, ref: unknown, path: string): unknown {
  if (typeof ref !== 'string') throw new SchemaSampleError(path, '"$ref" must be a string');
  if (ref !== '#' && !ref.startsWith('#/')) {
    throw new SchemaSampleError(
      path,
      `only local JSON Pointer references such as "#/$defs/Name" are supported, got "${ref}"`,
    );
  }
  let node: unknown = ctx.root;
  for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      token = raw;
    }
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(token)) node = node[Number(token)];
    else if (isSchema(node) && has(node, token)) node = node[token];
    else node = undefined;
    if (node === undefined) throw new SchemaSampleError(path, `$ref "${ref}" does not resolve`);
  }
  return node;
}

function sampleBranches(
  ctx: Context,
  schema: Schema,
  keyword: 'anyOf' | 'oneOf',
  path: string,
  variant: number,
): JsonValue {
  const branches = schema[keyword];
  if (!Array.isArray(branches) || branches.length === 0) {
    throw new SchemaSampleError(path, `"${keyword}" must be a non-empty array`);
  }
  const rest = withoutKeys(schema, [keyword]);
  let first: unknown;
  for (let i = 0; i < branches.length; i++) {
    const branchPath = `${path}/${keyword}/${i}`;
    try {
      const branch: unknown = branches[i];
      if (Object.keys(rest).length === 0) return sample(ctx, branch, branchPath, variant);
      const resolved =
        isSchema(branch) && has(branch, '$ref')
          ? resolveRefBranch(ctx, branch, branchPath)
          : branch;
      return sample(ctx, mergeSchemas(rest, resolved, branchPath), branchPath, variant);
    } catch (error) {
      if (!(error instanceof SchemaSampleError)) throw error;
      first ??= error;
    }
  }
  throw first;
}

/** Inlines a `$ref` branch for merging, refusing a reference that is being expanded. */
function resolveRefBranch(ctx: Context, branch: Schema, path: string): unknown {
  const ref = branch.$ref;
  const target = resolveRef(ctx, ref, path);
  if (ctx.refs.includes(ref as string)) {
    throw new RecursiveRefError(path, `recursive $ref "${ref as string}" has no finite value here`);
  }
  const siblings = withoutKeys(branch, ['$ref']);
  return Object.keys(siblings).length === 0 ? target : mergeSchemas(siblings, target, path);
}

function flattenAllOf(ctx: Context, schema: Schema, path: string, inlining: string[]): Schema {
  const branches = schema.allOf;
  if (!Array.isArray(branches)) throw new SchemaSampleError(path, '"allOf" must be an array');
  let merged: Schema = withoutKeys(schema, ['allOf']);
  branches.forEach((branch: unknown, i) => {
    const branchPath = `${path}/allOf/${i}`;
    let resolved: unknown = branch;
    let nextInlining = inlining;
    if (isSchema(branch) && has(branch, '$ref')) {
      const ref = branch.$ref as string;
      if (inlining.includes(ref) || ctx.refs.includes(ref)) {
        throw new SchemaSampleError(
          branchPath,
          `recursive $ref "${ref}" inside allOf is not supported`,
        );
      }
      resolved = resolveRefBranch(ctx, branch, branchPath);
      nextInlining = [...inlining, ref];
    }
    if (resolved === true) return;
    if (resolved === false)
      throw new SchemaSampleError(branchPath, 'the schema `false` accepts no value');
    if (!isSchema(resolved))
      throw new SchemaSampleError(branchPath, 'a schema must be an object or a boolean');
    const flat = has(resolved, 'allOf')
      ? flattenAllOf(ctx, resolved, branchPath, nextInlining)
      : resolved;
    merged = mergeSchemas(merged, flat, branchPath) as Schema;
  });
  return merged;
}

const LOWER_BOUNDS = new Set(['minimum', 'minLength', 'minItems', 'minProperties']);
const UPPER_BOUNDS = new Set(['maximum', 'maxLength', 'maxItems', 'maxProperties']);

/** Both schemas at once (an intersection); for unrelated keywords the first schema's value wins. */
function mergeSchemas(a: unknown, b: unknown, path: string): unknown {
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

// ---------------------------------------------------------------------------------------------
// Objects and arrays

function sampleObject(ctx: Context, schema: Schema, path: string, variant: number): JsonValue {
  const properties = has(schema, 'properties') ? schema.properties : {};
  if (!isSchema(properties)) throw new SchemaSampleError(path, '"properties" must be an object');
  const rawRequired = has(schema, 'required') ? schema.required : [];
  if (!Array.isArray(rawRequired) || !rawRequired.every((r) => typeof r === 'string')) {
    throw new SchemaSampleError(path, '"required" must be an array of strings');
  }
  const required = new Set<string>(rawRequired);
  const additional = schema.additionalProperties;
  const declared = Object.keys(properties);
  const requiredKeys = [
    ...declared.filter((k) => required.has(k)),
    ...[...required].filter((k) => !has(properties, k)),
  ];
  const optionalKeys = declared.filter((k) => !required.has(k));
  const min = bound(schema, 'minProperties', path) ?? 0;
  const max = bound(schema, 'maxProperties', path) ?? Number.POSITIVE_INFINITY;
  if (requiredKeys.length > max) {
    throw new SchemaSampleError(
      path,
      `${requiredKeys.length} required properties exceed maxProperties ${max}`,
    );
  }
  let optionalCount = ctx.includeOptional ? optionalKeys.length : 0;
  optionalCount = Math.min(
    Math.max(optionalCount, min - requiredKeys.length),
    optionalKeys.length,
    max - requiredKeys.length,
  );
  const included = new Set([...requiredKeys, ...optionalKeys.slice(0, optionalCount)]);

  const out: Record<string, JsonValue> = {};
  for (const key of [...declared, ...requiredKeys.filter((k) => !has(properties, k))]) {
    if (!included.has(key)) continue;
    if (has(properties, key)) {
      try {
        define(
          out,
          key,
          sample(ctx, properties[key], `${path}/properties/${pointerToken(key)}`, variant),
        );
      } catch (error) {
        if (!required.has(key) && error instanceof RecursiveRefError) continue;
        throw error;
      }
    } else {
      if (additional === false) {
        throw new SchemaSampleError(
          path,
          `required property "${key}" is not in "properties" and additionalProperties is false`,
        );
      }
      define(out, key, sample(ctx, additional ?? true, `${path}/additionalProperties`, variant));
    }
  }
  for (let n = 1; Object.keys(out).length < min; n++) {
    if (additional === false) {
      throw new SchemaSampleError(
        path,
        `minProperties ${min} cannot be met: additionalProperties is false`,
      );
    }
    const key = `extra${n}`;
    if (!has(out, key) && !has(properties, key)) {
      define(out, key, sample(ctx, additional ?? true, `${path}/additionalProperties`, variant));
    }
  }
  if (has(schema, 'propertyNames') && Object.keys(out).length > 0) {
    throw new SchemaSampleError(path, 'unsupported keyword "propertyNames" on a non-empty object');
  }
  return out;
}

function sampleArray(ctx: Context, schema: Schema, path: string, variant: number): JsonValue {
  const tupleForm = Array.isArray(schema.items);
  const rawPrefix = tupleForm ? schema.items : has(schema, 'prefixItems') ? schema.prefixItems : [];
  if (!Array.isArray(rawPrefix))
    throw new SchemaSampleError(path, '"prefixItems" must be an array');
  const prefix: unknown[] = rawPrefix;
  const prefixKey = tupleForm ? 'items' : 'prefixItems';
  const restKey = tupleForm ? 'additionalItems' : 'items';
  const rest: unknown = schema[restKey];
  const min = bound(schema, 'minItems', path) ?? 0;
  const max = bound(schema, 'maxItems', path) ?? Number.POSITIVE_INFINITY;
  let count = Math.max(min, prefix.length, prefix.length === 0 && isSchema(rest) ? 1 : 0);
  if (rest === false) count = Math.min(count, prefix.length);
  count = Math.min(count, max);
  if (count < min) throw new SchemaSampleError(path, `minItems ${min} cannot be met`);
  const unique = schema.uniqueItems === true;
  const out: JsonValue[] = [];
  for (let i = 0; i < count; i++) {
    const itemPath = i < prefix.length ? `${path}/${prefixKey}/${i}` : `${path}/${restKey}`;
    const itemSchema = i < prefix.length ? prefix[i] : (rest ?? true);
    try {
      out.push(sample(ctx, itemSchema, itemPath, unique ? variant + i : variant));
    } catch (error) {
      if (i >= min && error instanceof RecursiveRefError) break;
      throw error;
    }
  }
  if (unique && new Set(out.map((v) => JSON.stringify(v))).size !== out.length) {
    throw new SchemaSampleError(
      path,
      `cannot generate ${out.length} distinct items for uniqueItems`,
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Scalars

function sampleString(schema: Schema, path: string, variant: number): string {
  const min = bound(schema, 'minLength', path) ?? 0;
  const max = bound(schema, 'maxLength', path) ?? Number.POSITIVE_INFINITY;
  if (min > max) throw new SchemaSampleError(path, `minLength ${min} exceeds maxLength ${max}`);
  const pattern = schema.pattern;
  if (pattern !== undefined && typeof pattern !== 'string')
    throw new SchemaSampleError(path, '"pattern" must be a string');
  const formatted =
    typeof schema.format === 'string' ? formatSample(schema.format, variant) : undefined;
  let value: string | undefined;
  if (formatted !== undefined) {
    value = formatted;
  } else if (pattern !== undefined) {
    value = sampleFromPattern(pattern, min, max);
    if (value === undefined) {
      throw new SchemaSampleError(
        path,
        `cannot generate a string matching pattern ${JSON.stringify(pattern)} within the length limits ` +
          '(only simple patterns are supported); add an "examples" entry to the schema',
      );
    }
  } else {
    value = variant === 0 ? 'a' : `a${variant}`;
    if (length(value) > max) value = String.fromCharCode(97 + (variant % 26));
    value = value.padEnd(min, 'a');
    if (length(value) > max) value = value.slice(0, max);
  }
  const size = length(value);
  if (size < min || size > max || (pattern !== undefined && !matches(pattern, value))) {
    throw new SchemaSampleError(
      path,
      `the ${formatted === undefined ? 'sample' : `"${String(schema.format)}" sample`} ${JSON.stringify(value)} ` +
        'violates the length or pattern constraints; add an "examples" entry to the schema',
    );
  }
  return value;
}

function formatSample(format: string, v: number): string | undefined {
  const day = String(1 + (v % 28)).padStart(2, '0');
  switch (format) {
    case 'date-time':
      return `2024-01-${day}T00:00:00Z`;
    case 'date':
      return `2024-01-${day}`;
    case 'time':
      return `00:${String(v % 60).padStart(2, '0')}:00Z`;
    case 'email':
    case 'idn-email':
      return v === 0 ? 'user@example.com' : `user${v}@example.com`;
    case 'uri':
    case 'url':
    case 'iri':
    case 'uri-reference':
    case 'iri-reference':
      return v === 0 ? 'https://example.com/' : `https://example.com/${v}`;
    case 'uuid':
      return `00000000-0000-4000-8000-${v.toString(16).padStart(12, '0')}`;
    case 'hostname':
    case 'idn-hostname':
      return v === 0 ? 'example.com' : `host${v}.example.com`;
    case 'ipv4':
      return `192.0.2.${1 + (v % 254)}`;
    case 'ipv6':
      return `2001:db8::${(v + 1).toString(16)}`;
    default:
      return undefined;
  }
}

interface Limit {
  value: number;
  exclusive: boolean;
}

function sampleNumber(schema: Schema, path: string, integer: boolean, variant: number): number {
  const lower = limit(schema, 'minimum', 'exclusiveMinimum', path, true);
  const upper = limit(schema, 'maximum', 'exclusiveMaximum', path, false);
  const multipleOf = finite(schema, 'multipleOf', path);
  if (multipleOf !== undefined && multipleOf <= 0)
    throw new SchemaSampleError(path, '"multipleOf" must be positive');
  const step =
    multipleOf === undefined
      ? integer
        ? 1
        : undefined
      : integer
        ? integerStep(multipleOf, path)
        : multipleOf;
  let value: number;
  const fromUpper =
    lower === undefined &&
    upper !== undefined &&
    (upper.value < 0 || (upper.value === 0 && upper.exclusive));
  if (step !== undefined) {
    let k: number;
    if (lower !== undefined) {
      k = Math.ceil(snap(lower.value / step));
      if (lower.exclusive && tidy(k * step) <= lower.value) k++;
    } else if (fromUpper) {
      k = Math.floor(snap(upper.value / step));
      if (upper.exclusive && tidy(k * step) >= upper.value) k--;
    } else {
      k = 0;
    }
    k = fromUpper ? k - variant : k + variant;
    value = tidy(k * step);
    // Tidying may cross a bound by a rounding error; the next multiple inwards is then valid.
    if (!within(value, lower, upper)) value = tidy((fromUpper ? k - 1 : k + 1) * step);
  } else if (lower !== undefined) {
    value = lower.exclusive ? lower.value + 1 : lower.value;
    if (upper !== undefined && !within(value, lower, upper))
      value = (lower.value + upper.value) / 2;
    value += variant;
  } else if (fromUpper) {
    value = (upper.exclusive ? upper.value - 1 : upper.value) - variant;
  } else {
    value = variant;
  }
  if (Object.is(value, -0)) value = 0;
  if (!within(value, lower, upper)) {
    throw new SchemaSampleError(
      path,
      `no ${integer ? 'integer' : 'number'}${multipleOf === undefined ? '' : ` multiple of ${multipleOf}`} satisfies the bounds`,
    );
  }
  return value;
}

function limit(
  schema: Schema,
  inclusiveKey: string,
  exclusiveKey: string,
  path: string,
  isLower: boolean,
): Limit | undefined {
  const inclusive = finite(schema, inclusiveKey, path);
  const rawExclusive = schema[exclusiveKey];
  if (rawExclusive === true)
    return inclusive === undefined ? undefined : { value: inclusive, exclusive: true };
  const exclusive = rawExclusive === false ? undefined : finite(schema, exclusiveKey, path);
  if (exclusive === undefined)
    return inclusive === undefined ? undefined : { value: inclusive, exclusive: false };
  if (inclusive === undefined) return { value: exclusive, exclusive: true };
  const exclusiveTighter = isLower ? exclusive >= inclusive : exclusive <= inclusive;
  return exclusiveTighter
    ? { value: exclusive, exclusive: true }
    : { value: inclusive, exclusive: false };
}

function within(value: number, lower: Limit | undefined, upper: Limit | undefined): boolean {
  if (lower !== undefined && (lower.exclusive ? value <= lower.value : value < lower.value))
    return false;
  if (upper !== undefined && (upper.exclusive ? value >= upper.value : value > upper.value))
    return false;
  return Number.isFinite(value);
}

/** The smallest positive multiple of `m` that is an integer. */
function integerStep(m: number, path: string): number {
  const places = decimals(m);
  if (places === 0) return m;
  const scale = 10 ** places;
  const scaled = Math.round(m * scale);
  const step = scaled / gcd(scaled, scale);
  if (!Number.isSafeInteger(step))
    throw new SchemaSampleError(path, `no integer is a multiple of ${m}`);
  return step;
}

function decimals(n: number): number {
  const [mantissa = '', exponent = '0'] = String(n).split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Removes binary floating-point noise from a non-integer (`0.30000000000000004` → `0.3`). */
function tidy(n: number): number {
  return Number.isInteger(n) ? n : Number(n.toPrecision(15));
}

function snap(ratio: number): number {
  const nearest = Math.round(ratio);
  return Math.abs(ratio - nearest) < 1e-9 ? nearest : ratio;
}

function isMultiple(n: number, m: number): boolean {
  return Math.abs(snap(n / m) - Math.round(n / m)) === 0;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function has(schema: Schema, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(schema, key);
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function withoutKeys(schema: Schema, keys: readonly string[]): Schema {
  const copy: Schema = {};
  for (const key of Object.keys(schema)) if (!keys.includes(key)) define(copy, key, schema[key]);
  return copy;
}

function copyJson(value: unknown): JsonValue {
  return deepCopy(value) as JsonValue;
}

function finite(schema: Schema, key: string, path: string): number | undefined {
  if (!has(schema, key)) return undefined;
  const value = schema[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SchemaSampleError(path, `"${key}" must be a finite number`);
  }
  return value;
}

function bound(schema: Schema, key: string, path: string): number | undefined {
  const value = finite(schema, key, path);
  if (value !== undefined && (value < 0 || !Number.isInteger(value))) {
    throw new SchemaSampleError(path, `"${key}" must be a non-negative integer`);
  }
  return value;
}

/** Length in code points, as JSON Schema counts it. */
function length(text: string): number {
  return Array.from(text).length;
}

function matches(pattern: string, value: string): boolean {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags).test(value);
    } catch {
      // try the next flag set
    }
  }
  return false;
}

function describeJson(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return typeof value === 'object' || typeof value === 'string'
    ? JSON.stringify(value)
    : typeof value;
}

function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
