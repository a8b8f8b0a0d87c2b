import { GolemError, brandGuard } from '../../core/kit/error-base';
import { isRecord } from '../../core/kit/guards';
import type { JsonObject, JsonSchema, JsonValue } from '../../core/kit/json';

/** A JSON Schema cannot be expressed in OpenAI's strict dialect. */
export class StrictSchemaError extends GolemError {
  /** JSON pointer of the offending subschema (`#` is the root). */
  readonly path: string;
  /** What is unsupported there. */
  readonly reason: string;

  constructor(path: string, reason: string) {
    super('StrictSchemaError', `schema at ${path} cannot be used in OpenAI strict mode: ${reason}`);
    this.path = path;
    this.reason = reason;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<StrictSchemaError>('StrictSchemaError');
}

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const FORMATS = new Set([
  ...['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'],
]);
const NUMBER_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
];
const SHAPE_KEYWORDS = [
  ...['type', 'properties', 'additionalProperties', 'patternProperties', 'items', 'prefixItems'],
  ...['enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref'],
];
const MAX_DEPTH = 64;

/**
 * Compiles a JSON Schema to OpenAI's strict structured-output dialect:
 * - every object gets `additionalProperties: false` and lists all its properties in `required`;
 *   a property that was optional becomes nullable (`type: [T, "null"]`, or `anyOf` with
 *   `{type: "null"}`), so the model answers `null` where it would have left the key out;
 * - `oneOf` becomes `anyOf`; a one-element `allOf` is inlined; a root `$ref` is inlined;
 * - kept: `type`, `properties`, `items`, `enum`, `const`, `anyOf`, `$ref`, `$defs`/`definitions`,
 *   `description`, `title`, `pattern`, the supported `format`s, numeric bounds,
 * `minItems`/`maxItems`;
 * - dropped (the engine's output validation still applies the original schema): `default`,
 *   `examples`, `minLength`/`maxLength`, `uniqueItems`, `not`, `if`/`then`/`else`, other formats,
 *   `patternProperties` next to `properties`, and every other keyword;
 * - rejected with `StrictSchemaError`: a root that is not an object, schemas accepting any
 *   value, objects with arbitrary keys (maps), arrays without `items`, tuples, `allOf` of several
 *   schemas, non-local `$ref`s, and nesting deeper than 64 levels.
 * The input is not modified.
 */
export function toStrictSchema(schema: JsonSchema): JsonSchema {
  let root: unknown = schema;
  if (isRecord(schema) && typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    root = { ...rest, ...resolveLocal(schema, $ref, '#') };
  }
  const out = compile(root, '#', 0);
  if (out.type !== 'object')
    throw new StrictSchemaError('#', 'the root must be an object schema (type "object")');
  return out;
}

function compile(node: unknown, path: string, depth: number): JsonObject {
  if (depth > MAX_DEPTH) throw new StrictSchemaError(path, `nesting is deeper than ${MAX_DEPTH}`);
  if (!isRecord(node)) throw new StrictSchemaError(path, 'a schema must be an object');
  const n = inlineAllOf(node, path);
  const out: JsonObject = {};
  for (const key of ['title', 'description']) if (typeof n[key] === 'string') out[key] = n[key];
  if (typeof n.$ref === 'string') {
    if (!n.$ref.startsWith('#'))
      throw new StrictSchemaError(path, 'only local $refs are supported');
    return { $ref: n.$ref, ...out };
  }
  compileDefs(n, out, path, depth);
  if (n.anyOf !== undefined || n.oneOf !== undefined) return compileAnyOf(n, out, path, depth);
  const types = typesOf(n, path);
  if (types.length > 0) out.type = types.length === 1 ? (types[0] as string) : types;
  if (Array.isArray(n.enum)) {
    const values = n.enum as JsonValue[];
    out.enum = types.includes('null') && !values.includes(null) ? [...values, null] : values;
  }
  if (n.const !== undefined) out.const = n.const as JsonValue;
  if (types.includes('string')) {
    if (typeof n.pattern === 'string') out.pattern = n.pattern;
    if (typeof n.format === 'string' && FORMATS.has(n.format)) out.format = n.format;
  }
  if (types.includes('number') || types.includes('integer'))
    for (const key of NUMBER_KEYWORDS) if (typeof n[key] === 'number') out[key] = n[key];
  if (types.includes('array')) compileArray(n, out, path, depth);
  if (types.includes('object')) compileObject(n, out, path, depth);
  return out;
}

function inlineAllOf(node: Record<string, unknown>, path: string): Record<string, unknown> {
  if (node.allOf === undefined) return node;
  const { allOf, ...rest } = node;
  const only: unknown = Array.isArray(allOf) && allOf.length === 1 ? allOf[0] : undefined;
  if (!isRecord(only) || SHAPE_KEYWORDS.some((key) => rest[key] !== undefined))
    throw new StrictSchemaError(path, 'allOf is not supported; merge the subschemas into one');
  return { ...only, ...rest };
}

function compileDefs(n: Record<string, unknown>, out: JsonObject, path: string, depth: number) {
  for (const key of ['$defs', 'definitions']) {
    const defs = n[key];
    if (!isRecord(defs)) continue;
    const compiled: JsonObject = {};
    for (const [name, def] of Object.entries(defs))
      define(compiled, name, compile(def, `${path}/${key}/${pointer(name)}`, depth + 1));
    out[key] = compiled;
  }
}

function compileAnyOf(
  n: Record<string, unknown>,
  out: JsonObject,
  path: string,
  depth: number,
): JsonObject {
  const branches = n.anyOf ?? n.oneOf;
  const keyword = n.anyOf !== undefined ? 'anyOf' : 'oneOf';
  if (n.anyOf !== undefined && n.oneOf !== undefined)
    throw new StrictSchemaError(path, 'anyOf and oneOf together are not supported');
  if (!Array.isArray(branches) || branches.length === 0)
    throw new StrictSchemaError(path, `${keyword} must be a non-empty array`);
  if (path === '#') throw new StrictSchemaError(path, `the root must be an object, not ${keyword}`);
  if (SHAPE_KEYWORDS.some((key) => key !== keyword && n[key] !== undefined))
    throw new StrictSchemaError(path, `${keyword} next to other type keywords is not supported`);
  out.anyOf = branches.map((b, i) => compile(b, `${path}/${keyword}/${i}`, depth + 1));
  return out;
}

function typesOf(n: Record<string, unknown>, path: string): string[] {
  const declared = n.type === undefined ? [] : Array.isArray(n.type) ? n.type : [n.type];
  const types: string[] = [];
  for (const t of declared) {
    if (typeof t !== 'string' || !TYPES.has(t))
      throw new StrictSchemaError(path, `unknown type ${JSON.stringify(t)}`);
    if (!types.includes(t)) types.push(t);
  }
  if (types.length === 0) {
    if (n.properties !== undefined || n.additionalProperties !== undefined) types.push('object');
    else if (n.items !== undefined || n.prefixItems !== undefined) types.push('array');
    else if (n.enum === undefined && n.const === undefined)
      throw new StrictSchemaError(path, 'it accepts any value; give it a type');
  }
  if (n.nullable === true && types.length > 0 && !types.includes('null')) types.push('null');
  return types;
}

function compileArray(n: Record<string, unknown>, out: JsonObject, path: string, depth: number) {
  if (Array.isArray(n.items) || n.prefixItems !== undefined)
    throw new StrictSchemaError(
      path,
      'tuple arrays (prefixItems, items as an array) are not supported',
    );
  if (n.items === undefined) throw new StrictSchemaError(path, 'an array needs an items schema');
  out.items = compile(n.items, `${path}/items`, depth + 1);
  for (const key of ['minItems', 'maxItems']) if (typeof n[key] === 'number') out[key] = n[key];
}

function compileObject(n: Record<string, unknown>, out: JsonObject, path: string, depth: number) {
  const properties = isRecord(n.properties) ? n.properties : {};
  const keys = Object.keys(properties);
  const extra = n.additionalProperties;
  if (
    keys.length === 0 &&
    ((extra !== undefined && extra !== false) || n.patternProperties !== undefined)
  )
    throw new StrictSchemaError(
      path,
      'objects with arbitrary keys (additionalProperties or patternProperties without properties) are not supported',
    );
  const required = new Set(
    Array.isArray(n.required) ? n.required.filter((k) => typeof k === 'string') : [],
  );
  const compiled: JsonObject = {};
  for (const key of keys) {
    const property = compile(properties[key], `${path}/properties/${pointer(key)}`, depth + 1);
    define(compiled, key, required.has(key) ? property : nullable(property));
  }
  out.properties = compiled;
  out.required = keys;
  out.additionalProperties = false;
}

/** `schema` made to accept `null` as well (unchanged when it already does). */
function nullable(schema: JsonObject): JsonObject {
  const { type } = schema;
  if (typeof type === 'string' || Array.isArray(type)) {
    const types = Array.isArray(type) ? type : [type];
    if (types.includes('null')) return schema;
    const out: JsonObject = { ...schema, type: [...types, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.anyOf)) {
    if (schema.anyOf.some((b) => isRecord(b) && b.type === 'null')) return schema;
    return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  if (Array.isArray(schema.enum))
    return schema.enum.includes(null) ? schema : { ...schema, enum: [...schema.enum, null] };
  const { description, ...rest } = schema;
  const wrapped: JsonObject = { anyOf: [rest, { type: 'null' }] };
  if (description !== undefined) wrapped.description = description;
  return wrapped;
}

function resolveLocal(root: Record<string, unknown>, ref: string, path: string): JsonObject {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  const defs = match === null ? undefined : root[match[1] as string];
  const target = isRecord(defs) ? defs[unpointer(match?.[2] ?? '')] : undefined;
  if (!isRecord(target)) throw new StrictSchemaError(path, `cannot resolve the root $ref ${ref}`);
  return target as JsonObject;
}

/** Sets an own property even for keys like `__proto__`. */
function define(target: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function pointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unpointer(key: string): string {
  return key.replace(/~1/g, '/').replace(/~0/g, '~');
}
