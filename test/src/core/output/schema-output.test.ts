/**
 * Structured output declared by a Standard Schema: `schemaOutput(schema)` sends the derived JSON
 * Schema (native or tool mode) and validates the answer with the schema; `decodeJSON(schema)`
 * validates only. Issues are fed back as concise `path: message` rejections.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import {
  Agent,
  ModelRetry,
  RunError,
  decodeJSON,
  errorChain,
  jsonSchemaOf,
  schemaOutput,
  type ModelResponse,
  type StandardSchemaV1,
  ConfigError,
} from 'golem';
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';

interface Forecast {
  city: string;
  celsius: number;
  tags?: string[];
}

const forecasts: Record<string, StandardSchemaV1<unknown, Forecast>> = {
  zod: z.object({ city: z.string(), celsius: z.int(), tags: z.array(z.string()).optional() }),
  valibot: v.object({
    city: v.string(),
    celsius: v.pipe(v.number(), v.integer()),
    tags: v.optional(v.array(v.string())),
  }),
  arktype: type({ city: 'string', celsius: 'number.integer', 'tags?': 'string[]' }),
};

/** What each library says about `{"city":"Lagos","celsius":"31"}`. */
const REJECTIONS: Record<string, string> = {
  zod: 'celsius: Invalid input: expected number, received string',
  valibot: 'celsius: Invalid type: Expected number but received "31"',
  arktype: 'celsius: must be a number (was a string)',
};

const response = (content: string): ModelResponse => textResponse(content);
const ctx = { signal: new AbortController().signal, deps: undefined };

describe.each(Object.keys(forecasts))('a %s output schema', (vendor) => {
  const schema = forecasts[vendor]!;

  test('native mode: the derived JSON Schema travels on every request, the answer is corrected once and typed', async () => {
    const model = new ScriptedModel([
      textResponse('{"city":"Lagos","celsius":"31"}'),
      textResponse('{"city":"Lagos","celsius":31}'),
    ]);
    const agent = new Agent({ model, ...schemaOutput(schema), outputRetries: 1 });

    const result = await agent.run('Weather?');

    expect(result.output).toEqual({ city: 'Lagos', celsius: 31 });
    expect(result.messages[2]?.content).toBe(
      `Your previous response was rejected: ${REJECTIONS[vendor]}. Correct it and respond again.`,
    );
    expect(model.requests.map((r) => r.outputSchema)).toEqual([
      jsonSchemaOf(schema),
      jsonSchemaOf(schema),
    ]);
  });

  test('tool mode: the output tool carries the schema; a rejection is bound to the output call', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'o1', name: 'record', args: { city: 'Lagos', celsius: '31' } }]),
      toolCallResponse([{ id: 'o2', name: 'record', args: { city: 'Lagos', celsius: 31 } }]),
    ]);
    const agent = new Agent({
      model,
      ...schemaOutput(schema, { mode: 'tool', name: 'record', description: 'Record it' }),
      outputRetries: 1,
    });

    const result = await agent.run('Weather?');

    expect(result.output).toEqual({ city: 'Lagos', celsius: 31 });
    expect(result.messages[2]).toMatchObject({
      role: 'tool',
      toolCallId: 'o1',
      content: `Your result was rejected: ${REJECTIONS[vendor]}. Correct the arguments and call record again.`,
    });
    const spec = model.requests[0]?.tools[0];
    expect(spec).toMatchObject({ name: 'record', description: 'Record it', output: true });
    expect(spec?.schema).toEqual({ ...jsonSchemaOf(schema), description: 'Record it' });
  });

  test('TestModel answers the derived schema with a value the schema accepts', async () => {
    const agent = new Agent({ model: new TestModel(), ...schemaOutput(schema) });
    const result = await agent.run('Weather?');
    expect(typeof result.output.city).toBe('string');
    expect(Number.isInteger(result.output.celsius)).toBe(true);
  });

  test('decodeJSON(schema) validates without sending anything', async () => {
    const decode = decodeJSON(schema);
    // A synchronous schema's value comes back as it is, not wrapped in a promise.
    expect(decode(response('{"city":"Oslo","celsius":-3}'), ctx)).toEqual({
      city: 'Oslo',
      celsius: -3,
    });
    // A rejection is always a rejected promise, never a synchronous throw.
    let decoded: unknown;
    expect(() => (decoded = decode(response('{"celsius":1.5}'), ctx))).not.toThrow();
    expect(decoded).toBeInstanceOf(Promise);
    const error = await (decoded as Promise<unknown>).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ModelRetry.is(error)).toBe(true);
    const problems = (error as ModelRetry).reason.split('; ').map((line) => line.split(':')[0]);
    expect(problems.sort()).toEqual(['celsius', 'city']);
  });
});

test('decodeJSON still reports invalid JSON before the schema runs', async () => {
  const error = await Promise.resolve(decodeJSON(forecasts.zod!)(response('It is 31.'), ctx)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect((error as ModelRetry).reason).toMatch(
    /^the response is not valid JSON for the expected output: /,
  );
});

test('an async refinement is awaited in the decoder', async () => {
  const known = z.object({
    city: z.string().refine(async (c) => Promise.resolve(c === 'Lagos'), 'is not a known city'),
  });
  const decode = decodeJSON(known);
  await expect(decode(response('{"city":"Lagos"}'), ctx)).resolves.toEqual({ city: 'Lagos' });
  await expect(decode(response('{"city":"Atlantis"}'), ctx)).rejects.toMatchObject({
    reason: 'city: is not a known city',
  });
});

test('output: a schema transform shapes the typed output', async () => {
  const model = new ScriptedModel([textResponse('{"celsius":31}')]);
  const agent = new Agent({
    model,
    ...schemaOutput(
      z.object({ celsius: z.number() }).transform(({ celsius }) => celsius * 1.8 + 32),
    ),
  });
  expect((await agent.run('Temp?')).output).toBeCloseTo(87.8);
});

test('`schema` advertises another JSON Schema; `description` lands on its root', () => {
  const advertised = { type: 'object', properties: { city: { type: 'string' } } };
  const out = schemaOutput(forecasts.zod!, { schema: advertised, description: 'A forecast' });
  expect(out.outputSchema).toEqual({ ...advertised, description: 'A forecast' });
  expect(advertised).not.toHaveProperty('description');
});

test('a validate breaking the contract fails the run at decode, not as a correction', async () => {
  const broken: StandardSchemaV1<unknown, string> = {
    '~standard': { version: 1, vendor: 'acme', validate: () => 'nope' as never },
  };
  const model = new ScriptedModel([textResponse('"x"')]);
  const agent = new Agent({ model, output: decodeJSON(broken), outputRetries: 3 });
  const error = await agent.run('go').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(RunError.is(error) && error.stage).toBe('decode');
  expect([...errorChain(error)].some((e) => ConfigError.is(e, 'schema'))).toBe(true);
  expect(model.requests).toHaveLength(1);
});

test('an unknown mode is refused with the fix', () => {
  expect(() => schemaOutput(forecasts.zod!, { mode: 'json' } as never)).toThrow(
    "schemaOutput: mode \"json\" is unknown; use 'native' or 'tool'",
  );
});
