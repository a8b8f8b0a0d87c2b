import { loadRun, StoreError } from '../../core/index';
import type { RunRecord, RunStore } from '../../core/index';
import type { ServableAgent } from './servable-agent';
import { agentMessage, outputArtifact } from './task-runner';
import { newTaskRecord, type TaskRecord, type TaskRegistry } from './task-registry';

/**
 * The task of a stored run, not registered: a completed run with its output artifact, a paused
 * one INPUT_REQUIRED (the next message resumes it), a failed one FAILED (generic text), a running
 * one WORKING. The owner is the run's.
 */
export function taskOfRun(run: RunRecord, agentKey: string): TaskRecord {
  const record = newTaskRecord(run.id, run.conversationId ?? run.id, agentKey, run.owner);
  record.timestamp = new Date(run.updatedAt).toISOString();
  switch (run.status) {
    case 'completed':
      record.artifacts.push(outputArtifact(record, run.output));
      record.state = 'TASK_STATE_COMPLETED';
      break;
    case 'failed':
      record.state = 'TASK_STATE_FAILED';
      record.statusMessage = agentMessage(record, [{ text: 'internal error' }]);
      break;
    case 'paused': {
      const pending = run.pending ?? { approvals: [], external: [] };
      record.resumeFrom = run.id;
      record.pendingCalls = {
        approvals: pending.approvals.map((call) => call.callId),
        external: pending.external.map((call) => call.callId),
      };
      record.state = 'TASK_STATE_INPUT_REQUIRED';
      record.statusMessage = agentMessage(record, [
        { data: { pending }, mediaType: 'application/json' },
      ]);
      break;
    }
    case 'running':
      record.state = 'TASK_STATE_WORKING';
      break;
  }
  return record;
}

/** A task read back from the store: its registered record and the stored run it came from. */
export interface RestoredTask {
  readonly record: TaskRecord;
  /** The stored run; undefined when another request registered the task meanwhile. */
  readonly run: RunRecord | undefined;
}

/**
 * A task this process does not hold, read back from the store as the stored run of the same id
 * (after a restart, or on another instance) and registered (see {@link taskOfRun}). Only a run of
 * this agent and of the caller's owner is found; otherwise undefined.
 */
export async function restoreTask(
  tasks: TaskRegistry,
  store: RunStore,
  agent: ServableAgent,
  agentKey: string,
  id: string,
  owner: string | undefined,
): Promise<RestoredTask | undefined> {
  let run: RunRecord;
  try {
    run = await loadRun(store, id, {
      agent: agent.name,
      ...(owner !== undefined && { owner }),
    });
  } catch (error) {
    if (StoreError.isReason(error, 'not-found')) return undefined;
    throw error;
  }
  // An unowned caller sees only unowned runs (loadRun without owner is an operator's read).
  if (run.owner !== owner) return undefined;
  // Another request read it meanwhile: there is one record per task.
  const held = tasks.get(id);
  if (held !== undefined) {
    return held.agentKey === agentKey && held.owner === owner
      ? { record: held, run: undefined }
      : undefined;
  }
  return { record: tasks.add(taskOfRun(run, agentKey)), run };
}
