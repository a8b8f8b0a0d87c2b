import type { JsonValue } from '../core/index';
import { toJsonValue } from './json-value';
import type { RunAccess } from './run-access';
import type { WorkflowRunResult } from './run-info';
import type { StepRecord } from './step-record';
import type { StoredWorkflowRun } from './store-port';
import { WorkflowError } from './workflow-error';

/**
 * Gives `target` (a step suspended for a decision, or waiting for an event) its `data`: the run is
 * claimed in one conditional write (losing it: `conflict`), then executed with the data pending
 * for that step, which validates and records it when it runs. Internal.
 */
export async function deliver<O>(
  access: RunAccess,
  row: StoredWorkflowRun,
  target: StepRecord | undefined,
  data: JsonValue,
  kind: 'decision' | 'event',
  event?: string,
): Promise<WorkflowRunResult<O>> {
  const what = kind === 'event' ? `event ${JSON.stringify(event)}` : 'a decision';
  const waits =
    target?.status === 'suspended' &&
    (kind === 'event' ? target.kind === 'event' : target.kind === 'step');
  if (row.status !== 'suspended' || target === undefined || !waits) {
    const taken =
      target !== undefined &&
      (target.resumeData !== undefined || target.status === 'completed') &&
      target.waiting?.kind === kind;
    throw new WorkflowError(
      taken ? 'conflict' : 'not-suspended',
      taken
        ? `workflow run ${JSON.stringify(row.id)}'s step ${target.key} was already given its ${what}`
        : `workflow run ${JSON.stringify(row.id)} is not suspended waiting for ${what}`,
      { runId: row.id, ...(target !== undefined && { step: target.key }) },
    );
  }
  const claimed = await access.claim(row, {
    status: 'running',
    waiting: null,
    wakeAt: null,
  });
  if (claimed === undefined)
    throw new WorkflowError(
      'conflict',
      `workflow run ${JSON.stringify(row.id)}'s step ${target.key} was given its ${what} by another caller first`,
      {
        runId: row.id,
        step: target.key,
      },
    );
  return access.execute<O>(claimed, row, {
    resumed: true,
    pending: { key: target.key, data },
  });
}

/** `data` given to a run as JSON (`undefined`: `null`); anything else is `invalid-input`. Internal. */
export function inputJson(data: unknown, what: string, runId: string): JsonValue {
  try {
    return toJsonValue(data === undefined ? null : data, what, { runId });
  } catch (error) {
    throw new WorkflowError('invalid-input', (error as Error).message, { runId, cause: error });
  }
}
