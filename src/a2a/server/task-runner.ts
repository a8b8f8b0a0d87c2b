import { randomUUID } from 'node:crypto';
import type { DeferredResults, Result, RunStore } from '../../core/index';
import type { Artifact, Message, Part } from '../wire-types';
import type { ServableAgent, ServedRunStream } from './servable-agent';
import { StreamedText } from './streamed-text';
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

/** Runs the agent: with `text`, its answer's fragments go there as they stream. */
type Execute = (signal: AbortSignal, text: StreamedText | undefined) => Promise<Result<unknown>>;

/** The store and owner options of a run of this task. */
function storeOptions(
  agent: ServableAgent,
  context: RunContext,
  owner: string | undefined,
): { store?: RunStore; owner?: string } {
  const stored = context.store ?? agent.store;
  return {
    ...(context.store !== undefined && { store: context.store }),
    ...(stored !== undefined && owner !== undefined && { owner }),
  };
}

/** Whether the agent's text answer streams: a streaming model, the method, and text output. */
function streamsText(agent: ServableAgent, resuming: boolean): boolean {
  if (agent.streaming !== true) return false;
  const method = resuming ? typeof agent.resumeStream : typeof agent.runStream;
  if (method !== 'function') return false;
  return agent.describe?.().output === undefined;
}

/** Feeds a streaming run's text to `text`; settles with its result. */
async function drain(stream: ServedRunStream, text: StreamedText): Promise<Result<unknown>> {
  try {
    for await (const fragment of stream.textStream) text.push(fragment);
  } catch {
    // The run's result reports the failure.
  }
  return stream.result;
}

/**
 * Runs (or, with `results`, resumes) the task's agent in the background: WORKING now, then the
 * output artifact and COMPLETED, INPUT_REQUIRED with the pending calls, or FAILED with a generic
 * text and a reference (the thrown text never leaves the server). A canceled task stays CANCELED.
 * An agent that streams text (`streaming`, `runStream`/`resumeStream`, no structured output)
 * publishes its answer as chunks of one artifact while it runs.
 */
export function startRun(
  record: TaskRecord,
  agent: ServableAgent,
  prompt: string,
  context: RunContext,
  owner: string | undefined,
  results?: DeferredResults,
): void {
  const options = storeOptions(agent, context, owner);
  const from = record.resumeFrom;
  if (results !== undefined && from !== undefined) {
    launch(record, context, streamsText(agent, true), (signal, text) =>
      text !== undefined && agent.resumeStream !== undefined
        ? drain(agent.resumeStream(from, results, { signal, ...options }), text)
        : agent.resume(from, results, { signal, ...options }),
    );
    return;
  }
  const stored = context.store ?? agent.store;
  const runOptions = {
    ...options,
    ...(stored !== undefined && { runId: record.id, conversation: record.contextId }),
  };
  launch(record, context, streamsText(agent, false), (signal, text) =>
    text !== undefined && agent.runStream !== undefined
      ? drain(agent.runStream(prompt, { signal, ...runOptions }), text)
      : agent.run(prompt, { signal, ...runOptions }),
  );
}

/**
 * Continues the task's stored run from its last checkpoint (`agent.resumeRun`), in the background
 * like {@link startRun}: the recovery of a run its process stopped running. A failure for which
 * `heldElsewhere` answers true (another process took the run) leaves the task as it is. Internal.
 */
export function continueRun(
  record: TaskRecord,
  agent: ServableAgent,
  context: RunContext,
  heldElsewhere: (error: unknown) => boolean,
): void {
  if (agent.resumeRun === undefined) return;
  const options = storeOptions(agent, context, record.owner);
  launch(
    record,
    context,
    false,
    (signal) =>
      agent.resumeRun === undefined
        ? Promise.reject(new TypeError('the agent has no resumeRun'))
        : agent.resumeRun(record.id, { signal, ...options }),
    heldElsewhere,
  );
}

function launch(
  record: TaskRecord,
  context: RunContext,
  streams: boolean,
  execute: Execute,
  heldElsewhere?: (error: unknown) => boolean,
): void {
  const controller = new AbortController();
  record.controller = controller;
  setStatus(record, 'TASK_STATE_WORKING');
  const text = streams ? new StreamedText(record, outputArtifactId(record)) : undefined;
  const run = (async (): Promise<Result<unknown>> => execute(controller.signal, text))();
  run.then(
    (result) => {
      if (record.controller === controller) record.controller = undefined;
      if (record.state === 'TASK_STATE_CANCELED') {
        text?.discard();
        return;
      }
      finish(record, result, text);
    },
    (error: unknown) => {
      if (record.controller === controller) record.controller = undefined;
      text?.discard();
      if (record.state === 'TASK_STATE_CANCELED') return;
      if (heldElsewhere?.(error) === true) return;
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

function finish(record: TaskRecord, result: Result<unknown>, text: StreamedText | undefined): void {
  if (result.pending !== undefined) {
    text?.discard();
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
  if (text !== undefined && typeof result.output === 'string') {
    text.finish(result.output);
  } else {
    text?.discard();
    addArtifact(record, outputArtifact(record, result.output));
  }
  setStatus(record, 'TASK_STATE_COMPLETED');
}

/** The id the task's next output artifact gets. */
function outputArtifactId(record: TaskRecord): string {
  return `${record.id}-output-${String(record.artifacts.length)}`;
}

/** The run's output as an artifact: a text part for a string, a data part for anything else. */
export function outputArtifact(record: TaskRecord, output: unknown): Artifact {
  const part: Part =
    typeof output === 'string'
      ? { text: output }
      : { data: output ?? null, mediaType: 'application/json' };
  return {
    artifactId: outputArtifactId(record),
    name: 'output',
    parts: [part],
  };
}
