import { GolemError, brandGuard } from '../core/kit/error-base';

/**
 * Why an eval operation failed:
 * - `dataset`: a dataset (in code or in a YAML/JSON file) is malformed — a case without a name,
 *   two cases with one name, an input that does not validate, an unknown evaluator in a file;
 * - `cassette-missing`: replay mode found no recorded call for what the task asked (record first);
 * - `cassette-mismatch`: the task asked something other than what the cassette recorded (the
 *   agent's instructions, tools or input changed: record again);
 * - `cassette-corrupt`: a cassette file does not decode;
 * - `report`: a report or comparison file does not decode;
 * - `threshold`: an experiment's report is below its thresholds (`failures` lists each one).
 */
export type EvalErrorKind =
  | 'dataset'
  | 'cassette-missing'
  | 'cassette-mismatch'
  | 'cassette-corrupt'
  | 'report'
  | 'threshold';

/** What an {@link EvalError} is built from. */
export interface EvalErrorInit {
  /** The case concerned, when one is. */
  caseName?: string;
  /** The file concerned (dataset, cassette, report), when one is. */
  file?: string;
  /** For `threshold`: every threshold the report missed, one sentence each. */
  failures?: readonly string[];
  cause?: unknown;
}

/**
 * An eval operation failed. `kind` says why (see {@link EvalErrorKind}); `caseName` and `file`
 * name where; the message names the culprit and the fix. Its brand (and `name`) is
 * `'EvalError'`: {@link EvalError.is} works across copies of the package.
 */
export class EvalError extends GolemError {
  /** Why: see {@link EvalErrorKind}. */
  declare readonly kind: EvalErrorKind;
  readonly caseName: string | undefined;
  readonly file: string | undefined;
  /** For `threshold`: the thresholds missed (empty otherwise). */
  readonly failures: readonly string[];

  constructor(kind: EvalErrorKind, message: string, init: EvalErrorInit = {}) {
    super('EvalError', message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = kind;
    this.caseName = init.caseName;
    this.file = init.file;
    this.failures = Object.freeze([...(init.failures ?? [])]);
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<EvalError>('EvalError');

  /** Whether `value` is an `EvalError` of `kind`. */
  static isKind(value: unknown, kind: EvalErrorKind): value is EvalError {
    return EvalError.is(value) && value.kind === kind;
  }
}
