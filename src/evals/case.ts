import type { Evaluator } from './evaluator';

/**
 * One case of a dataset: an input for the task, optionally the output expected, metadata, and
 * evaluators that apply to this case only (in addition to the dataset's and the experiment's).
 */
export interface EvalCase<Input = unknown, Expected = unknown> {
  /** Unique within its dataset; names the case in reports, cassettes and comparisons. */
  readonly name: string;
  /** What the task receives (for an `Agent` task: a prompt, or `{ prompt, deps?, history? }`). */
  readonly input: Input;
  /** The output expected, for evaluators that compare (`equals`, `contains`, judges). */
  readonly expected?: Expected;
  /** Free-form facts about the case (difficulty, source, tags), kept in the report. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Evaluators for this case only. */
  readonly evaluators?: readonly Evaluator<Input, unknown, Expected>[];
}

/** A named list of cases, with evaluators applied to every case. */
export interface Dataset<Input = unknown, Expected = unknown> {
  readonly name: string;
  readonly cases: readonly EvalCase<Input, Expected>[];
  /** Evaluators applied to every case of the dataset. */
  readonly evaluators: readonly Evaluator<Input, unknown, Expected>[];
}

/** What `defineDataset` takes. */
export interface DatasetInit<Input = unknown, Expected = unknown> {
  readonly name: string;
  readonly cases: readonly EvalCase<Input, Expected>[];
  readonly evaluators?: readonly Evaluator<Input, unknown, Expected>[];
}
