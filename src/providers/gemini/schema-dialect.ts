import { isRecord } from '../../core/kit/guards';
import type { JsonObject, JsonSchema, JsonValue } from '../../core/kit/json';
import { modelConfigError } from '../../core/errors/provider-errors';
import { PROVIDER } from './options';

/**
 * Compiles a JSON Schema to Gemini's `Schema` dialect (an OpenAPI 3.0 subset), used for function
 * `parameters` and for `responseSchema`:
 *
 * - `$ref` to `#/$defs/…`, `#/definitions/…` (any local JSON pointer) is inlined; a recursive
 *   reference or an external one throws a model `ConfigError` (the dialect has no references).
 * - `allOf` is merged (properties and `required` united, other keywords: first wins).
 * - `type` is upper-cased; a type array with `"null"` becomes `nullable: true`; several non-null
 *   types become `anyOf`. `anyOf`/`oneOf` (`oneOf` loosened to `anyOf`) drop `null` branches into
 *   `nullable`, and a single remaining branch is inlined.
 * - `const` becomes a one-value `enum`; `enum` is kept for strings only (`null` → `nullable`);
 *   `format` is kept where Gemini accepts it (`date-time`/`enum`, `float`/`double`,
 *   `int32`/`int64`); tuple `items`/`prefixItems` become `items.anyOf`; `examples[0]` → `example`.
 * - Kept: title, description, nullable, properties, required (only names that exist), items,
 *   min/maxItems, min/maxLength, pattern, min/maxProperties, minimum, maximum, default, example,
 *   propertyOrdering. Everything else ($schema, $id, additionalProperties, patternProperties,
 *   exclusiveMinimum/Maximum, multipleOf, uniqueItems, not, if/then/else, …) is dropped: the
 *   model is guided by a looser schema and the tool/output validators still enforce the original.
 */
export function toGeminiSchema(schema: JsonSchema, label = 'schema'): JsonObject {
  return compile(schema, { root: schema, refs: [], depth: 0, label });
}

interface Context {
  root: JsonSchema;
  /** References being inlined, outermost first (cycle detection). */
  refs: string[];
  depth: number;
  /** Names the schema in errors, e.g. `tool "search" schema`. */
  label: string;
}

const MAX_DEPTH = 64;
const COPIED = [
  'title',
  'description',
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'default',
  'example',
  'propertyOrdering',
] as const;
const FORMATS: Record<string, readonly string[]> = {
  STRING: ['date-time', 'enum'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64'],
};

function fail(ctx: Pick<Context, 'label'>, message: string): never {
  throw modelConfigError(PROVIDER, `${ctx.label}: ${message}`);
}

function compile(node: JsonValue | undefined, ctx: Context): JsonObject {
  if (ctx.depth > MAX_DEPTH) fail(ctx, `nesting deeper than ${MAX_DEPTH} levels`);
  if (node === true || node === undefined) return {};
  if (node === false) fail(ctx, 'a `false` schema (nothing allowed) cannot be expressed');
  if (!isRecord(node)) fail(ctx, 'every schema must be an object');
  const next = { ...ctx, depth: ctx.depth + 1 };
  if (typeof node.$ref === 'string') return compileRef(node, node.$ref, next);
  if (Array.isArray(node.allOf)) return compile(mergeAllOf(node, node.allOf, next), next);
  const types = typeList(node.type);
  const nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length > 1) {
    const { type: _type, ...rest } = node;
    const out = header(node);
    if (types.includes('null') || node.nullable === true) out.nullable = true;
    out.anyOf = nonNull.map((t) =>
      compile({ ...rest, type: t, title: null, description: null }, next),
    );
    return out;
  }
  const out: JsonObject = {};
  if (nonNull.length === 1) out.type = (nonNull[0] as string).toUpperCase();
  else if (types.length === 1) out.type = 'NULL';
  if ((types.includes('null') && nonNull.length > 0) || node.nullable === true) out.nullable = true;
  for (const key of COPIED) if (node[key] !== undefined && node[key] !== null) out[key] = node[key];
  if (out.example === undefined && Array.isArray(node.examples) && node.examples.length > 0)
    out.example = node.examples[0] as JsonValue;
  applyEnum(node, out);
  if (typeof node.format === 'string' && FORMATS[out.type as string]?.includes(node.format))
    out.format = node.format;
  applyObject(node, out, next);
  applyItems(node, out, next);
  const branches = node.anyOf ?? node.oneOf;
  return Array.isArray(branches) ? applyAnyOf(out, branches, next) : out;
}

function header(node: JsonObject): JsonObject {
  const out: JsonObject = {};
  if (typeof node.title === 'string') out.title = node.title;
  if (typeof node.description === 'string') out.description = node.description;
  return out;
}

function typeList(type: JsonValue | undefined): string[] {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

function applyEnum(node: JsonObject, out: JsonObject): void {
  const values = node.const !== undefined ? [node.const] : node.enum;
  if (!Array.isArray(values)) return;
  if (values.includes(null)) out.nullable = true;
  const present = values.filter((v) => v !== null);
  if (present.length === 0 || !present.every((v) => typeof v === 'string')) return;
  out.enum = present;
  out.type ??= 'STRING';
}

function applyObject(node: JsonObject, out: JsonObject, ctx: Context): void {
  if (!isRecord(node.properties)) return;
  const properties: JsonObject = {};
  for (const [name, value] of Object.entries(node.properties))
    Object.defineProperty(properties, name, {
      value: compile(value, ctx),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  out.properties = properties;
  out.type ??= 'OBJECT';
  if (Array.isArray(node.required)) {
    const required = node.required.filter(
      (name): name is string => typeof name === 'string' && Object.hasOwn(properties, name),
    );
    if (required.length > 0) out.required = required;
  }
}

function applyItems(node: JsonObject, out: JsonObject, ctx: Context): void {
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : undefined;
  if (tuple !== undefined) {
    const branches = tuple.map((item) => compile(item, ctx));
    out.items = branches.length === 1 ? (branches[0] as JsonObject) : { anyOf: branches };
  } else if (node.items !== undefined && node.items !== null) {
    out.items = compile(node.items, ctx);
  } else return;
  out.type ??= 'ARRAY';
}

function applyAnyOf(out: JsonObject, branches: JsonValue[], ctx: Context): JsonObject {
  const compiled = branches.map((branch) => compile(branch, ctx));
  const isNull = (s: JsonObject) => s.type === 'NULL';
  const kept = compiled.filter((s) => !isNull(s));
  if (kept.length < compiled.length) out.nullable = true;
  if (kept.length === 1) {
    const only = kept[0] as JsonObject;
    const merged: JsonObject = { ...only, ...out };
    if (only.nullable === true) merged.nullable = true;
    return merged;
  }
  if (kept.length > 1) out.anyOf = kept;
  return out;
}

function mergeAllOf(node: JsonObject, allOf: JsonValue[], ctx: Context): JsonObject {
  const { allOf: _allOf, ...merged } = node;
  for (const raw of allOf) {
    let branch: JsonValue = raw;
    const seen = new Set<string>();
    while (isRecord(branch) && typeof branch.$ref === 'string') {
      if (seen.has(branch.$ref) || ctx.refs.includes(branch.$ref))
        fail(ctx, `recursive $ref "${branch.$ref}" cannot be inlined`);
      seen.add(branch.$ref);
      const { $ref, ...siblings } = branch;
      branch = { ...(resolvePointer(ctx, $ref) as JsonObject), ...siblings };
    }
    if (!isRecord(branch)) {
      if (branch === true) continue;
      fail(ctx, 'allOf branches must be schemas');
    }
    if (isRecord(branch.properties)) {
      merged.properties = { ...(isRecord(merged.properties) ? merged.properties : {}) };
      Object.assign(merged.properties, branch.properties);
    }
    if (Array.isArray(branch.required)) {
      const required = Array.isArray(merged.required) ? merged.required : [];
      merged.required = [...new Set([...required, ...branch.required])];
    }
    for (const [key, value] of Object.entries(branch))
      if (key !== 'properties' && key !== 'required' && merged[key] === undefined)
        merged[key] = value;
  }
  return merged;
}

function compileRef(node: JsonObject, ref: string, ctx: Context): JsonObject {
  if (ctx.refs.includes(ref)) fail(ctx, `recursive $ref "${ref}" cannot be inlined`);
  const target = resolvePointer(ctx, ref);
  const { $ref: _ref, ...siblings } = node;
  const inlined = isRecord(target) ? { ...target, ...siblings } : target;
  return compile(inlined, { ...ctx, refs: [...ctx.refs, ref] });
}

function resolvePointer(ctx: Context, ref: string): JsonValue {
  if (!ref.startsWith('#')) fail(ctx, `only local $ref values are supported, got "${ref}"`);
  if (ref === '#') return ctx.root;
  if (!ref.startsWith('#/')) fail(ctx, `unsupported $ref "${ref}"`);
  let current: JsonValue = ctx.root;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      fail(ctx, `$ref "${ref}" is not a valid JSON pointer`);
    }
    const next: JsonValue | undefined = isRecord(current)
      ? Object.hasOwn(current, key)
        ? current[key]
        : undefined
      : Array.isArray(current) && /^\d+$/.test(key)
        ? current[Number(key)]
        : undefined;
    if (next === undefined) fail(ctx, `$ref "${ref}" does not resolve`);
    current = next;
  }
  return current;
}
