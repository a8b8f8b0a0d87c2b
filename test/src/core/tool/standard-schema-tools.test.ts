/**
 * `defineTool({ args: standardSchema })`: the JSON Schema advertised to the model is derived from
 * the schema, the arguments are validated with it (async validators too), and validation issues
 * reach the model as one concise `path: message` rejection it can correct.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import {
  Agent,
  ModelRetry,
  RunError,
  defineTool,
  errorChain,
  type StandardSchemaV1,
  type Tool,
  ConfigError,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

interface Trip {
  city: string;
  days?: number;
  unit: 'c' | 'f';
}

const trips: Record<string, StandardSchemaV1<unknown, Trip>> = {
  zod: z.object({ city: z.string(), days: z.int().min(0).optional(), unit: z.enum(['c', 'f']) }),
  valibot: v.object({
    city: v.string(),
    days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    unit: v.picklist(['c', 'f']),
  }),
  arktype: type({ city: 'string', 'days?': 'number.integer >= 0', unit: "'c' | 'f'" }),
};

/** What each library says about `{ city: 7, unit: 'k' }`, as the model reads it. */
const REJECTIONS: Record<string, string> = {
  zod: 'city: Invalid input: expected string, received number; unit: Invalid option: expected one of "c"|"f"',
  valibot:
    'city: Invalid type: Expected string but received 7; unit: Invalid type: Expected ("c" | "f") but received "k"',
  arktype: 'city: must be a string (was a number); unit: must be "c" or "f" (was "k")',
};

function rejected(reason: string): string {
  return `Your tool call was rejected: ${reason}. Correct the arguments and call the tool again.`;
}

describe.each(Object.keys(trips))('a tool whose args are a %s schema', (vendor) => {
  const schema = trips[vendor]!;
  const seen: Trip[] = [];
  const tool = defineTool({
    name: 'forecast',
    description: 'Forecast for a trip',
    args: schema,
    execute: (args) => {
      seen.push(args);
      return `${args.city} ${args.days ?? 0}d in °${args.unit.toUpperCase()}`;
    },
  });

  beforeEach(() => {
    seen.length = 0;
  });

  test('advertises the JSON Schema derived from the schema', () => {
    expect(tool.schema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 0 } },
      additionalProperties: false,
    });
    expect([...(tool.schema.required as string[])].sort()).toEqual(['city', 'unit']);
  });

  test('rejects invalid arguments with a concise path: message reason, and the model corrects itself', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'forecast', args: { city: 7, unit: 'k' } }]),
      toolCallResponse([{ id: 'c2', name: 'forecast', args: { city: 'Lagos', unit: 'c' } }]),
      textResponse('done'),
    ]);
    const agent = new Agent({ model, tools: [tool], toolRetries: 1 });

    const result = await agent.run('Trip to Lagos?');

    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      rejected(REJECTIONS[vendor]!),
      'Lagos 0d in °C',
    ]);
    expect(seen).toEqual([{ city: 'Lagos', unit: 'c' }]);
  });

  test('hands execute the validated value, not the raw arguments', async () => {
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'forecast', args: { city: 'Oslo', days: 2, unit: 'f' } },
      ]),
      textResponse('done'),
    ]);
    await new Agent({ model, tools: [tool] }).run('Trip?');
    expect(seen).toEqual([{ city: 'Oslo', days: 2, unit: 'f' }]);
  });

  test('without budget, the rejection fails the run at the tool stage carrying the reason', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'forecast', args: { city: 7, unit: 'k' } }]),
    ]);
    const error = await new Agent({ model, tools: [tool] }).run('Trip?').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(RunError.is(error) && error.stage).toBe('tool');
    const retry = [...errorChain(error)].find((e) => ModelRetry.is(e));
    expect(retry?.reason).toBe(REJECTIONS[vendor]);
  });
});

test('zod transforms and defaults reach execute as the schema outputs them', async () => {
  const seen: unknown[] = [];
  const tool = defineTool({
    name: 'count',
    args: z.object({ word: z.string().transform((w) => w.length), times: z.int().default(1) }),
    execute: (args) => {
      seen.push(args);
      return args.word * args.times;
    },
  });
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'count', args: { word: 'golem' } }]),
    textResponse('done'),
  ]);
  const result = await new Agent({ model, tools: [tool] }).run('Count');
  expect(seen).toEqual([{ word: 5, times: 1 }]);
  expect(result.messages[2]?.content).toBe('5');
});

test('an async validator is awaited before execute, and its rejection is correctable', async () => {
  const taken = new Set(['admin']);
  const seen: string[] = [];
  const tool = defineTool({
    name: 'register',
    args: z.object({
      user: z.string().refine(async (name) => Promise.resolve(!taken.has(name)), 'is taken'),
    }),
    execute: ({ user }) => {
      seen.push(user);
      return `registered ${user}`;
    },
  });
  const valibotTool = defineTool({
    name: 'register_v',
    args: v.objectAsync({
      user: v.pipeAsync(
        v.string(),
        v.checkAsync(async (name) => Promise.resolve(!taken.has(name)), 'is taken'),
      ),
    }),
    execute: ({ user }) => `registered ${user}`,
  });
  const model = new ScriptedModel([
    toolCallResponse([
      { id: 'c1', name: 'register', args: { user: 'admin' } },
      { id: 'c2', name: 'register_v', args: { user: 'admin' } },
    ]),
    toolCallResponse([{ id: 'c3', name: 'register', args: { user: 'ada' } }]),
    textResponse('done'),
  ]);
  const result = await new Agent({ model, tools: [tool, valibotTool], toolRetries: 1 }).run(
    'Sign up',
  );
  expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
    rejected('user: is taken'),
    rejected('user: is taken'),
    'registered ada',
  ]);
  expect(seen).toEqual(['ada']);
});

test('`schema` beside `args` is advertised instead of the derived one; `args` still validates', async () => {
  const advertised = {
    type: 'object',
    properties: { q: { type: 'string', description: 'Query' } },
  };
  const tool = defineTool({
    name: 'search',
    args: z.object({ q: z.string().min(2) }),
    schema: advertised,
    execute: ({ q }) => `results for ${q}`,
  });
  expect(tool.schema).toEqual(advertised);
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'search', args: { q: 'x' } }]),
    toolCallResponse([{ id: 'c2', name: 'search', args: { q: 'xy' } }]),
    textResponse('done'),
  ]);
  const result = await new Agent({ model, tools: [tool], toolRetries: 1 }).run('Search');
  expect(result.messages[2]?.content).toBe(
    rejected('q: Too small: expected string to have >=2 characters'),
  );
});

test('a schema that throws (not an issue) is wrapped like a parse failure; a ModelRetry thrown inside passes unchanged', async () => {
  const tool = defineTool({
    name: 'pick',
    args: z.object({ n: z.int() }).transform(({ n }) => {
      if (n === 0) throw new ModelRetry('n must not be 0');
      if (n < 0) throw new Error('negative');
      return n;
    }),
    execute: (n) => `picked ${n}`,
  });
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'pick', args: { n: 0 } }]),
    toolCallResponse([{ id: 'c2', name: 'pick', args: { n: -1 } }]),
    toolCallResponse([{ id: 'c3', name: 'pick', args: { n: 1 } }]),
    textResponse('done'),
  ]);
  const result = await new Agent({ model, tools: [tool], toolRetries: 2 }).run('Pick');
  expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
    rejected('n must not be 0'),
    rejected('invalid arguments for pick: negative'),
    'picked 1',
  ]);
});

test('a validate that breaks the Standard Schema contract fails the run at the tool stage, not as a correction', async () => {
  const broken: StandardSchemaV1<unknown, string> = {
    '~standard': {
      version: 1,
      vendor: 'acme',
      validate: () => null as never,
    },
  };
  const tool = defineTool({
    name: 'broken',
    args: broken,
    schema: { type: 'object' },
    execute: () => 'x',
  });
  const model = new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'broken', args: {} }])]);
  const error = await new Agent({ model, tools: [tool], toolRetries: 3 }).run('go').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(RunError.is(error) && error.stage).toBe('tool');
  const cause = [...errorChain(error)].find((e) => ConfigError.is(e, 'schema'));
  expect((cause as Error | undefined)?.message).toBe(
    "the acme schema's validate returned null, not { value } or { issues }; it does not implement Standard Schema v1",
  );
});

describe('definition errors name the tool and the fix', () => {
  test('`args` that is not a Standard Schema', () => {
    expect(() =>
      defineTool({ name: 't', args: { type: 'object' } as never, execute: () => '' }),
    ).toThrow(
      'tool "t": `args` must be a Standard Schema (a zod 4, valibot or arktype schema), got {"type":"object"}; for a JSON Schema use `schema`',
    );
  });

  test('`args` with `parse`', () => {
    const definition = { name: 't', args: z.object({}), parse: () => ({}), execute: () => '' };
    expect(() => defineTool(definition as never)).toThrow(
      'tool "t": `args` and `parse` are exclusive (the Standard Schema validates the arguments); drop `parse`',
    );
  });

  test('a schema with no JSON Schema form, as a tool ConfigError caused by the schema ConfigError', () => {
    let error: unknown;
    try {
      defineTool({ name: 'when', args: z.object({ at: z.date() }), execute: () => '' });
    } catch (e) {
      error = e;
    }
    expect(ConfigError.is(error, 'tool')).toBe(true);
    expect((error as ConfigError).toolName).toBe('when');
    expect((error as Error).message).toMatch(
      /^tool "when": the zod schema cannot be converted to JSON Schema \(.+\); simplify it, or pass `schema` \(a JSON Schema\) beside it$/,
    );
    expect(ConfigError.is((error as Error).cause, 'schema')).toBe(true);
  });

  test('with `schema` beside it, a schema with no JSON Schema form is usable', () => {
    const tool: Tool = defineTool({
      name: 'when',
      args: z.object({ at: z.union([z.date(), z.iso.datetime().transform((s) => new Date(s))]) }),
      schema: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
      execute: ({ at }) => at.toISOString(),
    });
    expect(tool.schema.properties).toEqual({ at: { type: 'string', format: 'date-time' } });
  });
});
