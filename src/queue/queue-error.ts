import { GolemError, brandGuard } from '../core/kit/error-base';

/**
 * Why a queue operation or a queued run failed:
 * - `invalid-input`: a bad enqueue argument (agent name, prompt, run id, options);
 * - `invalid-deps`: `deps` is not plain JSON (a class instance, a function, a cycle, a BigInt…);
 * - `too-large`: the prompt, the deps or the whole job exceeds its byte limit;
 * - `invalid-job`: a job payload that does not decode (written by something else, or damaged);
 * - `unsupported-version`: a job payload written by an older or newer golem/queue;
 * - `unknown-agent`: no agent of that name is registered with the worker;
 * - `invalid-decision`: approvals/results that do not resolve the paused run's calls exactly;
 * - `not-found`: no run (or job) has that id;
 * - `invalid-state`: the run cannot do that now (deciding a run that is not paused, recovering a
 *   completed one);
 * - `conflict`: a different decision was already submitted for this pause;
 * - `cancelled`: the run was cancelled (`queue.cancel`);
 * - `deadline-exceeded`: the run's deadline passed before or while it ran;
 * - `closed`: the queue or worker was used after `close()`;
 * - `invalid-options`: the queue or worker was configured wrongly.
 */
export type QueueErrorReason =
  | 'invalid-input'
  | 'invalid-deps'
  | 'too-large'
  | 'invalid-job'
  | 'unsupported-version'
  | 'unknown-agent'
  | 'invalid-decision'
  | 'not-found'
  | 'invalid-state'
  | 'conflict'
  | 'cancelled'
  | 'deadline-exceeded'
  | 'closed'
  | 'invalid-options';

/** What a {@link QueueError} is built from. */
export interface QueueErrorInit {
  reason: QueueErrorReason;
  /** The run concerned, when one is. */
  runId?: string;
  cause?: unknown;
}

/**
 * A queue operation failed, or a queued run was rejected or ended by the queue (not by its own
 * stages). `reason` says why, `runId` names the run; the message names the culprit and the fix.
 * A job failed for one of these reasons is failed visibly in BullMQ with this message as its
 * `failedReason`, and the run (when it has an id) is stored as `failed` at the stage `queue`.
 */
export class QueueError extends GolemError {
  readonly reason: QueueErrorReason;
  readonly runId: string | undefined;

  constructor(message: string, init: QueueErrorInit) {
    super('QueueError', message, init.cause === undefined ? undefined : { cause: init.cause });
    this.reason = init.reason;
    this.runId = init.runId;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<QueueError>('QueueError');

  /** Whether `value` is a `QueueError` with `reason`. */
  static isReason(value: unknown, reason: QueueErrorReason): value is QueueError {
    return QueueError.is(value) && value.reason === reason;
  }
}
