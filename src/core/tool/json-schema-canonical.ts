import type { JsonObject, JsonSchema, JsonValue } from '../kit/json';
import { isRecord } from '../kit/guards';

/** Keywords whose value is one subschema. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'];
/** Keywords whose value is a list of subschemas. */
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', '$defs', 'definitions', 'patternProperties'];

/**
 * A library-generated JSON Schema in golem's canonical dialect (the one DTO schemas use, which
 * provider adapters compile from): no `$schema`, `$defs` instead of draft-07 `definitions` (refs
 * rewritten), `additionalProperties: false` on every object that lists `properties` and says
 * nothing about extra keys, and without the ±2^53−1 bounds zod adds to every integer. A deep copy;
 * the input is not modified.
 */
export function canonicalJsonSchema(generated: Record<string, unknown>): JsonSchema {
  const copy = JSON.parse(JSON.stringify(generated)) as JsonObject;
  const { $schema: _dialect, definitions, ...root } = copy;
  if (isRecord(definitions)) {
    const defs = isRecord(root.$defs) ? root.$defs : {};
    root.$defs = { ...definitions, ...defs };
  }
  return visit(root, definitions !== undefined) as JsonSchema;
}

function visit(node: JsonValue, rewriteRefs: boolean): JsonValue {
  if (!isRecord(node)) return node;
  const out = node;
  if (rewriteRefs && typeof out.$ref === 'string' && out.$ref.startsWith('#/definitions/'))
    out.$ref = `#/$defs/${out.$ref.slice('#/definitions/'.length)}`;
  if (isRecord(out.properties) && out.additionalProperties === undefined)
    out.additionalProperties = false;
  if (out.type === 'integer') {
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
    if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  }
  for (const key of ONE) if (isRecord(out[key])) out[key] = visit(out[key], rewriteRefs);
  for (const key of LIST) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((item) => visit(item, rewriteRefs));
  }
  for (const key of MAP) {
    const map = out[key];
    if (!isRecord(map)) continue;
    for (const [name, value] of Object.entries(map)) {
      Object.defineProperty(map, name, {
        value: visit(value, rewriteRefs),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}
