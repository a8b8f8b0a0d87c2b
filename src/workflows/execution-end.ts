import type { JsonValue } from '../core/index';
import type { Execution, Outcome } from './execution';
import { toJsonValue } from './json-value';
import type { WorkflowRunResult } from './run-info';
import { encodeSteps } from './row-codec';
import { validated } from './validate';
import { WorkflowError } from './workflow-error';

/**
 * Records how an execution ended, once every step settled: lost (nothing written), stopped
 * (lease given up), invalid resume data (the row restored), fatal or failed (`failed`), suspended,
 * or completed (the output validated and stored). Internal.
 */
export async function endExecution(
  exec: Execution,
  outcome: Outcome,
): Promise<WorkflowRunResult<unknown>> {
  const { writer, store, definition, before } = exec.setup;
  writer.stop(); // no renewal may re-take the lease after the final write gives it up
  await writer.idle();
  if (writer.lost !== undefined) throw writer.lost;
  if (exec.stopped !== undefined) {
    // Stopped by its caller: what completed is kept, the run stays running for a later recovery.
    await writer.write(() => ({ steps: encodeSteps(exec.records.values()) }), true);
    throw exec.stopped;
  }
  const base = { runId: exec.runId, workflow: definition.name };
  const fatal = exec.fatal;
  if (fatal?.kind === 'invalid-input') {
    // Invalid resume data records nothing: the row goes back to what it was.
    const { status, steps, waiting, wakeAt, output, error } = before;
    await writer.write(() => ({ status, steps, waiting, wakeAt, output, error }), true);
    throw fatal;
  }
  if (fatal !== undefined) return fail(exec, fatal);
  if (exec.suspensions.length > 0) {
    const waiting = [...exec.suspensions].sort(
      (a, b) => (exec.records.get(a.step)?.seq ?? 0) - (exec.records.get(b.step)?.seq ?? 0),
    );
    const timers = waiting.flatMap((w) => (w.wakeAt === undefined ? [] : [w.wakeAt]));
    await writer.write(
      () => ({
        status: 'suspended',
        steps: encodeSteps(exec.records.values()),
        waiting: JSON.stringify(waiting),
        wakeAt: timers.length === 0 ? null : Math.min(...timers),
      }),
      true,
    );
    exec.emit({ kind: 'workflow_suspended', ...base, waiting, at: store.now() });
    return { runId: exec.runId, status: 'suspended', waiting };
  }
  if (!outcome.ok) return fail(exec, failure(exec, outcome.error));
  let output: JsonValue | undefined;
  try {
    const value = await validated(
      definition.output,
      outcome.value,
      `workflow ${definition.name}'s output`,
      base,
    );
    output =
      value === undefined
        ? undefined
        : toJsonValue(value, `workflow ${definition.name}'s output`, base);
  } catch (error) {
    return fail(exec, failure(exec, error));
  }
  await writer.write(
    () => ({
      status: 'completed',
      steps: encodeSteps(exec.records.values()),
      output: output === undefined ? null : JSON.stringify(output),
      waiting: null,
      wakeAt: null,
    }),
    true,
  );
  exec.emit({ kind: 'workflow_completed', ...base, at: store.now() });
  return { runId: exec.runId, status: 'completed', output };
}

/** `error` as the run's WorkflowError (a step's, or the run function's own as `step-failed`). */
function failure(exec: Execution, error: unknown): WorkflowError {
  if (WorkflowError.is(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new WorkflowError(
    'step-failed',
    `workflow ${exec.setup.definition.name} run ${exec.runId} failed: ${message}`,
    { runId: exec.runId, cause: error },
  );
}

async function fail(exec: Execution, error: WorkflowError): Promise<never> {
  const { writer, store, definition } = exec.setup;
  const stored = {
    name: error.name,
    message: error.message,
    ...(error.step !== undefined && { step: error.step }),
  };
  await writer.write(
    () => ({
      status: 'failed',
      steps: encodeSteps(exec.records.values()),
      error: JSON.stringify(stored),
      waiting: null,
      wakeAt: null,
    }),
    true,
  );
  exec.emit({
    kind: 'workflow_failed',
    runId: exec.runId,
    workflow: definition.name,
    ...(error.step !== undefined && { step: error.step }),
    error: { name: error.name, message: error.message },
    at: store.now(),
  });
  throw error;
}
