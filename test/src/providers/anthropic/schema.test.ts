/** The output-schema compiler for Anthropic structured output (`output_config.format`). */
import fc from 'fast-check';
import type { JsonSchema } from 'golem';
import { compileOutputSchema } from 'golem/providers/anthropic';

test('objects get additionalProperties false at every level (properties, items, anyOf, $defs)', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      author: { type: 'object', properties: { name: { type: 'string' } } },
      tags: { type: 'array', items: { type: 'object', properties: { t: { type: 'string' } } } },
      either: { anyOf: [{ type: 'object', properties: {} }, { type: 'null' }] },
      ref: { $ref: '#/$defs/Book' },
    },
    $defs: { Book: { type: 'object', properties: { title: { type: 'string' } } } },
  };
  expect(compileOutputSchema(schema)).toEqual({
    type: 'object',
    properties: {
      author: {
        type: 'object',
        properties: { name: { type: 'string' } },
        additionalProperties: false,
      },
      tags: {
        type: 'array',
        items: {
          type: 'object',
          properties: { t: { type: 'string' } },
          additionalProperties: false,
        },
      },
      either: {
        anyOf: [{ type: 'object', properties: {}, additionalProperties: false }, { type: 'null' }],
      },
      ref: { $ref: '#/$defs/Book' },
    },
    $defs: {
      Book: {
        type: 'object',
        properties: { title: { type: 'string' } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  });
});

test('an explicit additionalProperties is kept as written', () => {
  expect(compileOutputSchema({ type: 'object', additionalProperties: true })).toEqual({
    type: 'object',
    additionalProperties: true,
  });
});

test('unsupported constraints move into the description; supported ones stay', () => {
  expect(
    compileOutputSchema({
      type: 'object',
      properties: {
        age: { type: 'integer', minimum: 0, maximum: 150, description: 'Age in years' },
        name: { type: 'string', minLength: 1, pattern: '^[A-Z]' },
        when: { type: 'string', format: 'date' },
        color: { type: 'string', format: 'hex-color' },
        list: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        many: { type: 'array', items: { type: 'string' }, minItems: 2 },
      },
      required: ['age'],
    }),
  ).toEqual({
    type: 'object',
    properties: {
      age: { type: 'integer', description: 'Age in years\n\n{minimum: 0, maximum: 150}' },
      name: { type: 'string', pattern: '^[A-Z]', description: '{minLength: 1}' },
      when: { type: 'string', format: 'date' },
      color: { type: 'string', description: '{format: hex-color}' },
      list: { type: 'array', items: { type: 'string' }, minItems: 1, description: '{maxItems: 3}' },
      many: { type: 'array', items: { type: 'string' }, description: '{minItems: 2}' },
    },
    required: ['age'],
    additionalProperties: false,
  });
});

test('a property literally named __proto__ stays an own property and never touches prototypes', () => {
  const schema = JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string","maxLength":3}}}',
  ) as JsonSchema;
  const compiled = compileOutputSchema(schema);
  expect(JSON.stringify(compiled)).toBe(
    '{"type":"object","properties":{"__proto__":{"type":"string","description":"{maxLength: 3}"}},"additionalProperties":false}',
  );
  expect(({} as Record<string, unknown>).type).toBeUndefined();
});

test('compiling never mutates the input and is idempotent (property test)', () => {
  const leaf = fc.oneof(
    fc.constant<JsonSchema>({ type: 'string', maxLength: 5 }),
    fc.constant<JsonSchema>({ type: 'integer', minimum: 1 }),
    fc.constant<JsonSchema>({ type: 'boolean' }),
  );
  const schema = fc.letrec<{ node: JsonSchema }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc
        .dictionary(fc.string({ minLength: 1, maxLength: 4 }), tie('node'), { maxKeys: 3 })
        .map((properties): JsonSchema => ({ type: 'object', properties })),
      tie('node').map((items): JsonSchema => ({ type: 'array', items })),
    ),
  })).node;
  fc.assert(
    fc.property(schema, (input) => {
      const before = JSON.stringify(input);
      const once = compileOutputSchema(input);
      expect(JSON.stringify(input)).toBe(before);
      expect(compileOutputSchema(once)).toEqual(once);
    }),
  );
});
