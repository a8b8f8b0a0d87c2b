import type { Queue } from 'bullmq';
import { isRecord } from '../core/kit/guards';
import type { JobRetention } from './bullmq-engine';
import { isRunId } from './job';
import { QueueError } from './queue-error';

/** The version of the workflow job payload this golem writes and reads. */
export const WORKFLOW_JOB_VERSION = 1;

/**
 * Why a workflow job was added: a start, a recorded decision or event, a timer, or a sweep that
 * found the run due (a timer whose job was lost, a dead worker's run).
 */
export type WorkflowJobKind = 'start' | 'resume' | 'signal' | 'timer' | 'sweep';

/**
 * A workflow job's payload: only the run id. The run itself (input, steps, decisions, events) is in
 * the workflow store; a job just tells a worker to execute the run if it is due.
 */
export interface WorkflowJob {
  readonly v: number;
  readonly kind: WorkflowJobKind;
  readonly runId: string;
}

const KINDS: readonly string[] = ['start', 'resume', 'signal', 'timer', 'sweep'];

/** The BullMQ-safe form of a run id inside a job id (`:` and `%` escaped). */
function idPart(runId: string): string {
  return runId.replace(/%/g, '%25').replace(/:/g, '%3A');
}

/**
 * The job id of one reason to execute a run: deduplicates the same start, the same delivery (the
 * run's version after it was recorded), the same timer (its due time) or the same sweep finding.
 */
export function workflowJobId(kind: WorkflowJobKind, runId: string, detail?: number): string {
  const base = `wf-${kind}.${idPart(runId)}`;
  return detail === undefined ? base : `${base}.${String(detail)}`;
}

/** Decodes a delivered payload (untrusted): `invalid-job` / `unsupported-version` otherwise. */
export function decodeWorkflowJob(data: unknown): WorkflowJob {
  if (!isRecord(data) || !isRunId(data.runId) || typeof data.kind !== 'string')
    throw new QueueError(
      'workflow job payload is invalid: expected { v, kind, runId } as written by workflowQueue',
      { reason: 'invalid-job' },
    );
  if (data.v !== WORKFLOW_JOB_VERSION)
    throw new QueueError(
      `workflow job payload version ${JSON.stringify(data.v)} is not ${String(WORKFLOW_JOB_VERSION)}; run the same golem version in producers and workers`,
      { reason: 'unsupported-version', runId: data.runId },
    );
  if (!KINDS.includes(data.kind))
    throw new QueueError(`workflow job kind ${JSON.stringify(data.kind)} is unknown`, {
      reason: 'invalid-job',
      runId: data.runId,
    });
  return { v: WORKFLOW_JOB_VERSION, kind: data.kind as WorkflowJobKind, runId: data.runId };
}

/** Retries of a job whose execution failed outside the run (the store unreachable). */
const ATTEMPTS = 5;
const BACKOFF_MS = 1_000;

/**
 * Adds a job telling workers to execute `runId` (not before `delayMs`); a job with the same id
 * that BullMQ still keeps makes this a no-op. Internal.
 */
export async function addWorkflowJob(
  queue: Queue,
  retention: JobRetention,
  kind: WorkflowJobKind,
  runId: string,
  options: { detail?: number; delayMs?: number } = {},
): Promise<string> {
  const id = workflowJobId(kind, runId, options.detail);
  const data: WorkflowJob = { v: WORKFLOW_JOB_VERSION, kind, runId };
  await queue.add('workflow', data, {
    jobId: id,
    delay: Math.max(0, Math.ceil(options.delayMs ?? 0)),
    attempts: ATTEMPTS,
    backoff: { type: 'exponential', delay: BACKOFF_MS },
    removeOnComplete: retention.completed ?? { age: 86_400, count: 10_000 },
    removeOnFail: retention.failed ?? { age: 604_800 },
  });
  return id;
}
