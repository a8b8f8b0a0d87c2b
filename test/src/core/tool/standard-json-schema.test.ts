/**
 * JSON Schema derived from Standard Schemas (zod 4, valibot, arktype): the same nested, optional,
 * enum and array shapes give the canonical dialect in all three, and OpenAI's strict compiler
 * accepts them. Derivation failures are typed errors naming the fix.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { jsonSchemaOf, type JsonSchema, type StandardSchemaV1, ConfigError } from 'golem';
import { stripAddedNulls, toStrictSchema } from 'golem/providers/openai';
import { canonicalJsonSchema } from '../../../../src/core/tool/json-schema-canonical';
import {
  deriveJsonSchema,
  type ConverterLoaders,
} from '../../../../src/core/tool/standard-json-schema';

/** One shape, three libraries: an optional bounded integer, an enum, an array of objects, a nested optional object with a nullable field. */
const shapes: Record<string, StandardSchemaV1> = {
  zod: z.object({
    city: z.string().describe('City name'),
    days: z.int().min(0).max(7).optional(),
    unit: z.enum(['c', 'f']),
    stops: z.array(z.object({ name: z.string() })),
    window: z.object({ from: z.string(), to: z.string().nullable() }).optional(),
  }),
  valibot: v.object({
    city: v.pipe(v.string(), v.description('City name')),
    days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(7))),
    unit: v.picklist(['c', 'f']),
    stops: v.array(v.object({ name: v.string() })),
    window: v.optional(v.object({ from: v.string(), to: v.nullable(v.string()) })),
  }),
  arktype: type({
    city: type('string').describe('City name'),
    'days?': '0 <= number.integer <= 7',
    unit: "'c' | 'f'",
    stops: type({ name: 'string' }).array(),
    'window?': { from: 'string', to: 'string | null' },
  }),
};

/** Every object schema in `schema`, depth first. */
function objects(schema: unknown, into: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(schema)) for (const item of schema) objects(item, into);
  else if (typeof schema === 'object' && schema !== null) {
    const node = schema as Record<string, unknown>;
    if (node.properties !== undefined) into.push(node);
    for (const value of Object.values(node)) objects(value, into);
  }
  return into;
}

function props(schema: JsonSchema): Record<string, Record<string, unknown>> {
  return schema.properties as Record<string, Record<string, unknown>>;
}

describe.each(Object.keys(shapes))('a %s schema', (vendor) => {
  const schema = jsonSchemaOf(shapes[vendor]!);

  test('becomes an object schema listing exactly the required fields', () => {
    expect(schema.type).toBe('object');
    expect([...(schema.required as string[])].sort()).toEqual(['city', 'stops', 'unit']);
    expect(Object.keys(props(schema)).sort()).toEqual(['city', 'days', 'stops', 'unit', 'window']);
  });

  test('keeps descriptions, integer bounds, enums and array items', () => {
    const p = props(schema);
    expect(p.city).toMatchObject({ type: 'string', description: 'City name' });
    expect(p.days).toMatchObject({ type: 'integer', minimum: 0, maximum: 7 });
    expect(p.unit?.enum).toEqual(['c', 'f']);
    expect(p.stops).toMatchObject({
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
  });

  test('is in the canonical dialect: no $schema, additionalProperties false on every object', () => {
    expect(schema).not.toHaveProperty('$schema');
    const all = objects(schema);
    expect(all.length).toBe(3);
    for (const node of all) expect(node.additionalProperties).toBe(false);
  });

  test('is accepted by the OpenAI strict compiler, and a strict answer validates after its added nulls are stripped', async () => {
    const strict = toStrictSchema(schema);
    expect(strict.required).toEqual(Object.keys(props(schema)));
    const answer = {
      city: 'Lagos',
      days: null,
      unit: 'c',
      stops: [{ name: 'Ikeja' }],
      window: null,
    };
    const cleaned: unknown = JSON.parse(stripAddedNulls(JSON.stringify(answer), schema));
    expect(cleaned).toEqual({ city: 'Lagos', unit: 'c', stops: [{ name: 'Ikeja' }] });
    const result = await shapes[vendor]!['~standard'].validate(cleaned);
    expect(result.issues).toBeUndefined();
  });
});

test('zod int bounds of ±2^53−1 are noise and are dropped; real bounds stay', () => {
  const schema = jsonSchemaOf(z.object({ n: z.int(), m: z.int().max(5) }));
  expect(props(schema).n).toEqual({ type: 'integer' });
  expect(props(schema).m).toEqual({ type: 'integer', maximum: 5 });
});

test('the input side is described: a field with a default is optional, a transform shows its input', () => {
  const schema = jsonSchemaOf(
    z.object({ city: z.string(), days: z.int().default(0), n: z.string().transform(Number) }),
  );
  expect(schema.required).toEqual(['city', 'n']);
  expect(props(schema).n).toEqual({ type: 'string' });
});

test('recursive zod schemas keep a local $ref the strict compiler accepts', () => {
  interface Category {
    name: string;
    children: Category[];
  }
  const Category: z.ZodType<Category> = z.object({
    name: z.string(),
    get children() {
      return z.array(Category);
    },
  });
  const schema = jsonSchemaOf(z.object({ root: Category }));
  expect(JSON.stringify(schema)).toContain('"$ref":"#/$defs/');
  expect(() => toStrictSchema(schema)).not.toThrow();
});

test('draft-07 definitions become $defs and their refs follow', () => {
  const schema = canonicalJsonSchema({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      a: { $ref: '#/definitions/A' },
      list: { type: 'array', items: { $ref: '#/definitions/A' } },
    },
    required: ['a'],
    definitions: { A: { type: 'object', properties: { x: { type: 'string' } } } },
  });
  expect(schema).toEqual({
    type: 'object',
    properties: {
      a: { $ref: '#/$defs/A' },
      list: { type: 'array', items: { $ref: '#/$defs/A' } },
    },
    required: ['a'],
    additionalProperties: false,
    $defs: {
      A: { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false },
    },
  });
});

test('maps (additionalProperties given) and open objects are left as declared', () => {
  const schema = jsonSchemaOf(
    z.object({ scores: z.record(z.string(), z.number()), extra: z.looseObject({ a: z.string() }) }),
  );
  expect(props(schema).scores?.additionalProperties).toEqual({ type: 'number' });
  expect(props(schema).extra?.additionalProperties).toEqual({});
});

test('a schema the library cannot convert is a schema ConfigError naming the fix', () => {
  const error = catchError(() => jsonSchemaOf(z.object({ when: z.date() })));
  expect(ConfigError.is(error, 'schema')).toBe(true);
  expect((error as ConfigError).vendor).toBe('zod');
  expect((error as Error).message).toMatch(
    /^the zod schema cannot be converted to JSON Schema \(.+\); simplify it, or pass `schema` \(a JSON Schema\) beside it$/,
  );
});

test('a library golem has no converter for is a schema ConfigError asking for `schema`', () => {
  const custom: StandardSchemaV1<unknown, string> = {
    '~standard': { version: 1, vendor: 'acme', validate: (value) => ({ value: String(value) }) },
  };
  expect(() => jsonSchemaOf(custom)).toThrow(
    'no JSON Schema can be derived from a acme schema (golem converts zod 4, valibot and arktype schemas, and any schema implementing Standard JSON Schema); pass `schema` (a JSON Schema) beside it',
  );
});

test('a Standard JSON Schema of any library is used (`~standard.jsonSchema.input`)', () => {
  const seen: unknown[] = [];
  const custom = {
    '~standard': {
      version: 1 as const,
      vendor: 'acme',
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: (options: unknown) => {
          seen.push(options);
          return { $schema: 'x', type: 'object', properties: { a: { type: 'string' } } };
        },
        output: () => ({}),
      },
    },
  };
  expect(jsonSchemaOf(custom)).toEqual({
    type: 'object',
    properties: { a: { type: 'string' } },
    additionalProperties: false,
  });
  expect(seen).toEqual([{ target: 'draft-2020-12' }]);
});

test('a zod 3 schema (no `_zod` internals) is refused with the upgrade path', () => {
  const zod3 = {
    '~standard': { version: 1 as const, vendor: 'zod', validate: () => ({ value: 1 }) },
  };
  expect(() => jsonSchemaOf(zod3)).toThrow(
    /^this is a zod 3 schema, which has no JSON Schema converter; use zod 4/,
  );
});

test('a missing converter package is a schema ConfigError naming `npm install`', () => {
  const missing: ConverterLoaders = {
    zod: () => ({}),
    valibot: () => {
      throw Object.assign(new Error("Cannot find module '@valibot/to-json-schema'"), {
        code: 'MODULE_NOT_FOUND',
      });
    },
  };
  const error = catchError(() => deriveJsonSchema(v.object({ a: v.string() }), missing));
  expect(ConfigError.is(error, 'schema')).toBe(true);
  expect((error as Error).message).toBe(
    'converting a valibot schema to JSON Schema needs the package @valibot/to-json-schema, an optional peer dependency of golem: run `npm install @valibot/to-json-schema` (or pass `schema`, a JSON Schema, beside the valibot schema)',
  );
});

test('something that is not a Standard Schema is refused', () => {
  expect(() =>
    deriveJsonSchema({ type: 'object' }, { zod: () => ({}), valibot: () => ({}) }),
  ).toThrow(/^expected a Standard Schema .* got object$/);
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
