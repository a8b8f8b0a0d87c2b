/**
 * Schemas from metadata: a matrix of DTO shapes, each schema pinned exactly, accepted by a JSON
 * Schema validator in strict mode, and a value sampled from it accepted both by that validator
 * and by the DTO's own validation.
 */
import Ajv2020 from 'ajv/dist/2020';
import { IsInt, IsString } from 'class-validator';
import { dtoSchema, validateDto, STANDARD_FORMATS } from 'golem/decorators';
import { sampleFromSchema } from 'golem/testing';
import type { JsonSchema } from 'golem';
import {
  Arrays,
  Coordinates,
  Derived,
  Enums,
  Formats,
  Nested,
  NullableFields,
  Numbers,
  OptionalAndDefaults,
  Primitives,
  Reflected,
  Strings,
  TreeNode,
} from './fixtures/matrix';

const coordinates = {
  type: 'object',
  properties: {
    lat: { type: 'number', minimum: -90, maximum: 90, description: 'Latitude in degrees' },
    lon: { type: 'number', minimum: -180, maximum: 180, description: 'Longitude in degrees' },
  },
  required: ['lat', 'lon'],
  additionalProperties: false,
  description: 'A point on Earth',
};

const expected: Array<[string, new () => object, JsonSchema]> = [
  [
    'primitives',
    Primitives,
    {
      type: 'object',
      properties: {
        text: { type: 'string' },
        ratio: { type: 'number' },
        count: { type: 'integer' },
        flag: { type: 'boolean' },
      },
      required: ['text', 'ratio', 'count', 'flag'],
      additionalProperties: false,
    },
  ],
  [
    'optional fields and defaults (a default makes a field optional)',
    OptionalAndDefaults,
    {
      type: 'object',
      properties: {
        required: { type: 'string' },
        maybe: { type: 'string' },
        days: { type: 'integer', minimum: 1, maximum: 7, default: 3 },
        verbose: { type: 'boolean', default: false },
      },
      required: ['required'],
      additionalProperties: false,
    },
  ],
  [
    'nested DTOs, optional and in arrays, under $defs',
    Nested,
    {
      type: 'object',
      properties: {
        at: { $ref: '#/$defs/Coordinates' },
        near: { $ref: '#/$defs/Coordinates' },
        route: { type: 'array', items: { $ref: '#/$defs/Coordinates' }, maxItems: 3 },
      },
      required: ['at', 'route'],
      additionalProperties: false,
      $defs: { Coordinates: coordinates },
    },
  ],
  [
    'nullable primitives, nested DTOs and enums',
    NullableFields,
    {
      type: 'object',
      properties: {
        note: { type: ['string', 'null'] },
        home: { anyOf: [{ $ref: '#/$defs/Coordinates' }, { type: 'null' }] },
        choice: { type: ['string', 'null'], enum: ['a', 'b', null] },
      },
      required: ['note', 'home'],
      additionalProperties: false,
      $defs: { Coordinates: coordinates },
    },
  ],
  [
    'a recursive DTO',
    TreeNode,
    {
      type: 'object',
      properties: {
        label: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/$defs/TreeNode' } },
      },
      required: ['label', 'children'],
      additionalProperties: false,
      $defs: {
        TreeNode: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/TreeNode' } },
          },
          required: ['label', 'children'],
          additionalProperties: false,
        },
      },
    },
  ],
  [
    'arrays of primitives with sizes, uniqueness and per-item bounds',
    Arrays,
    {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
        ids: { type: 'array', items: { type: 'integer' }, uniqueItems: true },
        scores: { type: 'array', items: { type: 'number', minimum: 0 } },
      },
      required: ['tags', 'ids'],
      additionalProperties: false,
    },
  ],
  [
    'string enums and @IsIn',
    Enums,
    {
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        level: { type: 'string', enum: ['low', 'high'] },
        tier: { type: 'number', enum: [1, 2, 3] },
      },
      required: ['unit', 'level', 'tier'],
      additionalProperties: false,
    },
  ],
  [
    'numeric bounds, in any decorator order',
    Numbers,
    {
      type: 'object',
      properties: {
        maxFirst: { type: 'integer', minimum: 0, maximum: 10 },
        intFirst: { type: 'integer', minimum: 0, maximum: 10 },
        positive: { type: 'number', exclusiveMinimum: 0 },
        step: { type: 'integer', multipleOf: 5 },
        bare: { type: 'number', minimum: 1 },
      },
      required: ['maxFirst', 'intFirst', 'positive', 'step', 'bare'],
      additionalProperties: false,
    },
  ],
  [
    'string lengths and patterns',
    Strings,
    {
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 2, maxLength: 10 },
        name: { type: 'string', minLength: 3, maxLength: 20 },
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
        title: { type: 'string', minLength: 1 },
      },
      required: ['code', 'name', 'currency', 'title'],
      additionalProperties: false,
    },
  ],
  [
    'standard formats only (non-standard ones become plain strings)',
    Formats,
    {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        id: { type: 'string', format: 'uuid' },
        at: { type: 'string', format: 'date-time' },
        address: { type: 'string', format: 'ipv4' },
        host: { type: 'string', format: 'hostname' },
        card: { type: 'string', examples: ['4111111111111111'] },
        when: {
          oneOf: [
            { type: 'string', format: 'date' },
            { type: 'string', format: 'date-time' },
          ],
        },
      },
      required: ['email', 'site', 'id', 'at', 'address', 'host', 'card', 'when'],
      additionalProperties: false,
    },
  ],
  [
    'types from design:type where no validator sets one',
    Reflected,
    {
      type: 'object',
      properties: {
        name: { type: 'string' },
        size: { type: 'number' },
        on: { type: 'boolean' },
        anything: {},
      },
      required: ['name', 'size', 'on', 'anything'],
      additionalProperties: false,
    },
  ],
  [
    'inherited properties first, descriptions kept',
    Derived,
    {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Identifier' },
        version: { type: 'integer' },
      },
      required: ['id', 'version'],
      additionalProperties: false,
    },
  ],
  ['a described class', Coordinates, coordinates],
];

/** Ajv in strict mode, with simple checks for the formats the canonical dialect emits. */
function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const formats: Record<string, RegExp> = {
    email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
    uri: /^[a-z][a-z0-9+.-]*:\S+$/i,
    uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
    date: /^\d{4}-\d{2}-\d{2}$/,
    ipv4: /^(\d{1,3}\.){3}\d{1,3}$/,
    hostname: /^[a-z0-9.-]+$/i,
  };
  for (const [name, pattern] of Object.entries(formats)) ajv.addFormat(name, pattern);
  return ajv;
}

describe('schemas from metadata', () => {
  test.each(expected)('%s', (_label, dto, schema) => {
    expect(dtoSchema(dto)).toEqual(schema);
  });

  test.each(expected)('%s: a valid JSON Schema in ajv strict mode', (_label, dto) => {
    const ajv = strictAjv();
    const schema = dtoSchema(dto);
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  test.each(expected)(
    '%s: a value sampled from the schema passes ajv and the DTO validation',
    (_label, dto) => {
      const schema = dtoSchema(dto);
      const sample = sampleFromSchema(schema);
      const validate = strictAjv().compile(schema);
      expect(validate.errors ?? validate(sample)).toBe(true);
      expect(validateDto(dto, sample)).toBeInstanceOf(dto);
    },
  );

  test('per-instance initial values make a field optional without becoming its default', () => {
    let next = 0;
    class Stamped {
      @IsString() id = `id-${String(next++)}`;
      @IsInt() version = 1;
    }
    expect(dtoSchema(Stamped)).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, version: { type: 'integer', default: 1 } },
      additionalProperties: false,
    });
  });

  test('schemas are frozen and cached per class', () => {
    const schema = dtoSchema(Nested);
    expect(dtoSchema(Nested)).toBe(schema);
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen((schema.$defs as Record<string, unknown>).Coordinates)).toBe(true);
  });

  test('every format the dialect emits is a JSON Schema 2020-12 format', () => {
    const formats = new Set<string>();
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (typeof value === 'object' && value !== null) {
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'format' && typeof inner === 'string') formats.add(inner);
          else visit(inner);
        }
      }
    };
    for (const [, dto] of expected) visit(dtoSchema(dto));
    expect([...formats].filter((format) => !STANDARD_FORMATS.has(format))).toEqual([]);
  });

  test('every object in every schema forbids additional properties', () => {
    const objects: unknown[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (typeof value === 'object' && value !== null) {
        const node = value as Record<string, unknown>;
        if (node.type === 'object') objects.push(node.additionalProperties);
        Object.values(node).forEach(visit);
      }
    };
    for (const [, dto] of expected) visit(dtoSchema(dto));
    expect(new Set(objects)).toEqual(new Set([false]));
  });
});
