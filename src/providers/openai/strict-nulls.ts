import { isRecord } from '../../core/kit/guards';
import type { JsonSchema } from '../../core/kit/json';

const MAX_REF_HOPS = 32;

/**
 * Undoes what {@link toStrictSchema} asked of the model: in strict mode every optional property
 * must be present, so the model writes `null` for "absent". Given the ORIGINAL schema, this
 * removes `null` values of properties that the original did not require and whose schema does not
 * accept `null`, so the value validates against the schema the application wrote. Walks
 * `properties`, `items`, local `$ref`s and a single matching `anyOf`/`oneOf` branch. Returns the
 * JSON text unchanged when there was nothing to remove (or it is not JSON).
 */
export function stripAddedNulls(text: string, schema: JsonSchema): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  return prune(value, schema, schema) ? JSON.stringify(value) : text;
}

function prune(value: unknown, node: unknown, root: JsonSchema): boolean {
  const schema = resolve(node, root);
  if (schema === undefined) return false;
  if (Array.isArray(value)) {
    const items = schema.items ?? branchFor(schema, root, 'array');
    let changed = false;
    for (const item of value) changed = prune(item, items, root) || changed;
    return changed;
  }
  if (!isRecord(value)) return false;
  const owner = isRecord(schema.properties)
    ? schema
    : resolve(branchFor(schema, root, 'object'), root);
  const properties = owner?.properties;
  if (owner === undefined || !isRecord(properties)) return false;
  const required: unknown[] = Array.isArray(owner.required) ? owner.required : [];
  let changed = false;
  for (const key of Object.keys(value)) {
    const sub = properties[key];
    if (sub === undefined) continue;
    if (value[key] === null && !required.includes(key) && !acceptsNull(sub, root)) {
      Reflect.deleteProperty(value, key);
      changed = true;
    } else changed = prune(value[key], sub, root) || changed;
  }
  return changed;
}

/** The one `anyOf`/`oneOf` branch describing `kind` values, if exactly one does. */
function branchFor(schema: Record<string, unknown>, root: JsonSchema, kind: string): unknown {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches)) return undefined;
  const matching = branches.filter((b) => {
    const resolved = resolve(b, root);
    if (resolved === undefined) return false;
    const type = resolved.type;
    if (type === kind || (Array.isArray(type) && type.includes(kind))) return true;
    return kind === 'object' ? isRecord(resolved.properties) : resolved.items !== undefined;
  });
  return matching.length === 1 ? matching[0] : undefined;
}

function acceptsNull(node: unknown, root: JsonSchema): boolean {
  const schema = resolve(node, root);
  if (schema === undefined) return node === true;
  const { type } = schema;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema.nullable === true || schema.const === null) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return branches.some((b) => acceptsNull(b, root));
  if (Array.isArray(schema.allOf)) return schema.allOf.every((b) => acceptsNull(b, root));
  return (
    type === undefined &&
    schema.const === undefined &&
    schema.properties === undefined &&
    schema.items === undefined
  );
}

function resolve(node: unknown, root: JsonSchema): Record<string, unknown> | undefined {
  let current = node;
  for (let hops = 0; isRecord(current) && typeof current.$ref === 'string'; hops++) {
    if (hops >= MAX_REF_HOPS) return undefined;
    current = lookup(root, current.$ref);
  }
  if (isRecord(current) && Array.isArray(current.allOf) && current.allOf.length === 1) {
    const { allOf, ...rest } = current;
    const inner = resolve(allOf[0], root);
    return inner === undefined ? rest : { ...inner, ...rest };
  }
  return isRecord(current) ? current : undefined;
}

function lookup(root: JsonSchema, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    current = isRecord(current) ? current[key] : undefined;
  }
  return current;
}
