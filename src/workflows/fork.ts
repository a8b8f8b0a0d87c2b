import type { JsonValue } from '../core/index';
import { toJsonValue } from './json-value';
import { encodeSteps } from './row-codec';
import type { WorkflowRunInfo } from './run-info';
import type { StoredWorkflowRun } from './store-port';
import { WorkflowError } from './workflow-error';

/** Options of {@link WorkflowRunner.fork}. */
export interface ForkOptions {
  /** The step key to re-run from: a completed step of the original, or the step it failed at. */
  from: string;
  /** The new run's input (default the original's), validated by the workflow's schema. */
  input?: unknown;
  /** Checkpointed outputs of prefix steps to replace, by step key (e.g. another decision). */
  outputs?: Readonly<Record<string, JsonValue>>;
  /** The new run's id (default a new one). */
  runId?: string;
}

/**
 * The row of a fork of `original`: its completed steps that started before `from` (with
 * `outputs` replacing theirs), its input unless `input` (JSON text) replaces it. Internal.
 */
export function forkRow(
  original: WorkflowRunInfo,
  options: ForkOptions,
  init: { id: string; now: number; input?: string },
): StoredWorkflowRun {
  const from = original.steps.find(
    (s) => s.key === options.from && (s.status === 'completed' || s.status === 'failed'),
  );
  if (from === undefined)
    throw new WorkflowError(
      'not-found',
      `workflow run ${JSON.stringify(original.id)} has no completed or failed step ${JSON.stringify(options.from)} to fork from`,
      { runId: original.id, step: options.from },
    );
  const prefix = original.steps
    .filter((s) => s.status === 'completed' && s.seq < from.seq)
    .map((s) => ({ ...s }));
  for (const [key, value] of Object.entries(options.outputs ?? {})) {
    const step = prefix.find((s) => s.key === key);
    if (step === undefined)
      throw new WorkflowError(
        'invalid-input',
        `fork outputs name step ${JSON.stringify(key)}, which is not a completed step before ${JSON.stringify(options.from)}`,
        { runId: original.id, step: key },
      );
    step.output = toJsonValue(value, `the fork output of step ${key}`, {
      runId: original.id,
      step: key,
    });
  }
  return {
    id: init.id,
    workflow: original.workflow,
    owner: original.owner ?? null,
    status: 'running',
    input: init.input ?? JSON.stringify(original.input ?? null),
    output: null,
    steps: encodeSteps(prefix),
    waiting: null,
    wakeAt: null,
    error: null,
    forkedFrom: JSON.stringify({ runId: original.id, step: options.from }),
    createdAt: init.now,
    updatedAt: init.now,
    leaseOwner: null,
    leaseExpiresAt: null,
    version: 0,
  };
}
