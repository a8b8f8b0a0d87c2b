import type { JsonObject, JsonSchema, JsonValue } from '../../core/kit/json';

/** Keywords the structured-output grammar rejects; they are moved into the description. */
const UNSUPPORTED = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
] as const;

/** String formats the grammar supports; any other `format` is moved into the description. */
const FORMATS: readonly string[] = [
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
];

/** Keywords whose value is one subschema. */
const SUBSCHEMA = ['items', 'not', 'additionalItems', 'contains', 'if', 'then', 'else'] as const;
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties'] as const;

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Compiles a JSON Schema to the dialect of Anthropic structured output
 * (`output_config.format`), returning a new schema and never mutating the input: every object
 * schema without `additionalProperties` gets `additionalProperties: false`; numeric, string-length
 * and array/object-size constraints, `minItems` above 1 and unsupported string formats are removed
 * and appended to the `description` as `{keyword: value, …}` so the model still sees them (the
 * caller's decoder keeps validating the original schema). Everything else passes unchanged.
 */
export function compileOutputSchema(schema: JsonSchema): JsonSchema {
  return compile(schema);
}

function compile(node: JsonObject): JsonObject {
  const out: JsonObject = {};
  const moved: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if ((UNSUPPORTED as readonly string[]).includes(key)) moved.push(`${key}: ${show(value)}`);
    else if (key === 'minItems' && typeof value === 'number' && value > 1)
      moved.push(`${key}: ${show(value)}`);
    else if (key === 'format' && typeof value === 'string' && !FORMATS.includes(value))
      moved.push(`${key}: ${show(value)}`);
    else define(out, key, compileKeyword(key, value));
  }
  if (isObjectSchema(node) && !Object.hasOwn(node, 'additionalProperties'))
    define(out, 'additionalProperties', false);
  if (moved.length > 0) {
    const note = `{${moved.join(', ')}}`;
    const description = typeof node.description === 'string' ? node.description : '';
    define(out, 'description', description === '' ? note : `${description}\n\n${note}`);
  }
  return out;
}

function compileKeyword(key: string, value: JsonValue): JsonValue {
  if ((SUBSCHEMA as readonly string[]).includes(key) && isObject(value)) return compile(value);
  if ((SUBSCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value))
    return value.map((entry) => (isObject(entry) ? compile(entry) : entry));
  if ((SUBSCHEMA_MAPS as readonly string[]).includes(key) && isObject(value)) {
    const map: JsonObject = {};
    for (const [name, sub] of Object.entries(value))
      define(map, name, isObject(sub) ? compile(sub) : sub);
    return map;
  }
  if (key === 'additionalProperties' && isObject(value)) return compile(value);
  return value;
}

function isObjectSchema(node: JsonObject): boolean {
  const type = node.type;
  return (
    type === 'object' ||
    (Array.isArray(type) && type.includes('object')) ||
    (type === undefined && isObject(node.properties))
  );
}

/** Sets an own property, even one named `__proto__` (plain assignment would set the prototype). */
function define(target: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function show(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
