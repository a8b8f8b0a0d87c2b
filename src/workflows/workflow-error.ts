import { GolemError, brandGuard } from '../core/kit/error-base';

/**
 * Why a workflow operation or a workflow run failed:
 * - `invalid-input`: the input, resume data or event data does not validate (nothing recorded);
 * - `not-found`: no such run or step (or a run of another owner);
 * - `conflict`: another resume or signal took the suspension first (a version conflict);
 * - `leased`: another process holds the run's lease;
 * - `lease-lost`: this execution lost the run to another process (its work is dropped);
 * - `diverged`: a replayed run's steps differ from the code (it changed incompatibly);
 * - `step-limit`: the run called more steps than `maxSteps`;
 * - `step-failed`: a step (or the run function) failed; `cause` is its error;
 * - `not-json`: a step output or workflow input/output is not JSON-serialisable;
 * - `not-suspended`: the run does not wait for that decision or event;
 * - `cancelled`: the run was cancelled;
 * - `corrupt`: a stored run does not decode.
 */
export type WorkflowErrorKind =
  | 'invalid-input'
  | 'not-found'
  | 'conflict'
  | 'leased'
  | 'lease-lost'
  | 'diverged'
  | 'step-limit'
  | 'step-failed'
  | 'not-json'
  | 'not-suspended'
  | 'cancelled'
  | 'corrupt';

/** What a {@link WorkflowError} is built from. */
export interface WorkflowErrorInit {
  /** The run concerned, when one is. */
  runId?: string;
  /** The step key concerned, when one is. */
  step?: string;
  cause?: unknown;
}

/**
 * A workflow operation or run failed. `kind` says why (see {@link WorkflowErrorKind}), `runId`
 * and `step` name where; the message names the culprit and the fix. Its brand (and `name`) is
 * `'WorkflowError'`: {@link WorkflowError.is} works across copies of the package.
 */
export class WorkflowError extends GolemError {
  /** Why: see {@link WorkflowErrorKind}. */
  declare readonly kind: WorkflowErrorKind;
  readonly runId: string | undefined;
  readonly step: string | undefined;

  constructor(kind: WorkflowErrorKind, message: string, init: WorkflowErrorInit = {}) {
    super('WorkflowError', message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = kind;
    this.runId = init.runId;
    this.step = init.step;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<WorkflowError>('WorkflowError');

  /** Whether `value` is a `WorkflowError` of `kind`. */
  static isKind(value: unknown, kind: WorkflowErrorKind): value is WorkflowError {
    return WorkflowError.is(value) && value.kind === kind;
  }
}
