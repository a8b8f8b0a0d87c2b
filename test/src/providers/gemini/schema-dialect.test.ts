/** JSON Schema → Gemini's OpenAPI-subset `Schema` (src/providers/gemini/schema-dialect.ts). */
import { type JsonSchema, ConfigError } from 'golem';
import { toGeminiSchema } from 'golem/providers/gemini';

function compileError(schema: JsonSchema): string {
  try {
    toGeminiSchema(schema);
  } catch (error) {
    expect(ConfigError.is(error, 'model')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a model ConfigError');
}

describe('toGeminiSchema', () => {
  test('types upper-cased; unsupported keywords dropped; supported ones kept', () => {
    expect(
      toGeminiSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'x',
        title: 'Order',
        description: 'An order.',
        type: 'object',
        additionalProperties: false,
        patternProperties: { '^x-': {} },
        minProperties: 1,
        propertyOrdering: ['id', 'qty', 'tags', 'at'],
        properties: {
          id: { type: 'string', pattern: '^[a-z]+$', minLength: 1, maxLength: 9, format: 'uuid' },
          qty: {
            type: 'integer',
            minimum: 1,
            maximum: 10,
            exclusiveMaximum: 11,
            multipleOf: 1,
            format: 'int32',
            default: 1,
          },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
          at: { type: 'string', format: 'date-time', examples: ['2024-01-01T00:00:00Z'] },
          ratio: { type: 'number', format: 'double', not: { const: 0 } },
        },
        required: ['id', 'qty', 'ghost'],
      }),
    ).toEqual({
      title: 'Order',
      description: 'An order.',
      type: 'OBJECT',
      minProperties: 1,
      propertyOrdering: ['id', 'qty', 'tags', 'at'],
      properties: {
        id: { type: 'STRING', pattern: '^[a-z]+$', minLength: 1, maxLength: 9 },
        qty: { type: 'INTEGER', minimum: 1, maximum: 10, format: 'int32', default: 1 },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: 1 },
        at: { type: 'STRING', format: 'date-time', example: '2024-01-01T00:00:00Z' },
        ratio: { type: 'NUMBER', format: 'double' },
      },
      required: ['id', 'qty'],
    });
  });

  test('type arrays: null → nullable; several types → anyOf', () => {
    expect(toGeminiSchema({ type: ['string', 'null'], description: 'd' })).toEqual({
      type: 'STRING',
      nullable: true,
      description: 'd',
    });
    expect(toGeminiSchema({ type: ['string', 'integer', 'null'], description: 'd' })).toEqual({
      description: 'd',
      nullable: true,
      anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }],
    });
    expect(toGeminiSchema({ type: 'null' })).toEqual({ type: 'NULL' });
  });

  test('anyOf / oneOf: null branches become nullable, a single branch is inlined', () => {
    expect(
      toGeminiSchema({ description: 'maybe', anyOf: [{ type: 'string' }, { type: 'null' }] }),
    ).toEqual({ type: 'STRING', nullable: true, description: 'maybe' });
    expect(toGeminiSchema({ oneOf: [{ type: 'string' }, { type: 'number' }] })).toEqual({
      anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }],
    });
  });

  test('enum and const: strings kept (type inferred), null → nullable, non-strings dropped', () => {
    expect(toGeminiSchema({ enum: ['a', 'b', null] })).toEqual({
      type: 'STRING',
      enum: ['a', 'b'],
      nullable: true,
    });
    expect(toGeminiSchema({ const: 'only' })).toEqual({ type: 'STRING', enum: ['only'] });
    expect(toGeminiSchema({ type: 'integer', enum: [1, 2] })).toEqual({ type: 'INTEGER' });
  });

  test('$ref to $defs and definitions is inlined, siblings override', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          home: { $ref: '#/$defs/Address', description: 'Home address.' },
          work: { $ref: '#/definitions/Address' },
        },
        $defs: {
          Address: {
            type: 'object',
            description: 'An address.',
            properties: { city: { type: 'string' } },
            required: ['city'],
          },
        },
        definitions: {
          Address: { type: 'object', properties: { street: { type: 'string' } } },
        },
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        home: {
          type: 'OBJECT',
          description: 'Home address.',
          properties: { city: { type: 'STRING' } },
          required: ['city'],
        },
        work: { type: 'OBJECT', properties: { street: { type: 'STRING' } } },
      },
    });
  });

  test('the same $ref used twice is fine; a recursive one is rejected', () => {
    const shared = { $defs: { N: { type: 'integer' } } };
    expect(
      toGeminiSchema({
        type: 'array',
        items: { anyOf: [{ $ref: '#/$defs/N' }, { $ref: '#/$defs/N' }] },
        ...shared,
      }),
    ).toEqual({ type: 'ARRAY', items: { anyOf: [{ type: 'INTEGER' }, { type: 'INTEGER' }] } });
    expect(
      compileError({
        type: 'object',
        properties: { next: { $ref: '#/$defs/Node' } },
        $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
      }),
    ).toContain('recursive $ref "#/$defs/Node"');
    expect(compileError({ type: 'object', properties: { self: { $ref: '#' } } })).toContain(
      'recursive $ref "#"',
    );
  });

  test.each([
    [{ $ref: 'https://example.com/schema.json' }, 'only local $ref'],
    [{ $ref: '#/$defs/Missing' }, 'does not resolve'],
    [{ type: 'object', properties: { x: false } }, '`false` schema'],
    [{ type: 'object', properties: { x: 3 } }, 'must be an object'],
    [{ $ref: '#/%E0%A4%A' }, 'not a valid JSON pointer'],
  ] as [JsonSchema, string][])('%j is rejected: %s', (schema, message) => {
    expect(compileError(schema)).toContain(message);
  });

  test('allOf is merged: properties and required united', () => {
    expect(
      toGeminiSchema({
        allOf: [
          { $ref: '#/$defs/Base' },
          { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
        ],
        $defs: {
          Base: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        },
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: { a: { type: 'STRING' }, b: { type: 'NUMBER' } },
      required: ['a', 'b'],
    });
  });

  test('tuples become items.anyOf; true and {} schemas are empty', () => {
    expect(toGeminiSchema({ type: 'array', prefixItems: [{ type: 'string' }, true] })).toEqual({
      type: 'ARRAY',
      items: { anyOf: [{ type: 'STRING' }, {}] },
    });
    expect(toGeminiSchema({ type: 'object', properties: { any: {} } })).toEqual({
      type: 'OBJECT',
      properties: { any: {} },
    });
  });

  test('a property named __proto__ stays an own property and pollutes nothing', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}}}',
    ) as JsonSchema;
    const compiled = toGeminiSchema(schema);
    expect(JSON.stringify(compiled)).toBe(
      '{"type":"OBJECT","properties":{"__proto__":{"type":"STRING"}}}',
    );
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  test('pathologically deep schemas are rejected', () => {
    let schema: JsonSchema = { type: 'string' };
    for (let i = 0; i < 100; i++) schema = { type: 'array', items: schema };
    expect(compileError(schema)).toContain('nesting deeper than');
  });

  test('the input schema is not mutated', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' } },
      $defs: { A: { type: ['string', 'null'] } },
    };
    const copy = structuredClone(schema);
    toGeminiSchema(schema);
    expect(schema).toEqual(copy);
  });
});
