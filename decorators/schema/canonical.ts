/**
 * The post-processor: turns class-validator-jsonschema's fragments into Golem's canonical
 * schema dialect (JSON Schema 2020-12 subset): `additionalProperties: false` on every DTO,
 * `$defs` with `#/$defs/Name` references, standard formats only, `type` always present where it
 * can be known, nullable types, required-ness from the optional markers, descriptions and
 * defaults. Provider adapters compile their dialects from this form.
 */
import type { JsonSchema, ConfigError } from '../../src/core/index';
import { describedAs } from '../describe-decorator';
import { agentDefinitionError } from '../errors';
import type { DtoModel } from './dto-model';
import { primitiveSchema } from './converters';

type Node = Record<string, unknown>;

/** Formats of JSON Schema 2020-12 (format-annotation vocabulary); others are dropped. */
export const STANDARD_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
]);

const KEY_ORDER = [
  'type',
  '$ref',
  'anyOf',
  'oneOf',
  'allOf',
  'enum',
  'const',
  'format',
  'contentEncoding',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'not',
  'title',
  'description',
  'default',
  'examples',
];

const NUMERIC = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const STRING = ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding'];
const ARRAY = ['items', 'minItems', 'maxItems', 'uniqueItems'];
const TYPED = ['type', '$ref', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'not'];

/**
 * The canonical object schema of one DTO, from its generated fragment. Throws a
 * `missing-metadata` `ConfigError` (component `decorators`) for a property whose type neither
 * decorator metadata nor a validator states; `usedBy` names the use in that message.
 */
export function canonicalObject(model: DtoModel, generated: Node, usedBy: string): Node {
  const source = isNode(generated.properties) ? generated.properties : {};
  const properties: Node = {};
  const required: string[] = [];
  for (const [name, property] of model.properties) {
    const fragment = isNode(source[name]) ? source[name] : {};
    properties[name] = canonicalProperty(model, name, fragment, usedBy);
    if (!property.optional && !model.initialized.has(name)) required.push(name);
  }
  const out: Node = { ...generated, type: 'object', properties, additionalProperties: false };
  if (required.length > 0) out.required = required;
  else delete out.required;
  const description = describedAs(model.dto);
  if (description !== undefined) out.description = description;
  return ordered(out);
}

function canonicalProperty(model: DtoModel, name: string, fragment: Node, usedBy: string): Node {
  const property = model.properties.get(name);
  let out = normalise(fragment);
  if (property?.designType === Map && out.type === 'array') out = mapOf(out);
  if (!hasAny(out, TYPED) && property !== undefined) {
    if (!property.reflected) throw untypedProperty(model.name, name, usedBy);
    const designed =
      property.designType === Array ? { type: 'array' } : primitiveSchema(property.designType);
    if (designed !== undefined) out = { ...out, ...designed };
  }
  if (property?.nullable === true) out = nullable(out);
  const description = describedAs(model.dto, name);
  if (description !== undefined) out.description = description;
  const fallback = model.defaults.get(name);
  if (fallback !== undefined && !('default' in out)) out.default = fallback;
  return ordered(out);
}

/**
 * A property whose type nothing states: no `design:type` (tsx, esbuild and Vite ≤ 7 drop
 * decorator metadata) and no validator that implies a JSON type. Without it the schema would
 * leave the type open and arrays would not be told from single values.
 */
function untypedProperty(dto: string, property: string, usedBy: string): ConfigError {
  return agentDefinitionError(
    'missing-metadata',
    'the type of this property is unknown: the toolchain did not emit decorator metadata ' +
      `(design:type) and no validator states the type (in ${usedBy})`,
    {
      className: dto,
      member: property,
      hint:
        'add a validator that states it — @IsString(), @IsNumber() or @IsInt(), @IsBoolean(), ' +
        '@IsArray() or { each: true } for arrays, @ValidateNested() with @Type(() => X) for a ' +
        "nested DTO, @IsIn([...]), or @JSONSchema({ type: 'string' }) — or compile with " +
        '"emitDecoratorMetadata" (tsc, SWC, Vite 8)',
    },
  );
}

/**
 * A `Map` property validated with `{ each: true }` but without `@Type`: the generator describes
 * it as an array, but class-transformer reads a `Map` from a JSON object.
 */
function mapOf(schema: Node): Node {
  const { items, minItems: _min, maxItems: _max, uniqueItems: _unique, ...rest } = schema;
  return { ...rest, type: 'object', additionalProperties: isNode(items) ? items : {} };
}

/** Cleans one fragment and its sub-schemas: `not null` removed, formats, inferred types. */
function normalise(fragment: Node): Node {
  const out: Node = { ...fragment };
  if (isNode(out.not) && Object.keys(out.not).length === 1 && out.not.type === 'null')
    delete out.not;
  if (typeof out.format === 'string') {
    const format = out.format === 'url' ? 'uri' : out.format;
    if (STANDARD_FORMATS.has(format)) out.format = format;
    else delete out.format;
  }
  if (isNode(out.items)) out.items = normalise(out.items);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = out[key];
    if (isList(list)) out[key] = list.map((item) => (isNode(item) ? normalise(item) : item));
  }
  if (!hasAny(out, TYPED)) {
    if (hasAny(out, NUMERIC)) out.type = 'number';
    else if (hasAny(out, STRING)) out.type = 'string';
    else if (hasAny(out, ARRAY)) out.type = 'array';
  }
  return ordered(out);
}

function nullable(schema: Node): Node {
  const out: Node = { ...schema };
  if (typeof out.$ref === 'string') {
    const { $ref, ...rest } = out;
    return { anyOf: [{ $ref }, { type: 'null' }], ...rest };
  }
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (isList(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  if (isList(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

/** Every `#/$defs/Name` a schema references. */
export function referencedNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) referencedNames(item, into);
  } else if (isNode(schema)) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
        into.add(value.slice('#/$defs/'.length));
      } else referencedNames(value, into);
    }
  }
  return into;
}

/** A copy of `schema` with its keys in the canonical order (unknown keys after, alphabetically). */
export function ordered(schema: Node): Node {
  const keys = Object.keys(schema).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const out: Node = {};
  for (const key of keys) out[key] = schema[key];
  return out;
}

function rank(key: string): number {
  if (key === '$defs') return KEY_ORDER.length + 2;
  const index = KEY_ORDER.indexOf(key);
  return index === -1 ? KEY_ORDER.length + 1 : index;
}

function hasAny(schema: Node, keys: readonly string[]): boolean {
  return keys.some((key) => key in schema);
}

function isList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep-freezes a JSON schema. */
export function freezeSchema(schema: Node): JsonSchema {
  for (const value of Object.values(schema)) {
    if (typeof value === 'object' && value !== null) freezeSchema(value as Node);
  }
  return Object.freeze(schema) as JsonSchema;
}
