import {
  Agent,
  ConfigError,
  ModelRetry,
  RunError,
  decodeJSON,
  type JsonSchema,
  type Model,
} from '../core/index';
import { isArrayValue, isRecord } from '../core/kit/guards';
import { describeError, safeGet, showValue } from '../core/kit/safe-inspect';
import type { EvalCase } from './case';
import { EvalError } from './eval-error';

/** Options of {@link generateCases}. */
export interface GenerateCasesOptions<Input = unknown, Expected = unknown> {
  /** The model that writes the cases (it must support native structured output). */
  readonly model: Model;
  /** What the cases should exercise: the task, its users, the edge cases wanted. */
  readonly description: string;
  /** How many cases to return (a positive integer); extra ones are dropped. */
  readonly count: number;
  /** JSON Schema of a case's input; default a string (an agent's prompt). */
  readonly inputSchema?: JsonSchema;
  /** JSON Schema of a case's expected output; default a string. */
  readonly expectedSchema?: JsonSchema;
  /** Cases to imitate (shown to the model as JSON; not returned). */
  readonly examples?: readonly EvalCase<Input, Expected>[];
  /** Cancels the generation. */
  readonly signal?: AbortSignal;
}

interface RawCase {
  readonly name: string;
  readonly input: unknown;
  readonly expected?: unknown;
}

const STRING_SCHEMA: JsonSchema = { type: 'string' };

const INSTRUCTIONS =
  'You write test cases for evaluating an AI system. Each case has a short, unique, ' +
  'kebab-case `name` saying what it checks, an `input` for the system and, when it can be ' +
  'stated, the `expected` output. Cover typical requests, edge cases and tricky inputs; do ' +
  'not repeat a case. Answer with the JSON object only.';

/**
 * Asks `model` (through a golem `Agent` with native structured output) for `count` cases
 * `{ name, input, expected? }` matching `description` (and `inputSchema`/`expectedSchema`,
 * which go into the output schema and the prompt). An answer of the wrong shape is sent back to
 * the model for correction, twice at most. Duplicate names get `-2`, `-3`… suffixes; extra
 * cases are dropped.
 *
 * A starting point to review and check in (`saveDataset`), not a substitute for cases written
 * by hand: inputs are not validated against `inputSchema` beyond what the model's structured
 * output guarantees.
 *
 * Throws `EvalError` (kind `dataset`) when the model returns fewer than `count` cases or no
 * valid answer within its corrections, and `ConfigError` (component `evals`) for wrong options.
 * Model and cancellation failures propagate as the run's error (`RunError`).
 */
export async function generateCases<Input = unknown, Expected = unknown>(
  options: GenerateCasesOptions<Input, Expected>,
): Promise<EvalCase<Input, Expected>[]> {
  const { model, description, count } = checkOptions(options);
  const inputSchema = options.inputSchema ?? STRING_SCHEMA;
  const expectedSchema = options.expectedSchema ?? STRING_SCHEMA;
  const outputSchema: JsonSchema = {
    type: 'object',
    required: ['cases'],
    additionalProperties: false,
    properties: {
      cases: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'input'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1 },
            input: inputSchema,
            expected: expectedSchema,
          },
        },
      },
    },
  };
  const agent = new Agent<unknown, RawCase[]>({
    model,
    instructions: INSTRUCTIONS,
    outputSchema,
    output: decodeJSON((value) => checkShape(value, count)),
    outputRetries: 2,
    name: 'generate-cases',
  });
  const prompt = buildPrompt(description, count, inputSchema, expectedSchema, options.examples);
  let raw: RawCase[];
  try {
    const result = await agent.run(
      prompt,
      options.signal === undefined ? {} : { signal: options.signal },
    );
    raw = result.output;
  } catch (error) {
    if (RunError.is(error) && error.stage === 'decode') {
      throw new EvalError(
        'dataset',
        `generateCases: the model gave no valid cases (2 corrections allowed): ${describeError(error)}`,
        { cause: error },
      );
    }
    throw error;
  }
  if (raw.length < count) {
    throw new EvalError(
      'dataset',
      `generateCases: asked for ${count} cases, the model returned ${raw.length}; ask again or lower count`,
    );
  }
  return dedupe(raw.slice(0, count)) as EvalCase<Input, Expected>[];
}

function checkOptions<Input, Expected>(
  options: GenerateCasesOptions<Input, Expected>,
): { model: Model; description: string; count: number } {
  const bad = (message: string): never => {
    throw new ConfigError(`generateCases: ${message}`, { component: 'evals' });
  };
  if (!isRecord(options)) return bad('pass { model, description, count }');
  const { model, description, count } = options;
  if (typeof safeGet(model, 'generate') !== 'function') {
    return bad('`model` must be a golem Model (an object with generate())');
  }
  if (typeof description !== 'string' || description.trim() === '') {
    return bad('`description` must say what the cases should exercise (a non-empty string)');
  }
  if (!Number.isSafeInteger(count) || count < 1) {
    return bad(`\`count\` must be a positive integer, got ${showValue(count)}`);
  }
  for (const key of ['inputSchema', 'expectedSchema'] as const) {
    const schema: unknown = options[key];
    if (schema !== undefined && !isRecord(schema)) {
      return bad(`\`${key}\` must be a JSON Schema object, got ${showValue(schema)}`);
    }
  }
  if (options.examples !== undefined && !isArrayValue(options.examples)) {
    return bad('`examples` must be a list of cases { name, input, expected? }');
  }
  return { model, description, count };
}

function buildPrompt<Input, Expected>(
  description: string,
  count: number,
  inputSchema: JsonSchema,
  expectedSchema: JsonSchema,
  examples: readonly EvalCase<Input, Expected>[] | undefined,
): string {
  const lines = [
    `Write exactly ${count} test case${count === 1 ? '' : 's'} as {"cases": [{"name", "input", "expected"?}]}.`,
    '',
    'What to test:',
    description,
    '',
    `Each input matches this JSON Schema: ${JSON.stringify(inputSchema)}`,
    `Each expected output matches this JSON Schema: ${JSON.stringify(expectedSchema)}`,
  ];
  if (examples !== undefined && examples.length > 0) {
    const shown = examples.map((example) => {
      const item: Record<string, unknown> = { name: example.name, input: example.input };
      if (example.expected !== undefined) item.expected = example.expected;
      return item;
    });
    lines.push('', 'Examples of good cases (write new ones, do not copy these):', showValue(shown));
  }
  return lines.join('\n');
}

/** Validates the decoded answer; a wrong shape is a `ModelRetry` the model corrects. */
function checkShape(value: unknown, count: number): RawCase[] {
  if (!isRecord(value) || !isArrayValue(value.cases)) {
    throw new ModelRetry('answer with a JSON object {"cases": [...]} holding the list of cases');
  }
  const problems: string[] = [];
  const cases: RawCase[] = [];
  value.cases.forEach((item: unknown, index) => {
    if (!isRecord(item)) {
      problems.push(`cases[${index}] is not an object`);
      return;
    }
    const { name, input, expected } = item;
    if (typeof name !== 'string' || name.trim() === '') {
      problems.push(`cases[${index}].name must be a non-empty string`);
      return;
    }
    if (!Object.hasOwn(item, 'input') || input === undefined) {
      problems.push(`cases[${index}] ("${name}") has no input`);
      return;
    }
    cases.push(
      expected === undefined || expected === null
        ? { name: name.trim(), input }
        : { name: name.trim(), input, expected },
    );
  });
  if (problems.length > 0) {
    throw new ModelRetry(
      `fix these cases: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; …' : ''}`,
    );
  }
  if (cases.length === 0) {
    throw new ModelRetry(`the list of cases is empty; write ${count} cases`);
  }
  return cases;
}

/** Renames repeated names `name-2`, `name-3`…, never onto a name already taken. */
function dedupe(cases: readonly RawCase[]): EvalCase[] {
  const used = new Set<string>();
  const taken = new Set(cases.map((c) => c.name));
  return cases.map((c) => {
    let name = c.name;
    if (used.has(name)) {
      let n = 2;
      while (used.has(`${c.name}-${n}`) || taken.has(`${c.name}-${n}`)) n += 1;
      name = `${c.name}-${n}`;
    }
    used.add(name);
    const out: { name: string; input: unknown; expected?: unknown } = { name, input: c.input };
    if (c.expected !== undefined) out.expected = c.expected;
    return out;
  });
}
