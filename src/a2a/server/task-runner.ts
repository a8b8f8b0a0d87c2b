import { randomUUID } from 'node:crypto';
import type { DeferredResults, Result, RunStore } from '../../core/index';
import type { Artifact, Message, Part } from '../wire-types';
import type { ServableAgent } from './servable-agent';
import { addArtifact, setStatus, type TaskRecord } from './task-registry';

/** What a run needs from the server. Internal. */
export interface RunContext {
  /** The server's store (else the agent's own, if any). */
  readonly store: RunStore | undefined;
  /** Told about every failed run, with the reference the client sees. */
  readonly onError: ((error: unknown, info: { taskId: string; ref: string }) => void) | undefined;
}

/** An agent message of this task. */
export function agentMessage(record: TaskRecord, parts: Part[]): Message {
  return {
    messageId: randomUUID(),
    contextId: record.contextId,
    taskId: record.id,
    role: 'ROLE_AGENT',
    parts,
  };
}

/**
 * Runs (or, with `results`, resumes) the task's agent in the background: WORKING now, then the
 * output artifact and COMPLETED, INPUT_REQUIRED with the pending calls, or FAILED with a generic
 * text and a reference (the thrown text never leaves the server). A canceled task stays CANCELED.
 */
export function startRun(
  record: TaskRecord,
  agent: ServableAgent,
  prompt: string,
  context: RunContext,
  owner: string | undefined,
  results?: DeferredResults,
): void {
  const controller = new AbortController();
  record.controller = controller;
  setStatus(record, 'TASK_STATE_WORKING');
  const stored = context.store ?? agent.store;
  const storeOption = {
    ...(context.store !== undefined && { store: context.store }),
    ...(stored !== undefined && owner !== undefined && { owner }),
  };
  const run = (async (): Promise<Result<unknown>> =>
    results !== undefined && record.resumeFrom !== undefined
      ? agent.resume(record.resumeFrom, results, { signal: controller.signal, ...storeOption })
      : agent.run(prompt, {
          signal: controller.signal,
          ...storeOption,
          ...(stored !== undefined && { runId: record.id, conversation: record.contextId }),
        }))();
  run.then(
    (result) => {
      record.controller = undefined;
      if (record.state === 'TASK_STATE_CANCELED') return;
      finish(record, result);
    },
    (error: unknown) => {
      record.controller = undefined;
      if (record.state === 'TASK_STATE_CANCELED') return;
      const ref = randomUUID().slice(0, 8);
      try {
        context.onError?.(error, { taskId: record.id, ref });
      } catch {
        // A failing error hook must not keep the task from settling.
      }
      setStatus(
        record,
        'TASK_STATE_FAILED',
        agentMessage(record, [{ text: `internal error (ref ${ref})` }]),
      );
    },
  );
}

function finish(record: TaskRecord, result: Result<unknown>): void {
  if (result.pending !== undefined) {
    const { approvals, external } = result.pending;
    record.resumeFrom = result.runId ?? result.state;
    record.pendingCalls = {
      approvals: approvals.map((call) => call.callId),
      external: external.map((call) => call.callId),
    };
    const names = [...approvals, ...external].map((call) => call.toolName).join(', ');
    setStatus(
      record,
      'TASK_STATE_INPUT_REQUIRED',
      agentMessage(record, [
        { text: `input required for: ${names}` },
        { data: { pending: { approvals, external } }, mediaType: 'application/json' },
      ]),
    );
    return;
  }
  record.resumeFrom = undefined;
  addArtifact(record, outputArtifact(record, result.output));
  setStatus(record, 'TASK_STATE_COMPLETED');
}

/** The run's output as an artifact: a text part for a string, a data part for anything else. */
export function outputArtifact(record: TaskRecord, output: unknown): Artifact {
  const part: Part =
    typeof output === 'string'
      ? { text: output }
      : { data: output ?? null, mediaType: 'application/json' };
  return {
    artifactId: `${record.id}-output-${String(record.artifacts.length)}`,
    name: 'output',
    parts: [part],
  };
}
