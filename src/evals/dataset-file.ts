import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { ConfigError, type StandardSchemaV1 } from '../core/index';
import { isArrayValue, isRecord } from '../core/kit/guards';
import { describeError, safeGet, showValue } from '../core/kit/safe-inspect';
import type { Dataset, EvalCase } from './case';
import { buildDataset } from './dataset';
import { evaluatorFromSpec, specOf, type EvaluatorFactory } from './dataset-specs';
import { parseDatasetText, stringifyDatasetText, type DatasetFormat } from './dataset-text';
import { EvalError } from './eval-error';
import type { Evaluator } from './evaluator';

export type { DatasetFormat } from './dataset-text';
export type { EvaluatorFactory } from './dataset-specs';

/**
 * Checks each case's input: a Standard Schema (zod, valibot, arktype; the validated value
 * replaces the input) or a function that throws (or rejects) when the input is wrong.
 */
export type InputValidator<Input = unknown> =
  StandardSchemaV1<unknown, Input> | ((input: unknown) => void | Promise<void>);

/** Options of {@link loadDataset} (and, with `format` and `file`, of {@link parseDataset}). */
export interface DatasetFileOptions<Input = unknown> {
  /** Overrides the format the file's extension gives (`.yaml`/`.yml` → YAML, `.json` → JSON). */
  readonly format?: DatasetFormat;
  /** Validates every case's input; a rejection names the case. */
  readonly validateInput?: InputValidator<Input>;
  /**
   * Evaluators the file may name beside the built-in ones, by spec key: `{ polite: (arg) =>
   * evaluator(...) }` lets a case say `{ polite: { min: 3 } }` (the factory gets `{ min: 3 }`).
   * A registered name takes precedence over a built-in one.
   */
  readonly evaluators?: Readonly<Record<string, EvaluatorFactory>>;
}

/** Options of {@link parseDataset}. */
export interface ParseDatasetOptions<Input = unknown> extends Omit<
  DatasetFileOptions<Input>,
  'format'
> {
  /** The text's format. */
  readonly format: DatasetFormat;
  /** The file the text came from, named in errors. */
  readonly file?: string;
}

const FILE_KEYS = ['$schema', 'name', 'description', 'cases', 'evaluators'] as const;
const CASE_KEYS = ['name', 'description', 'input', 'expected', 'metadata', 'evaluators'] as const;

/**
 * Reads a dataset from YAML or JSON text: `{ name, cases: [{ name, input, expected?, metadata?,
 * evaluators? }], evaluators? }` (`description` fields are for readers and not kept; `$schema` is
 * allowed for editors). Evaluators are specs: a built-in (`{ contains: "Lagos" }`, `{ equals: … }`,
 * `{ matchesSchema: {…} }`, `{ maxTurns: 3 }`, `{ maxRequests: 4 }`, `{ maxLatency: 2000 }`,
 * `{ maxTokens: 500 }` or `{ maxTokens: { max, kind } }`, `{ maxCost: 0.01 }`,
 * `{ calledTool: "get_weather" }` or `{ calledTool: { name, args } }`, `{ neverCalled: … }`,
 * `{ toolTrajectory: ["a", "b"] }` or `{ toolTrajectory: { tools, order, args } }`,
 * `{ hasEvent: "handoff" }` or `{ hasEvent: { kind, min, max } }`), a name registered in
 * `options.evaluators`, or a bare name (`- contains`: no argument, so the case's `expected` is
 * used). An optional `name` key beside the evaluator key renames it.
 *
 * Async because an input validator may be. Throws `EvalError` (kind `dataset`, with `file` and
 * `caseName`) on malformed text (the message gives the line), a wrong shape, an unknown evaluator
 * (the message lists the known ones), an input that does not validate, or what
 * `defineDataset` rejects.
 */
export async function parseDataset<Input = unknown, Expected = unknown>(
  text: string,
  options: ParseDatasetOptions<Input>,
): Promise<Dataset<Input, Expected>> {
  const format = checkFormat(options.format, options.file);
  const file = options.file;
  const data = parseDatasetText(text, format, file);
  const here = file === undefined ? '' : ` in ${file}`;
  const fail = (message: string, caseName?: string): never => {
    throw new EvalError('dataset', message, { file, caseName });
  };
  if (!isRecord(data)) {
    return fail(`the dataset${here} must be a mapping { name, cases, evaluators? }`);
  }
  checkKeys(data, FILE_KEYS, `the dataset${here}`, fail);
  const custom = options.evaluators ?? {};
  const name = data.name;
  if (typeof name !== 'string' || name.trim() === '') {
    return fail(`the dataset${here} needs a "name" (a non-empty string), got ${showValue(name)}`);
  }
  if (!isArrayValue(data.cases) || data.cases.length === 0) {
    return fail(`dataset "${name}"${here} needs "cases": a non-empty list of { name, input }`);
  }
  const evaluators = specList(data.evaluators, file, undefined, custom, fail);
  const cases: EvalCase<Input, Expected>[] = [];
  for (const [index, item] of data.cases.entries()) {
    cases.push(await readCase<Input, Expected>(item, index, name, options, custom, fail));
  }
  return buildDataset<Input, Expected>({ name, cases, evaluators }, file);
}

async function readCase<Input, Expected>(
  item: unknown,
  index: number,
  dataset: string,
  options: ParseDatasetOptions<Input>,
  custom: Readonly<Record<string, EvaluatorFactory>>,
  fail: (message: string, caseName?: string) => never,
): Promise<EvalCase<Input, Expected>> {
  const file = options.file;
  const here = file === undefined ? '' : ` in ${file}`;
  if (!isRecord(item)) {
    return fail(`case ${index} of dataset "${dataset}"${here} must be a mapping { name, input }`);
  }
  const caseName = item.name;
  if (typeof caseName !== 'string' || caseName.trim() === '') {
    return fail(
      `case ${index} of dataset "${dataset}"${here} needs a "name" (a non-empty string), got ${showValue(caseName)}`,
    );
  }
  const owner = `case "${caseName}"${here}`;
  checkKeys(item, CASE_KEYS, owner, (message) => fail(message, caseName));
  if (!Object.hasOwn(item, 'input')) {
    return fail(`${owner} has no "input": give it what the task receives`, caseName);
  }
  if (item.metadata !== undefined && !isRecord(item.metadata)) {
    return fail(`${owner}: "metadata" must be a mapping`, caseName);
  }
  const input = await validateInput(item.input, options.validateInput, owner, caseName, fail);
  const evaluators = specList(item.evaluators, file, caseName, custom, fail);
  const out: {
    name: string;
    input: Input;
    expected?: Expected;
    metadata?: Record<string, unknown>;
    evaluators?: readonly Evaluator<Input, unknown, Expected>[];
  } = { name: caseName, input };
  if (item.expected !== undefined) out.expected = item.expected as Expected;
  if (item.metadata !== undefined) out.metadata = item.metadata;
  if (evaluators.length > 0) out.evaluators = evaluators;
  return out;
}

async function validateInput<Input>(
  input: unknown,
  validator: InputValidator<Input> | undefined,
  owner: string,
  caseName: string,
  fail: (message: string, caseName?: string) => never,
): Promise<Input> {
  if (validator === undefined) return input as Input;
  const standard = standardOf<Input>(validator);
  if (standard !== undefined) {
    let result: StandardSchemaV1.Result<Input>;
    try {
      result = await standard.validate(input);
    } catch (error) {
      return fail(`${owner}: the input validator threw: ${describeError(error)}`, caseName);
    }
    if (result.issues === undefined) return result.value;
    const issues = result.issues.slice(0, 3).map(describeIssue).join('; ');
    const more = result.issues.length > 3 ? ` (and ${result.issues.length - 3} more)` : '';
    return fail(`${owner}: the input does not validate: ${issues}${more}`, caseName);
  }
  if (typeof validator !== 'function') {
    throw new ConfigError(
      `validateInput must be a Standard Schema (zod, valibot, arktype) or a function that throws, got ${showValue(validator)}`,
      { component: 'evals', option: 'validateInput' },
    );
  }
  try {
    await validator(input);
  } catch (error) {
    return fail(`${owner}: the input does not validate: ${describeError(error)}`, caseName);
  }
  return input as Input;
}

function standardOf<Input>(value: unknown): StandardSchemaV1.Props<unknown, Input> | undefined {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) {
    return undefined;
  }
  const props = safeGet(value, '~standard');
  if (!isRecord(props) || typeof props.validate !== 'function') return undefined;
  return props as unknown as StandardSchemaV1.Props<unknown, Input>;
}

function describeIssue(issue: StandardSchemaV1.Issue): string {
  const path = (issue.path ?? [])
    .map((segment) => (typeof segment === 'object' ? segment.key : segment))
    .map((key) => String(key))
    .join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

function specList<Input, Expected>(
  value: unknown,
  file: string | undefined,
  caseName: string | undefined,
  custom: Readonly<Record<string, EvaluatorFactory>>,
  fail: (message: string, caseName?: string) => never,
): Evaluator<Input, unknown, Expected>[] {
  if (value === undefined || value === null) return [];
  if (!isArrayValue(value)) {
    const owner = caseName === undefined ? 'the dataset' : `case "${caseName}"`;
    const here = file === undefined ? '' : ` in ${file}`;
    return fail(`${owner}${here}: "evaluators" must be a list of evaluator specs`, caseName);
  }
  return value.map(
    (spec, index) =>
      evaluatorFromSpec(spec, { file, caseName, index }, custom) as Evaluator<
        Input,
        unknown,
        Expected
      >,
  );
}

function checkKeys(
  value: Record<string, unknown>,
  allowed: readonly string[],
  owner: string,
  fail: (message: string) => never,
): void {
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  if (extra !== undefined) {
    fail(`${owner} has an unknown field "${extra}"; the fields are ${allowed.join(', ')}`);
  }
}

function checkFormat(format: unknown, file: string | undefined): DatasetFormat {
  if (format === 'yaml' || format === 'json') return format;
  throw new ConfigError(
    `unknown dataset format ${showValue(format)}${file === undefined ? '' : ` for ${file}`}: use 'yaml' or 'json'`,
    { component: 'evals', option: 'format' },
  );
}

function formatOf(path: string, given: DatasetFormat | undefined): DatasetFormat {
  if (given !== undefined) return checkFormat(given, path);
  const ext = extname(path).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.json') return 'json';
  throw new EvalError(
    'dataset',
    `cannot tell the format of ${path} from its extension: name it .yaml, .yml or .json, or pass { format }`,
    { file: path },
  );
}

/**
 * Reads a dataset file (format from the extension: `.yaml`/`.yml` or `.json`, or
 * `options.format`); see {@link parseDataset} for the shape, the evaluator specs and the errors.
 * YAML needs the optional peer `yaml` (a missing-peer `ConfigError` says how to install it).
 *
 * ```yaml
 * # yaml-language-server: $schema=../node_modules/golem/schemas/dataset.schema.json
 * name: weather
 * evaluators: [{ maxTurns: 3 }]
 * cases:
 *   - name: lagos
 *     input: What is the weather in Lagos?
 *     expected: Lagos
 *     evaluators: [contains, { calledTool: get_weather }]
 * ```
 */
export async function loadDataset<Input = unknown, Expected = unknown>(
  path: string,
  options: DatasetFileOptions<Input> = {},
): Promise<Dataset<Input, Expected>> {
  const format = formatOf(path, options.format);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new EvalError('dataset', `cannot read dataset file ${path}: ${describeError(cause)}`, {
      file: path,
      cause,
    });
  }
  return parseDataset<Input, Expected>(text, { ...options, format, file: path });
}

/**
 * Writes a dataset as YAML or JSON (by the extension, as {@link loadDataset} reads it), creating
 * the folder. Only JSON-safe fields are written: inputs, expected values and metadata as JSON
 * (`toJSON` applies, `undefined` and functions drop out), and only the evaluators that were read
 * from a file spec — evaluators made in code (functions, `evaluator(...)`, judges) are NOT saved,
 * so register them again when loading. Throws `EvalError` (kind `dataset`) for a value with no
 * JSON form (a cycle, a BigInt) or a write failure.
 */
export async function saveDataset<Input, Expected>(
  path: string,
  dataset: Dataset<Input, Expected>,
): Promise<void> {
  const format = formatOf(path, undefined);
  const fail = (message: string, caseName?: string, cause?: unknown): never => {
    throw new EvalError('dataset', message, { file: path, caseName, cause });
  };
  const toJson = (value: unknown, what: string, caseName?: string): unknown => {
    try {
      const text: unknown = JSON.stringify(value);
      return typeof text === 'string' ? (JSON.parse(text) as unknown) : undefined;
    } catch (cause) {
      return fail(
        `cannot save ${what}: it has no JSON form (${describeError(cause)})`,
        caseName,
        cause,
      );
    }
  };
  const out: Record<string, unknown> = { name: dataset.name };
  const evaluators = savedSpecs(dataset.evaluators);
  if (evaluators.length > 0) out.evaluators = evaluators;
  out.cases = dataset.cases.map((evalCase) => {
    const where = `case "${evalCase.name}"`;
    const saved: Record<string, unknown> = { name: evalCase.name };
    saved.input = toJson(evalCase.input, `the input of ${where}`, evalCase.name) ?? null;
    if (evalCase.expected !== undefined) {
      const expected = toJson(evalCase.expected, `the expected value of ${where}`, evalCase.name);
      if (expected !== undefined) saved.expected = expected;
    }
    if (evalCase.metadata !== undefined) {
      saved.metadata = toJson(evalCase.metadata, `the metadata of ${where}`, evalCase.name);
    }
    const specs = savedSpecs(evalCase.evaluators ?? []);
    if (specs.length > 0) saved.evaluators = specs;
    return saved;
  });
  const text = stringifyDatasetText(out, format);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, 'utf8');
  } catch (cause) {
    fail(`cannot write dataset file ${path}: ${describeError(cause)}`, undefined, cause);
  }
}

function savedSpecs<Input, Expected>(
  evaluators: readonly Evaluator<Input, unknown, Expected>[],
): unknown[] {
  return evaluators
    .map((evaluator) => specOf(evaluator as Evaluator))
    .filter((spec) => spec !== undefined);
}
