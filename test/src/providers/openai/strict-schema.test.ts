/**
 * The OpenAI strict-dialect compiler (`toStrictSchema`).
 */
import fc from 'fast-check';
import type { JsonSchema } from 'golem';
import { toStrictSchema } from 'golem/providers/openai';
import { StrictSchemaError } from '../../../support/internal-errors';

function rejection(schema: unknown): { path: string; reason: string } {
  try {
    toStrictSchema(schema as JsonSchema);
  } catch (error) {
    if (StrictSchemaError.is(error)) return { path: error.path, reason: error.reason };
    throw error;
  }
  throw new Error('expected a StrictSchemaError');
}

test('objects are closed, every property required, optional ones nullable', () => {
  expect(
    toStrictSchema({
      type: 'object',
      properties: {
        name: { type: 'string' },
        age: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string' } },
        kind: { enum: ['a', 'b'] },
        alias: { type: ['string', 'null'] },
      },
      required: ['name'],
    }),
  ).toEqual({
    type: 'object',
    properties: {
      name: { type: 'string' },
      age: { type: ['integer', 'null'] },
      tags: { type: ['array', 'null'], items: { type: 'string' } },
      kind: { enum: ['a', 'b', null] },
      alias: { type: ['string', 'null'] },
    },
    required: ['name', 'age', 'tags', 'kind', 'alias'],
    additionalProperties: false,
  });
});

test('nested objects in properties, items, anyOf and $defs are compiled too', () => {
  expect(
    toStrictSchema({
      type: 'object',
      properties: {
        owner: { $ref: '#/$defs/Person', description: 'who' },
        pets: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } },
        id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      },
      required: ['owner', 'pets', 'id'],
      $defs: { Person: { type: 'object', properties: { name: { type: 'string' } } } },
    }),
  ).toEqual({
    type: 'object',
    $defs: {
      Person: {
        type: 'object',
        properties: { name: { type: ['string', 'null'] } },
        required: ['name'],
        additionalProperties: false,
      },
    },
    properties: {
      owner: { $ref: '#/$defs/Person', description: 'who' },
      pets: {
        type: 'array',
        items: {
          type: 'object',
          properties: { n: { type: ['string', 'null'] } },
          required: ['n'],
          additionalProperties: false,
        },
      },
      id: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    },
    required: ['owner', 'pets', 'id'],
    additionalProperties: false,
  });
});

test('optional $ref and anyOf properties become anyOf with a null branch', () => {
  const out = toStrictSchema({
    type: 'object',
    properties: {
      a: { $ref: '#/$defs/A', description: 'an A' },
      b: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      c: { const: 'x' },
    },
    $defs: { A: { type: 'string' } },
  });
  expect(out.properties).toEqual({
    a: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }], description: 'an A' },
    b: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
    c: { anyOf: [{ const: 'x' }, { type: 'null' }] },
  });
});

test('supported keywords are kept, unsupported ones dropped', () => {
  const out = toStrictSchema({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'T',
    type: 'object',
    properties: {
      s: {
        type: 'string',
        minLength: 1,
        maxLength: 9,
        pattern: '^a',
        format: 'email',
        default: 'a',
      },
      u: { type: 'string', format: 'uri' },
      n: { type: 'number', minimum: 0, exclusiveMaximum: 10, multipleOf: 0.5, examples: [1] },
      l: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3, uniqueItems: true },
      x: { type: 'string', not: { const: 'y' } },
    },
    required: ['s', 'u', 'n', 'l', 'x'],
    minProperties: 1,
  });
  expect(out).toEqual({
    title: 'T',
    type: 'object',
    properties: {
      s: { type: 'string', pattern: '^a', format: 'email' },
      u: { type: 'string' },
      n: { type: 'number', minimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
      l: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3 },
      x: { type: 'string' },
    },
    required: ['s', 'u', 'n', 'l', 'x'],
    additionalProperties: false,
  });
});

test('a root $ref, a one-element allOf and OpenAPI nullable are normalised', () => {
  expect(
    toStrictSchema({
      $ref: '#/definitions/Root',
      definitions: {
        Root: {
          type: 'object',
          properties: {
            v: { allOf: [{ type: 'string' }], description: 'v' },
            w: { type: 'string', nullable: true },
          },
          required: ['v', 'w'],
        },
      },
    }),
  ).toEqual({
    type: 'object',
    definitions: {
      Root: {
        type: 'object',
        properties: { v: { type: 'string', description: 'v' }, w: { type: ['string', 'null'] } },
        required: ['v', 'w'],
        additionalProperties: false,
      },
    },
    properties: { v: { type: 'string', description: 'v' }, w: { type: ['string', 'null'] } },
    required: ['v', 'w'],
    additionalProperties: false,
  });
});

test.each([
  [{ type: 'string' }, '#', 'the root must be an object schema (type "object")'],
  [{ anyOf: [{ type: 'object' }] }, '#', 'the root must be an object, not anyOf'],
  [
    { type: 'object', additionalProperties: { type: 'string' } },
    '#',
    'objects with arbitrary keys (additionalProperties or patternProperties without properties) are not supported',
  ],
  [
    { type: 'object', properties: { a: {} } },
    '#/properties/a',
    'it accepts any value; give it a type',
  ],
  [
    { type: 'object', properties: { a: { type: 'array' } } },
    '#/properties/a',
    'an array needs an items schema',
  ],
  [
    { type: 'object', properties: { a: { type: 'array', prefixItems: [{ type: 'string' }] } } },
    '#/properties/a',
    'tuple arrays (prefixItems, items as an array) are not supported',
  ],
  [
    { type: 'object', properties: { a: { allOf: [{ type: 'string' }, { minLength: 1 }] } } },
    '#/properties/a',
    'allOf is not supported; merge the subschemas into one',
  ],
  [
    { type: 'object', properties: { a: { $ref: 'https://x/s.json' } } },
    '#/properties/a',
    'only local $refs are supported',
  ],
  [
    { type: 'object', properties: { 'a/b': { type: 'date' } } },
    '#/properties/a~1b',
    'unknown type "date"',
  ],
])('rejects %j at %s', (schema, path, reason) => {
  expect(rejection(schema)).toEqual({ path, reason });
});

test('the input schema is never modified', () => {
  const schema: JsonSchema = { type: 'object', properties: { a: { type: 'string' } } };
  const copy = structuredClone(schema);
  toStrictSchema(schema);
  expect(schema).toEqual(copy);
});

test('property: every compiled object is closed and requires all its properties', () => {
  const leaf = fc.constantFrom<JsonSchema>(
    { type: 'string' },
    { type: 'integer' },
    { enum: [1, 2] },
  );
  const { tree } = fc.letrec<{ tree: JsonSchema }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc
        .dictionary(fc.string({ minLength: 1, maxLength: 4 }), tie('tree'), {
          minKeys: 1,
          maxKeys: 4,
        })
        .chain((properties) =>
          fc
            .subarray(Object.keys(properties))
            .map((required) => ({ type: 'object', properties, required })),
        ),
    ),
  }));
  fc.assert(
    fc.property(tree, (node) => {
      const root: JsonSchema = { type: 'object', properties: { root: node } };
      const walk = (s: unknown): void => {
        if (typeof s !== 'object' || s === null) return;
        const o = s as Record<string, unknown>;
        if (o.properties !== undefined) {
          expect(o.additionalProperties).toBe(false);
          expect(o.required).toEqual(Object.keys(o.properties as object));
        }
        Object.values(o).forEach(walk);
      };
      walk(toStrictSchema(root));
    }),
  );
});
