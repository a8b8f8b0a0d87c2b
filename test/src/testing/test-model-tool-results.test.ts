/**
 * TestModel's structured final answers draw on the conversation's tool results: a top-level
 * output field named like a key of a tool's JSON result takes that value when it provably fits the
 * field's schema; otherwise it keeps its generated value.
 */
import { Agent, decodeJSON, defineTool, type JsonSchema, type ModelRequest } from 'golem';
import { TestModel } from 'golem/testing';
import { fitsSchema } from '../../../src/testing/schema-fits';

const forecast: JsonSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    celsius: { type: 'integer', minimum: -90, maximum: 60 },
    conditions: { type: 'array', items: { type: 'string' }, maxItems: 3 },
  },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

/** A conversation in which tools answered `results` (one tool message each). */
function after(results: string[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    messages: [
      { role: 'user', content: 'Weather in Lagos?' },
      {
        role: 'assistant',
        toolCalls: results.map((_, i) => ({ id: `c${i}`, name: 'lookup', args: '{}' })),
      },
      ...results.map((content, i) => ({
        role: 'tool' as const,
        content,
        toolCallId: `c${i}`,
        toolName: 'lookup',
      })),
    ],
    tools: [],
    ...extra,
  };
}

async function finalOutput(model: TestModel, request: ModelRequest): Promise<unknown> {
  const response = await model.generate(request);
  return JSON.parse(response.message.content ?? '');
}

describe('TestModel final answers after tool calls', () => {
  test('fill fields named like keys of a JSON tool result with its values', async () => {
    const output = await finalOutput(
      new TestModel(),
      after(['{"city":"Lagos","celsius":31,"conditions":["sunny","humid"],"days":1}'], {
        outputSchema: forecast,
      }),
    );
    expect(output).toEqual({ city: 'Lagos', celsius: 31, conditions: ['sunny', 'humid'] });
  });

  test('keep the generated value where the result does not fit the field', async () => {
    const output = await finalOutput(
      new TestModel(),
      after(['{"city":"L","celsius":"hot","conditions":["a","b","c","d"]}'], {
        outputSchema: forecast,
      }),
    );
    // "L" is shorter than minLength 2, "hot" is no integer, four conditions exceed maxItems 3.
    expect(output).toEqual({ city: 'aa', celsius: -90, conditions: ['a'] });
  });

  test('the latest result naming a key wins; results that are not JSON objects are skipped', async () => {
    const output = await finalOutput(
      new TestModel(),
      after(['{"celsius":20}', 'sunny, 25°C', '[1,2]', '{"celsius":31}'], {
        outputSchema: forecast,
      }),
    );
    expect(output).toMatchObject({ celsius: 31 });
  });

  test('the output tool is called with arguments drawn from the results too', async () => {
    const request = after(['{"city":"Oslo","celsius":4}'], {
      tools: [{ name: 'final_result', description: 'The answer', schema: forecast, output: true }],
    });
    const response = await new TestModel().generate(request);
    expect(JSON.parse(response.message.toolCalls?.[0]?.args ?? '')).toEqual({
      city: 'Oslo',
      celsius: 4,
      conditions: ['a'],
    });
  });

  test('useToolResults: false gives the purely generated value', async () => {
    const output = await finalOutput(
      new TestModel({ useToolResults: false }),
      after(['{"city":"Lagos","celsius":31}'], { outputSchema: forecast }),
    );
    expect(output).toEqual({ city: 'aa', celsius: -90, conditions: ['a'] });
  });

  test('an agent run offline reports what its tool returned', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Reads the thermometer',
      schema: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => JSON.stringify({ city: 'Lagos', celsius: 31 }),
    });
    const agent = new Agent({
      model: new TestModel(),
      tools: [lookup],
      outputSchema: forecast,
      output: decodeJSON<{ city: string; celsius: number }>(),
    });
    const result = await agent.run('Weather in Lagos?');
    expect(result.output).toMatchObject({ city: 'Lagos', celsius: 31 });
  });
});

describe('fitsSchema accepts only values it can prove valid', () => {
  test.each<[string, unknown, unknown, boolean]>([
    ['an integer in range', 31, { type: 'integer', minimum: 0, maximum: 60 }, true],
    ['a fraction for an integer', 31.5, { type: 'integer' }, false],
    ['a number above an exclusive maximum', 5, { type: 'number', exclusiveMaximum: 5 }, false],
    ['a multiple', 15, { type: 'number', multipleOf: 5 }, true],
    ['an enum member', 'b', { enum: ['a', 'b'] }, true],
    ['a const mismatch', 'x', { const: 'y' }, false],
    ['a matching pattern', 'AB-1', { type: 'string', pattern: '^[A-Z]+-\\d$' }, true],
    ['an invalid pattern', 'x', { type: 'string', pattern: '(' }, false],
    ['a format it cannot check', 'x', { type: 'string', format: 'email' }, false],
    ['an unknown keyword', 1, { type: 'number', not: { const: 2 } }, false],
    ['null where nullable', null, { type: 'string', nullable: true }, true],
    ['a type list', null, { type: ['string', 'null'] }, true],
    ['anyOf', 3, { anyOf: [{ type: 'string' }, { type: 'integer' }] }, true],
    ['oneOf matching two branches', 3, { oneOf: [{ type: 'number' }, { type: 'integer' }] }, false],
    ['duplicate items under uniqueItems', [1, 1], { type: 'array', uniqueItems: true }, false],
    [
      'an object with an extra property',
      { a: 1, b: 2 },
      { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false },
      false,
    ],
    ['a missing required property', {}, { type: 'object', required: ['a'] }, false],
    ['true', { anything: 1 }, true, true],
  ])('%s', (_name, value, schema, expected) => {
    expect(fitsSchema(value, schema, schema)).toBe(expected);
  });

  test('resolves local references from the root', () => {
    const root = {
      $defs: { Celsius: { type: 'integer', maximum: 60 } },
      type: 'object',
      properties: { celsius: { $ref: '#/$defs/Celsius' } },
    };
    expect(fitsSchema({ celsius: 31 }, root, root)).toBe(true);
    expect(fitsSchema({ celsius: 99 }, root, root)).toBe(false);
    expect(fitsSchema(1, { $ref: 'https://example.com/s.json' }, root)).toBe(false);
  });
});
