import { ConfigError, emptyUsage } from 'golem';
import { z } from 'zod';
import type { EvalContext, Evaluator } from '../../src/evals/evaluator';
import { contains } from '../../src/evals/evaluators/contains';
import { evaluator } from '../../src/evals/evaluators/custom';
import { equals } from '../../src/evals/evaluators/equals';
import { isInstanceOf } from '../../src/evals/evaluators/is-instance-of';
import { matchesSchema } from '../../src/evals/evaluators/matches-schema';
import { normaliseScore, runEvaluator } from '../../src/evals/score';

/** A case run's context with only the fields a test cares about. */
function ctxOf(fields: { output: unknown; expected?: unknown; input?: unknown }): EvalContext {
  const input = fields.input ?? 'prompt';
  return {
    case: {
      name: 'case-1',
      input,
      ...(fields.expected === undefined ? {} : { expected: fields.expected }),
    },
    input,
    expected: fields.expected,
    output: fields.output,
    messages: [],
    events: [],
    toolCalls: [],
    turns: 1,
    requests: 1,
    usage: emptyUsage(),
    cost: undefined,
    durationMs: 10,
    repeat: 0,
    signal: new AbortController().signal,
  };
}

const run = (e: Evaluator, ctx: EvalContext) => runEvaluator(e, ctx);

describe('normaliseScore', () => {
  it('scores booleans 1 or 0', () => {
    expect(normaliseScore('b', undefined, true)).toEqual({ name: 'b', pass: true, score: 1 });
    expect(normaliseScore('b', undefined, false)).toEqual({ name: 'b', pass: false, score: 0 });
  });

  it('clamps numbers and passes them at the threshold (default 0.5)', () => {
    expect(normaliseScore('n', undefined, 0.5)).toMatchObject({ pass: true, score: 0.5 });
    expect(normaliseScore('n', undefined, 0.49)).toMatchObject({ pass: false, score: 0.49 });
    expect(normaliseScore('n', 0.8, 0.7)).toMatchObject({ pass: false, score: 0.7 });
    expect(normaliseScore('n', 0.8, 0.8)).toMatchObject({ pass: true });
    expect(normaliseScore('n', undefined, 7)).toMatchObject({ pass: true, score: 1 });
    expect(normaliseScore('n', 0, -3)).toMatchObject({ pass: true, score: 0 });
  });

  it('turns NaN, infinities and non-scores into error results', () => {
    for (const raw of [Number.NaN, Number.POSITIVE_INFINITY, 'yes', null, [1]]) {
      const result = normaliseScore('x', undefined, raw as never);
      expect(result).toMatchObject({ name: 'x', pass: false, score: 0 });
      expect(result.error).toContain("evaluator 'x' returned");
    }
  });

  it('derives the missing half of an object verdict and keeps its details', () => {
    expect(normaliseScore('o', undefined, { pass: true })).toEqual({
      name: 'o',
      pass: true,
      score: 1,
    });
    expect(normaliseScore('o', 0.9, { score: 0.8, reason: 'close' })).toEqual({
      name: 'o',
      pass: false,
      score: 0.8,
      reason: 'close',
    });
    // A given pass wins over the threshold.
    expect(normaliseScore('o', 0.9, { pass: true, score: 0.2 })).toMatchObject({
      pass: true,
      score: 0.2,
    });
    const usage = { inputTokens: 3, outputTokens: 4 };
    expect(
      normaliseScore('o', undefined, { pass: false, label: 'bad', usage, cost: 0.01 }),
    ).toEqual({ name: 'o', pass: false, score: 0, label: 'bad', usage, cost: 0.01 });
  });

  it('rejects an object verdict without pass and score, or with a NaN score', () => {
    expect(normaliseScore('o', undefined, { reason: 'hm' }).error).toContain(
      'neither pass nor score',
    );
    const nan = normaliseScore('o', undefined, { score: Number.NaN, reason: 'r' });
    expect(nan).toMatchObject({ pass: false, score: 0, reason: 'r' });
    expect(nan.error).toContain('score NaN');
  });
});

describe('runEvaluator', () => {
  it('turns a throw or a rejection into an error result, and renames', async () => {
    const throws = evaluator('boom', () => {
      throw new Error('kaput');
    });
    expect(await run(throws, ctxOf({ output: 1 }))).toEqual({
      name: 'boom',
      pass: false,
      score: 0,
      error: 'kaput',
    });
    const rejects = evaluator('later', () => Promise.reject(new Error('nope')));
    expect(await runEvaluator(rejects, ctxOf({ output: 1 }), 'later#2')).toMatchObject({
      name: 'later#2',
      error: 'nope',
    });
  });

  it("uses the evaluator's threshold for numeric scores", async () => {
    const strict = evaluator('strict', () => 0.7, { threshold: 0.9 });
    expect(await run(strict, ctxOf({ output: 1 }))).toMatchObject({ pass: false, score: 0.7 });
    const lenient = evaluator('lenient', async () => 0.7);
    expect(await run(lenient, ctxOf({ output: 1 }))).toMatchObject({ pass: true, score: 0.7 });
  });
});

describe('evaluator()', () => {
  it('passes the context to the function', async () => {
    const long = evaluator<string, string>('long', ({ output, input }) => ({
      pass: output.length > input.length,
      reason: `${output.length} vs ${input.length}`,
    }));
    expect(await run(long as Evaluator, ctxOf({ input: 'ab', output: 'abc' }))).toMatchObject({
      pass: true,
      reason: '3 vs 2',
    });
  });

  it('rejects a bad name, function or threshold with a ConfigError', () => {
    expect(() => evaluator('', () => true)).toThrow(ConfigError);
    expect(() => evaluator('x', 'nope' as never)).toThrow(/pass a function/);
    expect(() => evaluator('x', () => true, { threshold: 2 })).toThrow(/between 0 and 1/);
  });
});

describe('equals', () => {
  class Forecast {
    constructor(
      readonly city: string,
      readonly days: number[],
    ) {}
  }

  it("compares with the case's expected, structurally", async () => {
    const ctx = ctxOf({
      output: new Forecast('Lagos', [30, 31]),
      expected: { city: 'Lagos', days: [30, 31] },
    });
    expect(await run(equals(), ctx)).toMatchObject({ pass: true, score: 1 });
  });

  it('names the first differing path with expected and found', async () => {
    const result = await run(
      equals({ city: 'Lagos', days: [30, 31] }),
      ctxOf({ output: { city: 'Lagos', days: [30, 29] } }),
    );
    expect(result).toMatchObject({ pass: false, score: 0 });
    expect(result.reason).toBe('output at $.days[1]: expected 31, found 29');
  });

  it('reports missing and extra keys and ignores undefined properties', async () => {
    const missing = await run(equals({ a: 1, b: 2 }), ctxOf({ output: { a: 1 } }));
    expect(missing.reason).toBe('output at $.b: expected 2, found undefined');
    const extra = await run(equals({ a: 1 }), ctxOf({ output: { a: 1, 'b-c': true } }));
    expect(extra.reason).toBe('output at $["b-c"]: expected undefined, found true');
    const undef = await run(equals({ a: 1 }), ctxOf({ output: { a: 1, b: undefined } }));
    expect(undef.pass).toBe(true);
  });

  it('compares dates by their JSON text and root values directly', async () => {
    const date = await run(
      equals('2026-01-02T00:00:00.000Z'),
      ctxOf({ output: new Date('2026-01-02T00:00:00Z') }),
    );
    expect(date.pass).toBe(true);
    const root = await run(equals('yes'), ctxOf({ output: 'no' }));
    expect(root.reason).toBe('output: expected "yes", found "no"');
    const arrayVsObject = await run(equals([1]), ctxOf({ output: { 0: 1 } }));
    expect(arrayVsObject.pass).toBe(false);
  });

  it('errors when there is nothing to compare with', async () => {
    const result = await run(equals(), ctxOf({ output: 'x' }));
    expect(result.error).toContain("case 'case-1' has no expected value");
  });

  it('honours a custom name', () => {
    expect(equals(1, { name: 'exact-answer' }).name).toBe('exact-answer');
    expect(equals(1).name).toBe('equals');
  });
});

describe('contains', () => {
  it("defaults to the case's expected string, case-sensitive", async () => {
    expect(
      await run(contains(), ctxOf({ output: 'Sunny in Lagos', expected: 'Lagos' })),
    ).toMatchObject({
      pass: true,
      score: 1,
    });
    const miss = await run(contains(), ctxOf({ output: 'sunny in lagos', expected: 'Lagos' }));
    expect(miss).toMatchObject({ pass: false, score: 0 });
    expect(miss.reason).toBe('expected output to contain "Lagos"; not found in "sunny in lagos"');
  });

  it('ignores case when asked, for strings and patterns', async () => {
    const ctx = ctxOf({ output: 'SUNNY in LAGOS' });
    expect((await run(contains('lagos', { caseSensitive: false }), ctx)).pass).toBe(true);
    expect((await run(contains(/sunny\s+in/, { caseSensitive: false }), ctx)).pass).toBe(true);
    expect((await run(contains(/sunny\s+in/), ctx)).pass).toBe(false);
  });

  it('scores the share of needles found; all decides the pass', async () => {
    const ctx = ctxOf({ output: 'Lagos and Abuja' });
    const every = await run(contains(['Lagos', 'Kano', /Abu/, 'Jos']), ctx);
    expect(every).toMatchObject({ pass: false, score: 0.5 });
    expect(every.reason).toContain('"Kano", "Jos"');
    const any = await run(contains(['Lagos', 'Kano'], { all: false }), ctx);
    expect(any).toMatchObject({ pass: true, score: 0.5 });
  });

  it('uses a global regex statelessly', async () => {
    const e = contains(/Lagos/g);
    const ctx = ctxOf({ output: 'Lagos' });
    expect((await run(e, ctx)).pass).toBe(true);
    expect((await run(e, ctx)).pass).toBe(true);
  });

  it('searches the JSON text of a non-string output', async () => {
    expect((await run(contains('"city":"Lagos"'), ctxOf({ output: { city: 'Lagos' } }))).pass).toBe(
      true,
    );
  });

  it('rejects bad needles up front and errors without an expected string', async () => {
    expect(() => contains(42 as never)).toThrow(ConfigError);
    expect(() => contains([])).toThrow(/non-empty list/);
    const result = await run(contains(), ctxOf({ output: 'x', expected: 3 }));
    expect(result.error).toContain('has no string expected value');
  });
});

describe('matchesSchema', () => {
  const Forecast = z.object({ city: z.string(), days: z.array(z.object({ high: z.number() })) });

  it('validates with a Standard Schema (zod)', async () => {
    const good = await run(
      matchesSchema(Forecast),
      ctxOf({ output: { city: 'Lagos', days: [{ high: 30 }] } }),
    );
    expect(good).toMatchObject({ pass: true, score: 1 });
    const bad = await run(
      matchesSchema(Forecast),
      ctxOf({ output: { city: 3, days: [{ high: 'hot' }] } }),
    );
    expect(bad).toMatchObject({ pass: false, score: 0 });
    expect(bad.reason).toMatch(
      /^output does not match the schema: \$\.city: .+; \$\.days\[0\]\.high: /,
    );
  });

  it('lists at most three issues', async () => {
    const schema = z.object({
      a: z.string(),
      b: z.string(),
      c: z.string(),
      d: z.string(),
      e: z.string(),
    });
    const result = await run(matchesSchema(schema), ctxOf({ output: {} }));
    expect(result.reason?.split('; ')).toHaveLength(3);
    expect(result.reason).toContain('(+2 more)');
  });

  it('validates with a JSON Schema through ajv', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'integer' } },
      required: ['city', 'celsius'],
      additionalProperties: false,
    };
    expect(
      (await run(matchesSchema(schema), ctxOf({ output: { city: 'Lagos', celsius: 30 } }))).pass,
    ).toBe(true);
    const bad = await run(
      matchesSchema(schema),
      ctxOf({ output: { city: 'Lagos', celsius: 3.5, wind: 1 } }),
    );
    expect(bad.pass).toBe(false);
    expect(bad.reason).toContain('$.celsius: must be integer');
    expect(bad.reason).toContain('$: must NOT have additional properties (wind)');
  });

  it('supports draft 2020-12 schemas', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }],
    };
    expect((await run(matchesSchema(schema), ctxOf({ output: ['a', 1] }))).pass).toBe(true);
    const bad = await run(matchesSchema(schema), ctxOf({ output: [1] }));
    expect(bad.reason).toContain('$[0]: must be string');
  });

  it('rejects a schema that does not compile or is not a schema', () => {
    expect(() => matchesSchema({ type: 'no-such-type' })).toThrow(ConfigError);
    expect(() => matchesSchema('nope' as never)).toThrow(/pass a Standard Schema/);
  });

  it('throws a missing-peer ConfigError when ajv is not installed', () => {
    jest.isolateModules(() => {
      jest.doMock('ajv', () => {
        const error = new Error("Cannot find module 'ajv'") as Error & { code: string };
        error.code = 'MODULE_NOT_FOUND';
        throw error;
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const fresh = require('../../src/evals/evaluators/matches-schema') as {
        matchesSchema: typeof matchesSchema;
      };
      let caught: unknown;
      try {
        fresh.matchesSchema({ type: 'string' });
      } catch (error) {
        caught = error;
      }
      expect(ConfigError.is(caught)).toBe(true);
      expect((caught as ConfigError).reason).toBe('missing-peer');
      expect((caught as Error).message).toContain('npm install ajv');
      // A Standard Schema does not need ajv.
      expect(() => fresh.matchesSchema(z.string())).not.toThrow();
    });
    jest.dontMock('ajv');
  });
});

describe('isInstanceOf', () => {
  class Answer {
    text = 'hi';
  }
  class Other {}

  it('passes for instances and names what was found otherwise', async () => {
    expect((await run(isInstanceOf(Answer), ctxOf({ output: new Answer() }))).pass).toBe(true);
    const plain = await run(isInstanceOf(Answer), ctxOf({ output: { text: 'hi' } }));
    expect(plain).toMatchObject({
      pass: false,
      reason: 'expected an instance of Answer, found a plain object',
    });
    const other = await run(isInstanceOf(Answer), ctxOf({ output: new Other() }));
    expect(other.reason).toBe('expected an instance of Answer, found an instance of Other');
    const text = await run(isInstanceOf(Answer), ctxOf({ output: 'hi' }));
    expect(text.reason).toBe('expected an instance of Answer, found string');
  });

  it('rejects a non-class', () => {
    expect(() => isInstanceOf({} as never)).toThrow(ConfigError);
  });
});
