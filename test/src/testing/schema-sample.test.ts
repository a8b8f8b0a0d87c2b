import fc from 'fast-check';
import type { JsonSchema, JsonValue } from 'golem';
import { sampleFromSchema } from 'golem/testing';
import { sampleFromPattern } from '../../../src/testing/pattern-sample';
import { SchemaSampleError } from '../../support/internal-errors';

function failure(schema: JsonSchema | boolean): SchemaSampleError {
  try {
    sampleFromSchema(schema);
  } catch (error) {
    if (SchemaSampleError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a SchemaSampleError');
}

describe('sampleFromSchema: scalars', () => {
  test.each<[string, JsonSchema | boolean, JsonValue]>([
    ['string', { type: 'string' }, 'a'],
    ['integer', { type: 'integer' }, 0],
    ['number', { type: 'number' }, 0],
    ['boolean', { type: 'boolean' }, false],
    ['null', { type: 'null' }, null],
    ['empty schema', {}, null],
    ['true schema', true, null],
    ['type array takes the first non-null type', { type: ['null', 'integer'] }, 0],
    ['type array of null', { type: ['null'] }, null],
    ['nullable is accepted and ignored', { type: 'string', nullable: true }, 'a'],
    ['const', { type: 'string', const: 'fixed' }, 'fixed'],
    ['enum takes the first member', { enum: ['red', 'green'] }, 'red'],
    ['default', { type: 'integer', default: 42 }, 42],
    ['examples take the first', { type: 'string', examples: ['Lagos', 'Accra'] }, 'Lagos'],
    ['const before enum', { const: 1, enum: [2] }, 1],
    ['enum before default', { enum: ['x', 'y'], default: 'y' }, 'x'],
    ['type inferred from string keywords', { minLength: 2 }, 'aa'],
    ['type inferred from number keywords', { minimum: 3 }, 3],
  ])('%s', (_name, schema, expected) => {
    expect(sampleFromSchema(schema)).toEqual(expected);
  });

  test.each<[string, JsonSchema, number]>([
    ['minimum', { type: 'integer', minimum: 5 }, 5],
    ['non-integer minimum for an integer', { type: 'integer', minimum: 0.5 }, 1],
    ['exclusiveMinimum (integer)', { type: 'integer', exclusiveMinimum: 5 }, 6],
    ['exclusiveMinimum (number)', { type: 'number', exclusiveMinimum: 5 }, 6],
    ['narrow exclusive range', { type: 'number', exclusiveMinimum: 0, maximum: 0.5 }, 0.25],
    [
      'draft-4 boolean exclusiveMinimum',
      { type: 'integer', minimum: 5, exclusiveMinimum: true },
      6,
    ],
    ['negative maximum', { type: 'integer', maximum: -3 }, -3],
    ['negative exclusiveMaximum', { type: 'integer', exclusiveMaximum: -3 }, -4],
    ['zero exclusiveMaximum', { type: 'number', exclusiveMaximum: 0 }, -1],
    ['positive maximum keeps 0', { type: 'integer', maximum: 10 }, 0],
    ['multipleOf with minimum', { type: 'integer', multipleOf: 3, minimum: 10 }, 12],
    ['decimal multipleOf', { type: 'number', multipleOf: 0.1, minimum: 0.25 }, 0.3],
    ['integer with decimal multipleOf', { type: 'integer', multipleOf: 0.5, minimum: 0.2 }, 1],
    ['integer with multipleOf 0.3', { type: 'integer', multipleOf: 0.3, minimum: 1 }, 3],
    [
      'multipleOf with negative maximum',
      { type: 'integer', multipleOf: 4, exclusiveMaximum: -8 },
      -12,
    ],
    ['large bounds stay exact', { type: 'integer', minimum: 1234567890123 }, 1234567890123],
  ])('number: %s', (_name, schema, expected) => {
    expect(sampleFromSchema(schema)).toBe(expected);
  });

  test('impossible numeric bounds fail naming the path', () => {
    const error = failure({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 3, maximum: 2 } },
      required: ['n'],
    });
    expect(error.path).toBe('#/properties/n');
    expect(error.message).toContain('#/properties/n');
    expect(failure({ type: 'integer', multipleOf: 5, minimum: 1, maximum: 4 }).reason).toContain(
      'multiple of 5',
    );
  });

  test.each<[string, JsonSchema, string]>([
    ['minLength pads', { type: 'string', minLength: 4 }, 'aaaa'],
    ['maxLength 0', { type: 'string', maxLength: 0 }, ''],
    ['date-time', { type: 'string', format: 'date-time' }, '2024-01-01T00:00:00Z'],
    ['date', { type: 'string', format: 'date' }, '2024-01-01'],
    ['email', { type: 'string', format: 'email' }, 'user@example.com'],
    ['uri', { type: 'string', format: 'uri' }, 'https://example.com/'],
    ['uuid', { type: 'string', format: 'uuid' }, '00000000-0000-4000-8000-000000000000'],
    ['unknown formats are annotations', { type: 'string', format: 'color' }, 'a'],
    ['simple pattern', { type: 'string', pattern: '^[A-Z]{3}-\\d{2}$' }, 'AAA-00'],
    ['alternation takes the first branch', { type: 'string', pattern: '^(cat|dog)s?$' }, 'cat'],
    ['pattern grows to minLength', { type: 'string', pattern: '^x[a-c]+$', minLength: 4 }, 'xaaa'],
    ['negated class', { type: 'string', pattern: '^[^a-z0-9]$' }, 'A'],
    ['unanchored pattern', { type: 'string', pattern: 'ab?c' }, 'ac'],
  ])('string: %s', (_name, schema, expected) => {
    const value = sampleFromSchema(schema);
    expect(value).toBe(expected);
    if (typeof schema.pattern === 'string')
      expect(new RegExp(schema.pattern, 'u').test(expected)).toBe(true);
  });

  test('an unsupported pattern fails naming the path and suggesting examples', () => {
    const error = failure({
      type: 'object',
      properties: { p: { type: 'string', pattern: '^(?=.*\\d).{8,}$' } },
    });
    expect(error.path).toBe('#/properties/p');
    expect(error.reason).toContain('examples');
    expect(
      sampleFromSchema({ type: 'string', pattern: '^(?=.*\\d).{8,}$', examples: ['secret12'] }),
    ).toBe('secret12');
  });

  test('contradictory string lengths fail', () => {
    expect(failure({ type: 'string', minLength: 3, maxLength: 2 }).reason).toContain('minLength');
    expect(failure({ type: 'string', format: 'email', maxLength: 5 }).reason).toContain(
      '"email" sample',
    );
  });
});

describe('sampleFromSchema: objects and arrays', () => {
  const person: JsonSchema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      age: { type: 'integer', minimum: 18 },
      nickname: { type: 'string' },
    },
    required: ['name', 'age'],
  };

  test('fills required and optional properties in schema order', () => {
    expect(sampleFromSchema(person)).toEqual({ name: 'a', age: 18, nickname: 'a' });
    expect(Object.keys(sampleFromSchema(person) as object)).toEqual(['name', 'age', 'nickname']);
  });

  test('includeOptional: false keeps only the required properties', () => {
    expect(sampleFromSchema(person, { includeOptional: false })).toEqual({ name: 'a', age: 18 });
  });

  test('maxProperties drops optional properties and minProperties adds them back', () => {
    expect(sampleFromSchema({ ...person, maxProperties: 2 })).toEqual({ name: 'a', age: 18 });
    expect(sampleFromSchema({ ...person, minProperties: 3 }, { includeOptional: false })).toEqual({
      name: 'a',
      age: 18,
      nickname: 'a',
    });
  });

  test('required names missing from properties come from additionalProperties', () => {
    expect(
      sampleFromSchema({
        type: 'object',
        required: ['code'],
        additionalProperties: { type: 'integer', minimum: 7 },
      }),
    ).toEqual({ code: 7 });
    expect(
      sampleFromSchema({
        type: 'object',
        minProperties: 2,
        additionalProperties: { type: 'boolean' },
      }),
    ).toEqual({
      extra1: false,
      extra2: false,
    });
    expect(
      failure({ type: 'object', required: ['code'], additionalProperties: false }).reason,
    ).toContain('"code"');
  });

  test('property names are defined as own data, even __proto__', () => {
    const value = sampleFromSchema({
      type: 'object',
      properties: { ['__proto__']: { type: 'integer' } },
    }) as object;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  test.each<[string, JsonSchema, JsonValue]>([
    ['one item by default', { type: 'array', items: { type: 'string' } }, ['a']],
    ['no items schema gives an empty array', { type: 'array' }, []],
    ['minItems', { type: 'array', items: { type: 'integer' }, minItems: 3 }, [0, 0, 0]],
    ['maxItems 0', { type: 'array', items: { type: 'integer' }, maxItems: 0 }, []],
    [
      'prefixItems tuple',
      {
        type: 'array',
        prefixItems: [{ type: 'string' }, { type: 'integer', minimum: 2 }],
        items: false,
      },
      ['a', 2],
    ],
    [
      'prefixItems then items up to minItems',
      { type: 'array', prefixItems: [{ const: 'head' }], items: { type: 'boolean' }, minItems: 3 },
      ['head', false, false],
    ],
    [
      'draft-4 tuple items',
      { type: 'array', items: [{ type: 'null' }, { type: 'string' }] },
      [null, 'a'],
    ],
    [
      'uniqueItems strings',
      { type: 'array', items: { type: 'string' }, minItems: 3, uniqueItems: true },
      ['a', 'a1', 'a2'],
    ],
    [
      'uniqueItems integers',
      { type: 'array', items: { type: 'integer', minimum: 5 }, minItems: 2, uniqueItems: true },
      [5, 6],
    ],
    [
      'uniqueItems enum',
      { type: 'array', items: { enum: ['x', 'y'] }, minItems: 2, uniqueItems: true },
      ['x', 'y'],
    ],
    [
      'uniqueItems formats',
      { type: 'array', items: { type: 'string', format: 'email' }, minItems: 2, uniqueItems: true },
      ['user@example.com', 'user1@example.com'],
    ],
  ])('array: %s', (_name, schema, expected) => {
    expect(sampleFromSchema(schema)).toEqual(expected);
  });

  test('uniqueItems that cannot be met fails', () => {
    expect(
      failure({ type: 'array', items: { enum: ['x'] }, minItems: 2, uniqueItems: true }).reason,
    ).toContain('distinct');
  });

  test('minItems beyond what the tuple allows fails', () => {
    expect(
      failure({ type: 'array', prefixItems: [{ type: 'string' }], items: false, minItems: 2 }).path,
    ).toBe('#');
  });
});

describe('sampleFromSchema: combinators and references', () => {
  test('anyOf and oneOf take the first branch', () => {
    expect(sampleFromSchema({ anyOf: [{ type: 'integer' }, { type: 'string' }] })).toBe(0);
    expect(sampleFromSchema({ oneOf: [{ type: 'string' }, { type: 'integer' }] })).toBe('a');
  });

  test('anyOf merges sibling keywords into the branch', () => {
    expect(
      sampleFromSchema({
        type: 'object',
        properties: { kind: { type: 'string' } },
        required: ['kind'],
        anyOf: [{ properties: { size: { type: 'integer', minimum: 2 } }, required: ['size'] }],
      }),
    ).toEqual({ kind: 'a', size: 2 });
  });

  test('a branch that cannot be sampled falls back to the next one', () => {
    expect(sampleFromSchema({ anyOf: [{ not: { type: 'string' } }, { type: 'boolean' }] })).toBe(
      false,
    );
    expect(failure({ anyOf: [{ not: {} }, { if: {} }] }).path).toBe('#/anyOf/0');
  });

  test('allOf merges objects and tightens bounds', () => {
    expect(
      sampleFromSchema({
        allOf: [
          { type: 'object', properties: { a: { type: 'integer', minimum: 1 } }, required: ['a'] },
          { properties: { a: { minimum: 4 }, b: { type: 'string' } }, required: ['b'] },
        ],
      }),
    ).toEqual({ a: 4, b: 'a' });
    expect(
      sampleFromSchema({ allOf: [{ type: 'number' }, { type: 'integer', exclusiveMinimum: 1 }] }),
    ).toBe(2);
  });

  test('allOf with contradictory types fails', () => {
    expect(failure({ allOf: [{ type: 'string' }, { type: 'integer' }] }).reason).toContain(
      '"type"',
    );
  });

  test('$ref resolves #/$defs, #/definitions and merges siblings', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        home: { $ref: '#/$defs/Address' },
        work: { $ref: '#/definitions/Address', description: 'Office', default: { city: 'Accra' } },
        tags: { type: 'array', items: { $ref: '#/$defs/Tag' } },
      },
      $defs: {
        Address: {
          type: 'object',
          properties: { city: { type: 'string', minLength: 3 } },
          required: ['city'],
        },
        Tag: { enum: ['new', 'old'] },
      },
      definitions: { Address: { type: 'object', properties: { city: { type: 'string' } } } },
    };
    expect(sampleFromSchema(schema)).toEqual({
      home: { city: 'aaa' },
      work: { city: 'Accra' },
      tags: ['new'],
    });
  });

  test('recursive references stop where the schema allows', () => {
    const tree: JsonSchema = {
      $ref: '#/$defs/Node',
      $defs: {
        Node: {
          type: 'object',
          properties: {
            value: { type: 'integer' },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
            parent: { $ref: '#/$defs/Node' },
          },
          required: ['value', 'children'],
        },
      },
    };
    expect(sampleFromSchema(tree)).toEqual({ value: 0, children: [] });

    const list: JsonSchema = {
      $defs: {
        Item: {
          type: 'object',
          properties: { next: { anyOf: [{ $ref: '#/$defs/Item' }, { type: 'null' }] } },
          required: ['next'],
        },
      },
      $ref: '#/$defs/Item',
    };
    expect(sampleFromSchema(list)).toEqual({ next: null });

    const nullable: JsonSchema = {
      $defs: {
        N: { type: ['object', 'null'], properties: { n: { $ref: '#/$defs/N' } }, required: ['n'] },
      },
      $ref: '#/$defs/N',
    };
    expect(sampleFromSchema(nullable)).toEqual({ n: null });
  });

  test('a required self-reference has no finite value', () => {
    const error = failure({
      $defs: {
        Loop: {
          type: 'object',
          properties: { self: { $ref: '#/$defs/Loop' } },
          required: ['self'],
        },
      },
      $ref: '#/$defs/Loop',
    });
    expect(error.reason).toContain('recursive $ref "#/$defs/Loop"');
    expect(error.path).toBe('#/$defs/Loop/properties/self');
  });

  test('a reference to the root recurses safely', () => {
    expect(
      sampleFromSchema({
        type: 'object',
        properties: { child: { $ref: '#' }, id: { type: 'string' } },
      }),
    ).toEqual({ child: { id: 'a' }, id: 'a' });
  });

  test('remote and dangling references fail naming the path', () => {
    expect(failure({ properties: { a: { $ref: 'other.json#/x' } }, required: ['a'] }).path).toBe(
      '#/properties/a',
    );
    expect(failure({ $ref: '#/$defs/Missing' }).reason).toContain('does not resolve');
  });
});

describe('sampleFromSchema: unsupported schemas', () => {
  test.each<[string, JsonSchema | boolean, string, string]>([
    [
      'not',
      { type: 'object', properties: { x: { not: { type: 'string' } } } },
      '#/properties/x',
      '"not"',
    ],
    ['if', { if: { type: 'string' }, then: { minLength: 2 } }, '#', '"if"'],
    ['contains', { type: 'array', contains: { const: 1 } }, '#', '"contains"'],
    ['unknown type', { type: 'date' }, '#', 'unsupported type "date"'],
    ['false schema', false, '#', 'accepts no value'],
    ['empty enum', { enum: [] }, '#', '"enum"'],
    [
      'array items false',
      { type: 'array', items: [{ type: 'string' }, false], minItems: 2 },
      '#/items/1',
      'accepts no value',
    ],
  ])('%s', (_name, schema, path, reason) => {
    const error = failure(schema);
    expect(error.path).toBe(path);
    expect(error.reason).toContain(reason);
    expect(error.kind).toBe('SchemaSampleError');
    expect(error).toBeInstanceOf(Error);
  });
});

describe('sampleFromSchema: properties', () => {
  type Leaf = JsonSchema;
  const leaf: fc.Arbitrary<Leaf> = fc.oneof(
    fc
      .record({ min: fc.nat(6), span: fc.option(fc.nat(6), { nil: undefined }) })
      .map(({ min, span }): Leaf => ({
        type: 'string',
        minLength: min,
        ...(span === undefined ? {} : { maxLength: min + span }),
      })),
    fc
      .record({
        min: fc.option(fc.integer({ min: -100, max: 100 }), { nil: undefined }),
        span: fc.nat(50),
        step: fc.option(fc.constantFrom(1, 2, 3, 5, 7), { nil: undefined }),
        exclusive: fc.boolean(),
      })
      .map(({ min, span, step, exclusive }): Leaf => {
        const schema: Leaf = { type: 'integer' };
        if (step !== undefined) schema.multipleOf = step;
        if (min !== undefined) {
          schema[exclusive ? 'exclusiveMinimum' : 'minimum'] = min;
          schema.maximum = min + span + 2 * (step ?? 1);
        }
        return schema;
      }),
    fc
      .record({
        min: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        span: fc.double({ min: 0.001, max: 1e3, noNaN: true }),
      })
      .map(({ min, span }): Leaf => ({
        type: 'number',
        exclusiveMinimum: min,
        maximum: min + span,
      })),
    fc
      .record({
        min: fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        step: fc.constantFrom(0.1, 0.25, 0.5, 0.01, 1.5),
        integer: fc.boolean(),
      })
      .map(({ min, step, integer }): Leaf => ({
        type: integer ? 'integer' : 'number',
        multipleOf: step,
        minimum: min,
        maximum: min + 2 * (integer ? 100 : step),
      })),
    fc
      .uniqueArray(fc.oneof(fc.string(), fc.integer(), fc.boolean()), {
        minLength: 1,
        maxLength: 4,
      })
      .map((e): Leaf => ({ enum: e })),
    fc.constant<Leaf>({ type: 'boolean' }),
    fc.constant<Leaf>({ type: ['null', 'string'] }),
  );
  const objectSchema: fc.Arbitrary<JsonSchema> = fc
    .dictionary(
      fc.string({ minLength: 1, maxLength: 8 }),
      fc.oneof(
        leaf,
        leaf.map((items): Leaf => ({ type: 'array', items, maxItems: 3 })),
      ),
      {
        maxKeys: 6,
      },
    )
    .chain((properties) =>
      fc.subarray(Object.keys(properties)).map((required): JsonSchema => ({
        type: 'object',
        properties,
        required,
        additionalProperties: false,
      })),
    );

  test('a sample satisfies required, enum, bounds, lengths and multipleOf', () => {
    fc.assert(
      fc.property(objectSchema, fc.boolean(), (schema, includeOptional) => {
        const value = sampleFromSchema(schema, { includeOptional });
        expect(problems(schema, value)).toEqual([]);
        expect(sampleFromSchema(schema, { includeOptional })).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
});

describe('sampleFromPattern', () => {
  test('returns undefined for constructs it does not support instead of a wrong string', () => {
    expect(sampleFromPattern('^(a)\\1$', 0, Infinity)).toBeUndefined();
    expect(sampleFromPattern('^\\p{L}+$', 0, Infinity)).toBeUndefined();
    expect(sampleFromPattern('^\\d{3}$', 5, Infinity)).toBeUndefined();
    expect(sampleFromPattern('^a{5}$', 0, 3)).toBeUndefined();
    expect(sampleFromPattern('(', 0, Infinity)).toBeUndefined();
  });

  test('handles escapes, named groups and lazy quantifiers', () => {
    expect(sampleFromPattern('^\\x41\\u0042(?<n>\\w)+?\\.$', 0, Infinity)).toBe('ABa.');
  });
});

/** A tiny validator for the subset the property test generates. */
function problems(schema: JsonSchema, value: JsonValue, path = '$'): string[] {
  const out: string[] = [];
  const fail = (what: string): void => {
    out.push(`${path}: ${what} (got ${JSON.stringify(value)})`);
  };
  if (Array.isArray(schema.enum)) {
    if (!schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) fail('not in enum');
    return out;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const typeOk = types.some((t) => {
    switch (t) {
      case 'null':
        return value === null;
      case 'string':
        return typeof value === 'string';
      case 'integer':
        return typeof value === 'number' && Number.isInteger(value);
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'boolean':
        return typeof value === 'boolean';
      case 'array':
        return Array.isArray(value);
      case 'object':
        return typeof value === 'object' && value !== null && !Array.isArray(value);
      default:
        return false;
    }
  });
  if (!typeOk) {
    fail(`not of type ${JSON.stringify(schema.type)}`);
    return out;
  }
  const num = (key: string): number | undefined =>
    typeof schema[key] === 'number' ? schema[key] : undefined;
  if (typeof value === 'number') {
    const [min, xmin, max, xmax, step] = [
      'minimum',
      'exclusiveMinimum',
      'maximum',
      'exclusiveMaximum',
      'multipleOf',
    ].map(num);
    if (min !== undefined && value < min) fail(`below minimum ${min}`);
    if (xmin !== undefined && value <= xmin) fail(`not above ${xmin}`);
    if (max !== undefined && value > max) fail(`above maximum ${max}`);
    if (xmax !== undefined && value >= xmax) fail(`not below ${xmax}`);
    if (step !== undefined && Math.abs(value / step - Math.round(value / step)) > 1e-9)
      fail(`not a multiple of ${step}`);
  }
  if (typeof value === 'string') {
    const length = Array.from(value).length;
    const [min, max] = ['minLength', 'maxLength'].map(num);
    if (min !== undefined && length < min) fail(`shorter than ${min}`);
    if (max !== undefined && length > max) fail(`longer than ${max}`);
  }
  if (Array.isArray(value)) {
    const [min, max] = ['minItems', 'maxItems'].map(num);
    if (min !== undefined && value.length < min) fail(`fewer than ${min} items`);
    if (max !== undefined && value.length > max) fail(`more than ${max} items`);
    const items = schema.items as JsonSchema | undefined;
    if (items) value.forEach((v, i) => out.push(...problems(items, v, `${path}[${i}]`)));
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const key of (schema.required ?? []) as string[]) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) fail(`missing required "${key}"`);
    }
    for (const [key, v] of Object.entries(value)) {
      const sub = Object.prototype.hasOwnProperty.call(properties, key)
        ? properties[key]
        : undefined;
      if (sub === undefined) {
        if (schema.additionalProperties === false) fail(`unexpected property "${key}"`);
      } else {
        out.push(...problems(sub, v, `${path}.${key}`));
      }
    }
  }
  return out;
}
