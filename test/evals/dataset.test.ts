import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { ConfigError, type RunEvent } from 'golem';
import { z } from 'zod';
import type { Dataset, EvalCase } from '../../src/evals/case';
import { defineDataset } from '../../src/evals/dataset';
import { loadDataset, parseDataset, saveDataset } from '../../src/evals/dataset-file';
import { DATASET_JSON_SCHEMA } from '../../src/evals/dataset-schema';
import { EvalError } from '../../src/evals/eval-error';
import type { EvalContext, Evaluator } from '../../src/evals/evaluator';
import { evaluator } from '../../src/evals/evaluators/custom';

const REPO = path.resolve(__dirname, '../..');

/** A hand-made case run: every field an evaluator may read, with overrides. */
function context(overrides: Partial<EvalContext> = {}): EvalContext {
  const evalCase: EvalCase = { name: 'c', input: 'in', expected: overrides.expected };
  return {
    case: evalCase,
    input: 'in',
    expected: undefined,
    output: '',
    messages: [],
    events: [],
    toolCalls: [],
    turns: 1,
    requests: 1,
    usage: { inputTokens: 10, outputTokens: 10 },
    cost: 0.001,
    durationMs: 100,
    repeat: 0,
    signal: new AbortController().signal,
    ...overrides,
  };
}

interface Verdict {
  pass: boolean;
  score: number;
  error?: string;
}

/** What the runner makes of an evaluator's answer (boolean, number or object), kept minimal. */
async function runEvaluator(built: Evaluator, ctx: EvalContext): Promise<Verdict> {
  const threshold = built.threshold ?? 0.5;
  try {
    const raw = await built.evaluate(ctx);
    if (typeof raw === 'boolean') return { pass: raw, score: raw ? 1 : 0 };
    if (typeof raw === 'number') return { pass: raw >= threshold, score: raw };
    const score = raw.score ?? (raw.pass === true ? 1 : 0);
    return { pass: raw.pass ?? score >= threshold, score };
  } catch (error) {
    return { pass: false, score: 0, error: (error as Error).message };
  }
}

async function oneEvaluator(spec: unknown): Promise<Evaluator> {
  const dataset = await parseDataset(
    JSON.stringify({ name: 'd', cases: [{ name: 'c', input: 'in', evaluators: [spec] }] }),
    { format: 'json' },
  );
  const found = dataset.cases[0]?.evaluators?.[0];
  if (found === undefined) throw new Error('no evaluator built');
  return found;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('defineDataset', () => {
  it('returns a frozen dataset with frozen cases and an empty evaluator list by default', () => {
    const dataset = defineDataset({
      name: 'trips',
      cases: [{ name: 'lagos', input: 'Weather in Lagos?', expected: 'Lagos', metadata: { n: 1 } }],
    });
    expect(dataset.name).toBe('trips');
    expect(dataset.evaluators).toEqual([]);
    expect(Object.isFrozen(dataset)).toBe(true);
    expect(Object.isFrozen(dataset.cases)).toBe(true);
    expect(Object.isFrozen(dataset.cases[0])).toBe(true);
    expect(dataset.cases[0]).toEqual({
      name: 'lagos',
      input: 'Weather in Lagos?',
      expected: 'Lagos',
      metadata: { n: 1 },
    });
  });

  it('keeps names with any text', () => {
    const dataset = defineDataset({ name: 'd', cases: [{ name: 'a/b: ü?', input: 1 }] });
    expect(dataset.cases[0]?.name).toBe('a/b: ü?');
  });

  it.each([
    ['no cases', { name: 'd', cases: [] }, /has no cases/],
    ['an empty case name', { name: 'd', cases: [{ name: '', input: 1 }] }, /case 0 needs a name/],
    [
      'a non-string case name',
      { name: 'd', cases: [{ name: 7, input: 1 }] },
      /case 0 needs a name/,
    ],
    ['a missing dataset name', { cases: [{ name: 'a', input: 1 }] }, /needs a name/],
    ['a case that is not an object', { name: 'd', cases: ['a'] }, /case 0 is not an object/],
    [
      'an evaluator that is not one',
      { name: 'd', cases: [{ name: 'a', input: 1 }], evaluators: [{ name: 'x' }] },
      /evaluator 0 is not an evaluator/,
    ],
  ])('rejects %s with EvalError dataset', (_label, init, message) => {
    const error = thrown(() => defineDataset(init as never));
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as Error).message).toMatch(message);
  });

  it('rejects two cases with one name, naming the case', () => {
    const error = thrown(() =>
      defineDataset({
        name: 'd',
        cases: [
          { name: 'same', input: 1 },
          { name: 'same', input: 2 },
        ],
      }),
    );
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as EvalError).caseName).toBe('same');
    expect((error as Error).message).toContain('two cases are named "same"');
  });
});

describe('parseDataset', () => {
  const yamlText = [
    'name: weather',
    'evaluators:',
    '  - maxTurns: 3',
    'cases:',
    '  - name: lagos',
    '    description: for readers only',
    '    input: What is the weather in Lagos?',
    '    expected: Lagos',
    '    metadata: { difficulty: easy }',
    '    evaluators: [contains]',
    '  - name: structured',
    '    input: { prompt: hi, deps: { user: 1 } }',
    '',
  ].join('\n');

  it('reads YAML and JSON into the same dataset', async () => {
    const fromYaml = await parseDataset(yamlText, { format: 'yaml', file: 'weather.yaml' });
    const json = JSON.stringify({
      name: 'weather',
      evaluators: [{ maxTurns: 3 }],
      cases: [
        {
          name: 'lagos',
          input: 'What is the weather in Lagos?',
          expected: 'Lagos',
          metadata: { difficulty: 'easy' },
          evaluators: ['contains'],
        },
        { name: 'structured', input: { prompt: 'hi', deps: { user: 1 } } },
      ],
    });
    const fromJson = await parseDataset(json, { format: 'json' });
    for (const dataset of [fromYaml, fromJson]) {
      expect(dataset.name).toBe('weather');
      expect(dataset.evaluators.map((e) => e.name)).toEqual(['maxTurns']);
      expect(dataset.cases.map((c) => c.name)).toEqual(['lagos', 'structured']);
      expect(dataset.cases[0]).toMatchObject({
        input: 'What is the weather in Lagos?',
        expected: 'Lagos',
        metadata: { difficulty: 'easy' },
      });
      expect(dataset.cases[0]).not.toHaveProperty('description');
      expect(dataset.cases[0]?.evaluators?.map((e) => e.name)).toEqual(['contains']);
      expect(dataset.cases[1]?.input).toEqual({ prompt: 'hi', deps: { user: 1 } });
      expect(dataset.cases[1]?.evaluators).toBeUndefined();
      expect(Object.isFrozen(dataset.cases)).toBe(true);
    }
  });

  it('gives the line of a YAML syntax error', async () => {
    const bad = 'name: d\ncases:\n  - name: a\n    input: [1, 2\n  - name: b\n';
    const error = await caught(parseDataset(bad, { format: 'yaml', file: 'bad.yaml' }));
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as EvalError).file).toBe('bad.yaml');
    expect((error as Error).message).toMatch(
      /^bad\.yaml is not valid YAML at line \d+, column \d+/,
    );
    const line = Number(/at line (\d+)/.exec((error as Error).message)?.[1]);
    expect(line).toBeGreaterThanOrEqual(4);
    expect(line).toBeLessThanOrEqual(5);
  });

  it('rejects duplicate YAML keys with their line', async () => {
    const bad = 'name: d\ncases:\n  - name: a\n    input: 1\n    input: 2\n';
    const error = await caught(parseDataset(bad, { format: 'yaml' }));
    expect((error as Error).message).toMatch(/at line 5/);
  });

  it.each([
    ['{\n  "name": "d",\n  "cases": [,]\n}', 3, 13],
    ['{\n  "name": "d"\n  "cases": []\n}', 3, 3],
    ['{\n  "name": "d",\n}', 3, 1],
    ['{"a": "x\\q"}', 1, 10],
    ['{"a": 1} x', 1, 10],
    ['{"a": tru}', 1, 10],
  ])('gives the line and column of a JSON syntax error in %j', async (text, line, col) => {
    const error = await caught(parseDataset(text, { format: 'json' }));
    expect((error as Error).message).toContain(`at line ${line}, column ${col}`);
  });

  it('names the file of a JSON syntax error', async () => {
    const error = await caught(
      parseDataset('{\n  "name": "d",\n  "cases": [,]\n}', { format: 'json', file: 'd.json' }),
    );
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as Error).message).toMatch(/^d\.json is not valid JSON at line 3/);
  });

  it('rejects a case without input and an unknown field, naming the case and the file', async () => {
    const noInput = await caught(
      parseDataset('name: d\ncases:\n  - name: empty\n', { format: 'yaml', file: 'f.yaml' }),
    );
    expect((noInput as EvalError).caseName).toBe('empty');
    expect((noInput as EvalError).file).toBe('f.yaml');
    expect((noInput as Error).message).toContain('case "empty" in f.yaml has no "input"');
    const unknownField = await caught(
      parseDataset('name: d\ncases:\n  - { name: a, input: 1, expect: 2 }\n', { format: 'yaml' }),
    );
    expect((unknownField as Error).message).toContain('unknown field "expect"');
  });

  it('rejects a file with duplicate case names (through defineDataset)', async () => {
    const error = await caught(
      parseDataset('name: d\ncases:\n  - { name: a, input: 1 }\n  - { name: a, input: 2 }\n', {
        format: 'yaml',
        file: 'dup.yaml',
      }),
    );
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as EvalError).file).toBe('dup.yaml');
    expect((error as EvalError).caseName).toBe('a');
  });

  it('asks for the yaml peer when it is not installed', async () => {
    let parse: typeof parseDataset | undefined;
    jest.isolateModules(() => {
      jest.doMock('yaml', () => {
        const error = new Error("Cannot find module 'yaml' from 'dataset-text.ts'");
        Object.assign(error, { code: 'MODULE_NOT_FOUND' });
        throw error;
      });
      ({ parseDataset: parse } = jest.requireActual<typeof import('../../src/evals/dataset-file')>(
        '../../src/evals/dataset-file',
      ));
    });
    let error: unknown;
    try {
      error = await caught((parse as typeof parseDataset)('name: d', { format: 'yaml' }));
    } finally {
      jest.dontMock('yaml');
    }
    expect(ConfigError.is(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'missing-peer', packages: ['yaml'] });
    expect((error as Error).message).toContain('npm install yaml');
    // JSON needs no peer.
    await expect(
      (parse as typeof parseDataset)('{"name":"d","cases":[{"name":"a","input":1}]}', {
        format: 'json',
      }),
    ).resolves.toMatchObject({ name: 'd' });
  });

  it('rejects an unknown format with a ConfigError', async () => {
    const error = await caught(parseDataset('{}', { format: 'toml' as never }));
    expect(ConfigError.is(error)).toBe(true);
  });
});

describe('evaluator specs in files', () => {
  const weatherCall = { name: 'get_weather', id: '1', args: { city: 'Lagos', unit: 'C' } };
  const bookCall = { name: 'book_table', id: '2', args: { seats: 2 } };
  const handoff = { kind: 'handoff', from: 'a', to: 'b' } as unknown as RunEvent;

  it.each<[string, unknown, string, Partial<EvalContext>, Partial<EvalContext>]>([
    ['contains', { contains: 'Lagos' }, 'contains', { output: 'in Lagos' }, { output: 'Paris' }],
    [
      'contains (bare, uses expected)',
      'contains',
      'contains',
      { output: 'in Lagos', expected: 'Lagos' },
      { output: 'Paris', expected: 'Lagos' },
    ],
    [
      'contains (options)',
      { contains: { needle: ['lagos', 'rain'], caseSensitive: false, all: true } },
      'contains',
      { output: 'LAGOS: RAIN' },
      { output: 'LAGOS: sun' },
    ],
    [
      'equals',
      { equals: { a: [1, 2] } },
      'equals',
      { output: { a: [1, 2] } },
      { output: { a: [1] } },
    ],
    ['equals (bare)', 'equals', 'equals', { output: 3, expected: 3 }, { output: 4, expected: 3 }],
    [
      'matchesSchema',
      { matchesSchema: { type: 'object', required: ['city'] } },
      'matchesSchema',
      { output: { city: 'Lagos' } },
      { output: { town: 'Lagos' } },
    ],
    ['maxTurns', { maxTurns: 3 }, 'maxTurns', { turns: 3 }, { turns: 4 }],
    ['maxRequests', { maxRequests: 2 }, 'maxRequests', { requests: 2 }, { requests: 3 }],
    ['maxLatency', { maxLatency: 2000 }, 'maxLatency', { durationMs: 1999 }, { durationMs: 2001 }],
    [
      'maxTokens',
      { maxTokens: 500 },
      'maxTokens',
      { usage: { inputTokens: 200, outputTokens: 300 } },
      { usage: { inputTokens: 201, outputTokens: 300 } },
    ],
    [
      'maxTokens (kind)',
      { maxTokens: { max: 100, kind: 'output' } },
      'maxTokens',
      { usage: { inputTokens: 900, outputTokens: 100 } },
      { usage: { inputTokens: 1, outputTokens: 101 } },
    ],
    ['maxCost', { maxCost: 0.01 }, 'maxCost', { cost: 0.01 }, { cost: 0.02 }],
    [
      'calledTool',
      { calledTool: 'get_weather' },
      'calledTool',
      { toolCalls: [weatherCall] },
      { toolCalls: [bookCall] },
    ],
    [
      'calledTool (args)',
      { calledTool: { name: 'get_weather', args: { city: 'Lagos' } } },
      'calledTool',
      { toolCalls: [weatherCall] },
      { toolCalls: [{ ...weatherCall, args: { city: 'Paris' } }] },
    ],
    [
      'neverCalled',
      { neverCalled: 'book_table' },
      'neverCalled',
      { toolCalls: [weatherCall] },
      { toolCalls: [weatherCall, bookCall] },
    ],
    [
      'neverCalled (list)',
      { neverCalled: ['book_table', 'cancel'] },
      'neverCalled',
      { toolCalls: [weatherCall] },
      { toolCalls: [bookCall] },
    ],
    [
      'toolTrajectory',
      { toolTrajectory: ['get_weather', 'book_table'] },
      'toolTrajectory',
      { toolCalls: [weatherCall, bookCall] },
      { toolCalls: [bookCall, weatherCall] },
    ],
    [
      'toolTrajectory (options)',
      { toolTrajectory: { tools: ['book_table', 'get_weather'], order: 'any' } },
      'toolTrajectory',
      { toolCalls: [weatherCall, bookCall] },
      { toolCalls: [weatherCall] },
    ],
    ['hasEvent', { hasEvent: 'handoff' }, 'hasEvent', { events: [handoff] }, { events: [] }],
    [
      'hasEvent (bounds)',
      { hasEvent: { kind: 'handoff', max: 1 } },
      'hasEvent',
      { events: [handoff] },
      { events: [handoff, handoff] },
    ],
  ])('%s builds the built-in and it scores a run', async (_label, spec, name, good, bad) => {
    const built = await oneEvaluator(spec);
    expect(built.name).toMatch(new RegExp(`^${name}`));
    const pass = await runEvaluator(built, context(good));
    expect(pass).toMatchObject({ pass: true, score: 1 });
    expect(pass.error).toBeUndefined();
    const fail = await runEvaluator(built, context(bad));
    expect(fail.pass).toBe(false);
    expect(fail.score).toBeLessThan(1);
  });

  it('renames an evaluator with a name beside its key', async () => {
    const built = await oneEvaluator({ maxTurns: 2, name: 'short' });
    expect(built.name).toBe('short');
    expect((await runEvaluator(built, context({ turns: 3 }))).pass).toBe(false);
  });

  it('builds a custom spec through options.evaluators with the spec value', async () => {
    const seen: unknown[] = [];
    const polite = (arg: unknown): Evaluator => {
      seen.push(arg);
      const min = (arg as { min: number }).min;
      return evaluator('polite', ({ output }) => String(output).split('please').length - 1 >= min);
    };
    const dataset = await parseDataset(
      'name: d\ncases:\n  - name: a\n    input: hi\n    evaluators:\n      - polite: { min: 2 }\n',
      { format: 'yaml', evaluators: { polite } },
    );
    expect(seen).toEqual([{ min: 2 }]);
    const built = dataset.cases[0]?.evaluators?.[0];
    expect(built?.name).toBe('polite');
    expect(
      (await runEvaluator(built as Evaluator, context({ output: 'please, please' }))).pass,
    ).toBe(true);
    expect((await runEvaluator(built as Evaluator, context({ output: 'please' }))).pass).toBe(
      false,
    );
  });

  it('names the case, the file and the known evaluators for an unknown spec', async () => {
    const error = await caught(
      parseDataset(
        'name: d\ncases:\n  - name: lagos\n    input: hi\n    evaluators: [{ polyte: 3 }]\n',
        {
          format: 'yaml',
          file: 'weather.yaml',
          evaluators: { polite: () => evaluator('polite', () => true) },
        },
      ),
    );
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as EvalError).caseName).toBe('lagos');
    expect((error as EvalError).file).toBe('weather.yaml');
    const message = (error as Error).message;
    expect(message).toContain('case "lagos" in weather.yaml');
    expect(message).toContain('unknown evaluator "polyte"');
    for (const known of ['contains', 'equals', 'maxTurns', 'calledTool', 'hasEvent', 'polite']) {
      expect(message).toContain(known);
    }
  });

  it('reports a value a built-in rejects with the case and the file', async () => {
    const error = await caught(
      parseDataset(
        'name: d\ncases:\n  - { name: a, input: 1, evaluators: [{ maxTurns: many }] }\n',
        {
          format: 'yaml',
          file: 'f.yaml',
        },
      ),
    );
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as EvalError).caseName).toBe('a');
    expect((error as Error).message).toMatch(
      /case "a" in f\.yaml, evaluator 0: evaluator "maxTurns"/,
    );
  });

  it('wraps the ConfigError of a built-in factory, keeping it as the cause', async () => {
    const error = await caught(oneEvaluator({ contains: { needle: [] } }));
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as Error).message).toContain('evaluator "contains" rejected');
    expect(ConfigError.is((error as Error).cause)).toBe(true);
  });

  it('rejects a spec with two evaluator keys', async () => {
    const error = await caught(oneEvaluator({ maxTurns: 1, maxCost: 1 }));
    expect((error as Error).message).toContain('exactly one evaluator key');
  });
});

describe('validateInput', () => {
  const text =
    'name: d\ncases:\n  - { name: ok, input: { city: Lagos } }\n  - { name: broken, input: { town: 3 } }\n';

  it('rejects a case whose input a zod schema refuses, naming the case', async () => {
    const schema = z.object({ city: z.string() });
    const error = await caught(
      parseDataset(text, { format: 'yaml', file: 'in.yaml', validateInput: schema }),
    );
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as EvalError).caseName).toBe('broken');
    expect((error as Error).message).toMatch(
      /case "broken" in in\.yaml: the input does not validate: city/,
    );
  });

  it('keeps the validated value of an async schema as the input', async () => {
    const schema = z
      .object({ city: z.string() })
      .transform(async (value) => Promise.resolve({ ...value, checked: true }));
    const dataset = await parseDataset(
      'name: d\ncases:\n  - { name: ok, input: { city: Lagos } }\n',
      {
        format: 'yaml',
        validateInput: schema,
      },
    );
    expect(dataset.cases[0]?.input).toEqual({ city: 'Lagos', checked: true });
  });

  it('accepts a function that throws', async () => {
    const error = await caught(
      parseDataset(text, {
        format: 'yaml',
        validateInput: (input) => {
          if (typeof (input as { city?: unknown }).city !== 'string') throw new Error('no city');
        },
      }),
    );
    expect((error as EvalError).caseName).toBe('broken');
    expect((error as Error).message).toContain('no city');
  });
});

describe('loadDataset and saveDataset', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-dataset-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(['yaml', 'json'])('round-trips a file dataset through %s', async (ext) => {
    const source = await parseDataset(
      JSON.stringify({
        name: 'weather',
        evaluators: [{ maxTurns: 3 }, { contains: 'Lagos', name: 'mentions' }],
        cases: [
          {
            name: 'lagos',
            input: { prompt: 'Weather?', deps: { city: 'Lagos' } },
            expected: 'Lagos',
            metadata: { tags: ['easy'] },
            evaluators: [
              'equals',
              { calledTool: { name: 'get_weather', args: { city: 'Lagos' } } },
            ],
          },
          { name: 'plain', input: 'hello' },
        ],
      }),
      { format: 'json' },
    );
    const file = path.join(dir, 'nested', `weather.${ext}`);
    await saveDataset(file, source);
    const loaded = await loadDataset(file);
    expect(loaded.name).toBe('weather');
    expect(
      loaded.cases.map(({ name, input, expected, metadata }) => ({
        name,
        input,
        expected,
        metadata,
      })),
    ).toEqual(
      source.cases.map(({ name, input, expected, metadata }) => ({
        name,
        input,
        expected,
        metadata,
      })),
    );
    expect(loaded.evaluators.map((e) => e.name)).toEqual(['maxTurns', 'mentions']);
    const caseEvaluators = loaded.cases[0]?.evaluators?.map((e) => e.name) ?? [];
    expect(caseEvaluators).toHaveLength(2);
    expect(caseEvaluators[0]).toBe('equals');
    expect(caseEvaluators[1]).toMatch(/^calledTool/);
    const fromYaml = fs.readFileSync(file, 'utf8');
    expect(fromYaml).toContain('get_weather');
  });

  it('does not save evaluators made in code, and loads .yml', async () => {
    const dataset: Dataset = defineDataset({
      name: 'code',
      cases: [{ name: 'a', input: 1, evaluators: [evaluator('fn', () => true)] }],
      evaluators: [evaluator('fn2', () => true)],
    });
    const file = path.join(dir, 'code.yml');
    await saveDataset(file, dataset);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('fn');
    const loaded = await loadDataset(file);
    expect(loaded.cases[0]).toEqual({ name: 'a', input: 1 });
    expect(loaded.evaluators).toEqual([]);
  });

  it('rejects an unknown extension and a missing file with the file named', async () => {
    const ext = await caught(loadDataset(path.join(dir, 'data.txt')));
    expect((ext as Error).message).toContain('name it .yaml, .yml or .json');
    const missing = await caught(loadDataset(path.join(dir, 'none.yaml')));
    expect(EvalError.isKind(missing, 'dataset')).toBe(true);
    expect((missing as EvalError).file).toBe(path.join(dir, 'none.yaml'));
  });

  it('refuses to save a value with no JSON form, naming the case', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const error = await caught(
      saveDataset(
        path.join(dir, 'x.json'),
        defineDataset({ name: 'd', cases: [{ name: 'loop', input: cyclic }] }),
      ),
    );
    expect((error as EvalError).caseName).toBe('loop');
  });
});

describe('DATASET_JSON_SCHEMA', () => {
  const validate = (() => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    return ajv.compile(DATASET_JSON_SCHEMA);
  })();

  it('equals schemas/dataset.schema.json', () => {
    const file = JSON.parse(
      fs.readFileSync(path.join(REPO, 'schemas', 'dataset.schema.json'), 'utf8'),
    ) as unknown;
    expect(file).toEqual(DATASET_JSON_SCHEMA);
  });

  it('accepts a sample file with every built-in spec', () => {
    const sample = {
      $schema: './dataset.schema.json',
      name: 'weather',
      description: 'sample',
      evaluators: [{ maxTurns: 3 }, { maxCost: 0.01, name: 'cheap' }, 'contains'],
      cases: [
        {
          name: 'lagos',
          input: 'Weather in Lagos?',
          expected: 'Lagos',
          metadata: { difficulty: 'easy' },
          evaluators: [
            { contains: 'Lagos' },
            { contains: { needle: ['a', 'b'], caseSensitive: false } },
            { equals: null },
            { matchesSchema: { type: 'string' } },
            { maxRequests: 2 },
            { maxLatency: 2000 },
            { maxTokens: 500 },
            { maxTokens: { max: 100, kind: 'output' } },
            { calledTool: 'get_weather' },
            { calledTool: { name: 'get_weather', args: { city: 'Lagos' } } },
            { neverCalled: 'book_table' },
            { neverCalled: ['a', 'b'] },
            { toolTrajectory: ['a', { name: 'b', args: {} }] },
            { toolTrajectory: { tools: ['a'], order: 'exact', args: 'subset' } },
            { hasEvent: 'handoff' },
            { hasEvent: { kind: 'handoff', min: 1, max: 2 } },
            { polite: { min: 3 } },
          ],
        },
      ],
    };
    expect(validate(sample)).toBe(true);
  });

  it.each([
    ['a case without name', { name: 'd', cases: [{ input: 1 }] }],
    ['a case without input', { name: 'd', cases: [{ name: 'a' }] }],
    ['no cases', { name: 'd', cases: [] }],
    ['an unknown top-level field', { name: 'd', cases: [{ name: 'a', input: 1 }], extra: 1 }],
    [
      'a bad built-in value',
      { name: 'd', cases: [{ name: 'a', input: 1, evaluators: [{ maxTurns: 'x' }] }] },
    ],
    [
      'a spec with only a name',
      { name: 'd', cases: [{ name: 'a', input: 1, evaluators: [{ name: 'x' }] }] },
    ],
    [
      'a spec with two keys',
      { name: 'd', cases: [{ name: 'a', input: 1, evaluators: [{ maxTurns: 1, maxCost: 1 }] }] },
    ],
  ])('rejects %s', (_label, value) => {
    expect(validate(value)).toBe(false);
  });

  it('agrees with the parser on what a spec may be (the parser accepts what the schema accepts)', async () => {
    await expect(
      parseDataset(
        JSON.stringify({
          name: 'd',
          cases: [
            {
              name: 'a',
              input: 1,
              evaluators: [{ contains: null }, { hasEvent: { kind: 'handoff', min: 1 } }],
            },
          ],
        }),
        { format: 'json' },
      ),
    ).resolves.toBeDefined();
  });
});
