import { isArrayValue, isRecord } from '../core/kit/guards';
import { showValue } from '../core/kit/safe-inspect';
import type { Dataset, DatasetInit, EvalCase } from './case';
import { EvalError } from './eval-error';
import type { Evaluator } from './evaluator';

/**
 * Declares a dataset in code: a name, its cases and the evaluators applied to every case. The
 * result is frozen (the dataset, its lists and each case; inputs and expected values are kept
 * as given, by reference).
 *
 * Throws `EvalError` (kind `dataset`) when the name is not a non-empty string, there are no
 * cases, a case is not an object, a case name is missing, empty, not a string or used twice, or
 * an evaluator is not an object with a `name` and an `evaluate` function. Case names may hold any
 * text (cassette files sanitise them).
 *
 * ```ts
 * const trips = defineDataset({
 *   name: 'trips',
 *   cases: [{ name: 'lagos', input: 'Weather in Lagos?', expected: 'Lagos' }],
 *   evaluators: [contains()],
 * });
 * ```
 */
export function defineDataset<Input = unknown, Expected = unknown>(
  init: DatasetInit<Input, Expected>,
): Dataset<Input, Expected> {
  return buildDataset(init, undefined);
}

/**
 * `defineDataset` for a dataset read from `file` (named in every error).
 * @internal
 */
export function buildDataset<Input, Expected>(
  init: DatasetInit<Input, Expected>,
  file: string | undefined,
): Dataset<Input, Expected> {
  const where = file === undefined ? '' : ` in ${file}`;
  if (!isRecord(init)) {
    throw new EvalError(
      'dataset',
      `defineDataset: expected { name, cases, evaluators? }, got ${showValue(init)}`,
      { file },
    );
  }
  const name: unknown = init.name;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new EvalError(
      'dataset',
      `the dataset${where} needs a name (a non-empty string), got ${showValue(name)}`,
      { file },
    );
  }
  const cases: unknown = init.cases;
  if (!isArrayValue(cases) || cases.length === 0) {
    throw new EvalError(
      'dataset',
      `dataset "${name}"${where} has no cases: give \`cases\` a non-empty list of { name, input }`,
      { file },
    );
  }
  const evaluators = checkEvaluators(init.evaluators, `dataset "${name}"${where}`, file, undefined);
  const seen = new Set<string>();
  const frozenCases = cases.map((item: unknown, index) => {
    const evalCase = checkCase<Input, Expected>(item, index, name, where, file);
    if (seen.has(evalCase.name)) {
      throw new EvalError(
        'dataset',
        `dataset "${name}"${where}: two cases are named "${evalCase.name}"; case names must be unique`,
        { file, caseName: evalCase.name },
      );
    }
    seen.add(evalCase.name);
    return evalCase;
  });
  return Object.freeze({
    name,
    cases: Object.freeze(frozenCases),
    evaluators,
  });
}

function checkCase<Input, Expected>(
  item: unknown,
  index: number,
  dataset: string,
  where: string,
  file: string | undefined,
): EvalCase<Input, Expected> {
  if (!isRecord(item)) {
    throw new EvalError(
      'dataset',
      `dataset "${dataset}"${where}: case ${index} is not an object { name, input }, got ${showValue(item)}`,
      { file },
    );
  }
  const name: unknown = item.name;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new EvalError(
      'dataset',
      `dataset "${dataset}"${where}: case ${index} needs a name (a non-empty string), got ${showValue(name)}`,
      { file },
    );
  }
  const metadata: unknown = item.metadata;
  if (metadata !== undefined && !isRecord(metadata)) {
    throw new EvalError(
      'dataset',
      `dataset "${dataset}"${where}: case "${name}" has metadata that is not an object`,
      { file, caseName: name },
    );
  }
  const evaluators: unknown = item.evaluators;
  const out: {
    name: string;
    input: Input;
    expected?: Expected;
    metadata?: Readonly<Record<string, unknown>>;
    evaluators?: readonly Evaluator<Input, unknown, Expected>[];
  } = { name, input: item.input as Input };
  if ('expected' in item && item.expected !== undefined) out.expected = item.expected as Expected;
  if (metadata !== undefined) out.metadata = Object.freeze({ ...metadata });
  if (evaluators !== undefined) {
    out.evaluators = checkEvaluators<Input, Expected>(
      evaluators,
      `case "${name}" of dataset "${dataset}"${where}`,
      file,
      name,
    );
  }
  return Object.freeze(out);
}

function checkEvaluators<Input, Expected>(
  value: unknown,
  owner: string,
  file: string | undefined,
  caseName: string | undefined,
): readonly Evaluator<Input, unknown, Expected>[] {
  if (value === undefined) return Object.freeze([]);
  if (!isArrayValue(value)) {
    throw new EvalError('dataset', `${owner}: \`evaluators\` must be a list of evaluators`, {
      file,
      caseName,
    });
  }
  value.forEach((evaluator, index) => {
    if (!isEvaluator(evaluator)) {
      throw new EvalError(
        'dataset',
        `${owner}: evaluator ${index} is not an evaluator ({ name: string, evaluate(ctx) }); ` +
          'build one with evaluator(name, fn) or a built-in such as equals()',
        { file, caseName },
      );
    }
  });
  return Object.freeze([...(value as readonly Evaluator<Input, unknown, Expected>[])]);
}

function isEvaluator(value: unknown): value is Evaluator {
  if (typeof value !== 'object' || value === null) return false;
  const { name, evaluate } = value as { name?: unknown; evaluate?: unknown };
  return typeof name === 'string' && name !== '' && typeof evaluate === 'function';
}
