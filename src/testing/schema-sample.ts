import type { JsonSchema, JsonValue } from '../core/kit/json';
import { deepCopy } from './deep-copy';
import { flattenAllOf, sampleBranches } from './schema-combinators';
import type { SampleContext } from './schema-sample-context';
import { RecursiveRefError, SchemaSampleError } from './schema-sample-error';
import { has, isSchema, type Schema } from './schema-node';
import { sampleRef } from './schema-ref';
import { sampleArray } from './schema-sample-array';
import { sampleNumber } from './schema-sample-number';
import { sampleObject } from './schema-sample-object';
import { sampleString } from './schema-sample-string';

export { SchemaSampleError };

/** Options of {@link sampleFromSchema}. */
export interface SampleOptions {
  /** Include optional object properties (not in `required`); default true. */
  includeOptional?: boolean;
}

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
 *   beyond that is a `SchemaSampleError` — add an `examples` entry to the schema instead;
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
 * a `SchemaSampleError` naming the schema path.
 */
export function sampleFromSchema(
  schema: JsonSchema | boolean,
  options: SampleOptions = {},
): JsonValue {
  const ctx: SampleContext = {
    root: schema,
    includeOptional: options.includeOptional ?? true,
    refs: [],
    sample,
  };
  return sample(ctx, schema, '#', 0);
}

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

function sample(ctx: SampleContext, schema: unknown, path: string, variant: number): JsonValue {
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

function sampleTyped(ctx: SampleContext, schema: Schema, path: string, variant: number): JsonValue {
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
  ctx: SampleContext,
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

function copyJson(value: unknown): JsonValue {
  return deepCopy(value) as JsonValue;
}

function describeJson(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return typeof value === 'object' || typeof value === 'string'
    ? JSON.stringify(value)
    : typeof value;
}
